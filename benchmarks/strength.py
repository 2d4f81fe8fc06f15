"""The issue's strength matches; results go to results/strength.md.

    .venv/bin/python benchmarks/strength.py --only NAME [--games N] [--time S] [--jobs J]

Each match names its bots, their seconds per move, its variant, its games and the issue's
goal. ``--time`` scales every budget and ``--games`` overrides the count, so a shorter
run says honestly what it measured. Every game's result is appended to
``results/strength-games/NAME-seedN.jsonl`` (not kept in git) as it finishes, and a match
started again with the same name, seed and budget resumes: the games in that log are not
played again and count in the result. ``roses rk match`` plays the same games (same
seed, same budget; the command is printed in each result row).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import NamedTuple

from roses.bots.roseking.match import MatchConfig, format_elo, format_stats, match_stats, play_match
from roses.roseking import Variant

RESULTS = Path(__file__).parent / "results" / "strength.md"
GAME_LOGS = Path(__file__).parent / "results" / "strength-games"


class Match(NamedTuple):
    bot_a: str
    bot_b: str
    seconds_a: float  # per move, at scale 1
    seconds_b: float
    games: int
    goal: str
    variant: Variant = Variant.CLASSIC


MATCHES = {
    # the search bot of issue 16 against its sparring partners and today's mcts
    "alphabeta-0.1": Match("search", "alphabeta", 0.1, 0.1, 200, ">= 0.75"),
    "mcts-0.1": Match("search", "mcts", 0.1, 0.1, 200, ">= 0.75"),
    "alphabeta-1": Match("search", "alphabeta", 1.0, 1.0, 100, ">= 0.75"),
    "mcts-1": Match("search", "mcts", 1.0, 1.0, 100, ">= 0.75"),
    "search-time-odds": Match("search", "search", 1.0, 0.1, 100, ">= 0.65"),
    "four-player-0.1": Match("search", "mcts", 0.1, 0.1, 100, ">= 0.75", Variant.FOUR_PLAYER),
    "expectimax-0.1": Match("search", "expectimax", 0.1, 0.1, 100, "> 0.5 (pruning pays)"),
    # the earlier goals of the mcts bot
    "greedy": Match("mcts", "greedy", 1.0, 1.0, 200, ">= 0.90"),
    "random": Match("mcts", "random", 1.0, 1.0, 200, ">= 0.99"),
    "time-odds": Match("mcts", "mcts", 2.0, 0.25, 200, "> 0.60"),
}

HEADER = """# Strength of the search bot

## Every run of `benchmarks/strength.py`

| match | budget | games | W-D-L | score [95% CI] | Elo [95% CI] | goal | wall time |
|---|---|---|---|---|---|---|---|
"""


def command(config: MatchConfig) -> str:
    """The ``roses rk match`` line that plays the same games."""
    text = f"roses rk match {config.bot_a} {config.bot_b} --games {config.games}"
    text += f" --seed {config.seed} --time {config.time_limit:g}"
    if config.time_limit_b is not None and config.time_limit_b != config.time_limit:
        text += f" --time-b {config.time_limit_b:g}"
    if config.variant is not Variant.CLASSIC:
        text += f" --variant {config.variant.value}"
    return text


def played_before(log: Path, budget: str) -> dict[int, float]:
    """Bot A's points of each game already in ``log`` at this budget."""
    if not log.exists():
        return {}
    points = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry["budget"] == budget:
            points[entry["game"]] = entry["points_a"]
    return points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=None, help="Instead of the match's.")
    parser.add_argument("--time", type=float, default=1.0, help="Scale of every budget.")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", choices=sorted(MATCHES), action="append", required=True)
    args = parser.parse_args()
    if not RESULTS.exists():
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(HEADER, encoding="utf-8")
    for name in args.only:
        match = MATCHES[name]
        config = MatchConfig(
            match.bot_a, match.bot_b, args.games or match.games, seed=args.seed,
            time_limit=match.seconds_a * args.time, time_limit_b=match.seconds_b * args.time,
            variant=match.variant,
        )  # fmt: skip
        budget = config.describe_budget()
        start = time.perf_counter()
        GAME_LOGS.mkdir(parents=True, exist_ok=True)
        log_path = GAME_LOGS / f"{name}-seed{args.seed}.jsonl"
        points = played_before(log_path, budget)
        with log_path.open("a", encoding="utf-8") as log:
            for result in play_match(config, jobs=args.jobs, skip=points):
                points[result.index] = result.points_a
                entry = {
                    "game": result.index, "a_team": result.a_team,
                    "points_a": result.points_a, "budget": budget,
                }  # fmt: skip
                log.write(json.dumps(entry) + "\n")
                log.flush()
                print(f"{name} game {result.index}: {result.points_a}", flush=True)
        minutes = (time.perf_counter() - start) / 60
        stats = match_stats([points[i] for i in sorted(points) if i < config.games])
        print(format_stats(config, stats), flush=True)
        load = f"load {os.getloadavg()[0]:.1f}"
        with RESULTS.open("a", encoding="utf-8") as out:
            out.write(
                f"| {name}: {config.bot_a} vs {config.bot_b} (`{command(config)}`) | {budget} | "
                f"{stats.games} | {stats.wins}-{stats.draws}-{stats.losses} | {stats.score:.3f} "
                f"[{stats.low:.3f}, {stats.high:.3f}] | {format_elo(stats.elo)} "
                f"[{format_elo(stats.elo_low)}, {format_elo(stats.elo_high)}] | {match.goal} | "
                f"{minutes:.1f} min, {load} |\n"
            )


if __name__ == "__main__":
    main()
