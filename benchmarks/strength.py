"""The issue's strength matches for the search bot; results go to results/strength.md.

    .venv/bin/python benchmarks/strength.py [--games N] [--time S] [--jobs J] [--only NAME]

The full specification is 200 games per match at 1 s per move (mcts against greedy and
against random) and 2 s against 0.25 s (mcts against itself): hours of CPU. ``--time``
scales every budget (``--time 0.25`` plays 0.25 s, and 0.5 s against 0.0625 s), and
``--games`` sets the games per match, so a shorter run is honest about what it measured:
each line states the budget, the games and the 95% interval. Every game's result is also
appended to ``results/strength-games/NAME-seedN.jsonl`` as it finishes, so a match that is
stopped part-way still shows what it played.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from roses.bots.roseking.match import MatchConfig, format_elo, format_stats, match_stats, play_match

RESULTS = Path(__file__).parent / "results" / "strength.md"
GAME_LOGS = Path(__file__).parent / "results" / "strength-games"

# name: (bot A, bot B, A's seconds per move at scale 1, B's, the goal for A's score)
MATCHES = {
    "greedy": ("mcts", "greedy", 1.0, 1.0, ">= 0.90"),
    "random": ("mcts", "random", 1.0, 1.0, ">= 0.99"),
    "time-odds": ("mcts", "mcts", 2.0, 0.25, "> 0.60"),
}

HEADER = """# Strength of the search bot

## Every run of `benchmarks/strength.py`

| match | budget | games | W-D-L | score [95% CI] | Elo [95% CI] | goal | wall time |
|---|---|---|---|---|---|---|---|
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--time", type=float, default=1.0, help="Scale of every budget.")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", choices=sorted(MATCHES), action="append")
    args = parser.parse_args()
    if not RESULTS.exists():
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(HEADER, encoding="utf-8")
    for name in args.only or list(MATCHES):
        bot_a, bot_b, seconds_a, seconds_b, goal = MATCHES[name]
        config = MatchConfig(
            bot_a, bot_b, args.games, seed=args.seed, time_limit=seconds_a * args.time,
            time_limit_b=seconds_b * args.time,
        )  # fmt: skip
        start = time.perf_counter()
        GAME_LOGS.mkdir(parents=True, exist_ok=True)
        points = []
        with (GAME_LOGS / f"{name}-seed{args.seed}.jsonl").open("a", encoding="utf-8") as log:
            for result in play_match(config, jobs=args.jobs):
                points.append(result.points_a)
                entry = {
                    "game": result.index, "a_team": result.a_team,
                    "points_a": result.points_a, "budget": config.describe_budget(),
                }  # fmt: skip
                log.write(json.dumps(entry) + "\n")
                log.flush()
        minutes = (time.perf_counter() - start) / 60
        stats = match_stats(points)
        print(format_stats(config, stats), flush=True)
        with RESULTS.open("a", encoding="utf-8") as out:
            out.write(
                f"| {bot_a} vs {bot_b} (seed {args.seed}) | {config.describe_budget()} | "
                f"{stats.games} | {stats.wins}-{stats.draws}-{stats.losses} | {stats.score:.3f} "
                f"[{stats.low:.3f}, {stats.high:.3f}] | {format_elo(stats.elo)} "
                f"[{format_elo(stats.elo_low)}, {format_elo(stats.elo_high)}] | {goal} | "
                f"{minutes:.1f} min |\n"
            )


if __name__ == "__main__":
    main()
