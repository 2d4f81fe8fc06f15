"""How two bots play, not just who wins: passes, draws, hero plays and final scores.

    .venv/bin/python benchmarks/behaviour.py search alphabeta --games 40 --time 0.1 --jobs 2

Plays a match of paired deals (as ``roses rk match``) and reports, per bot and game, the
forced passes (RK-11: a full hand with no play, a free move for the opponent), the draws
(RK-9), the hero plays (RK-10) and the ply of the first, and the final score (RK-14): the
habits the issue read from the thesis's games (an MCTS stuck with a full hand 5-6 times a
game and spending its heroes early).
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict

from roses.bots.roseking.match import MatchConfig, game_seed, play_match
from roses.roseking import Board, Move


def habits(config: MatchConfig, jobs: int) -> dict[str, dict[str, list[float]]]:
    """Each bot's per-game figures, keyed "a" and "b"."""
    figures: dict[str, dict[str, list[float]]] = {"a": defaultdict(list), "b": defaultdict(list)}
    for result in play_match(config, jobs):
        assert result.record is not None
        board = Board(config.variant, seed=game_seed(config.seed, result.index))
        counts = {bot: {"passes": 0, "draws": 0, "heroes": 0} for bot in "ab"}
        first_hero: dict[str, int] = {}
        for ply, text in enumerate(result.record["moves"]):
            bot = "a" if board.turn & 1 == result.a_team else "b"
            if text == "pass":
                counts[bot]["passes"] += 1
            elif text == "draw":
                counts[bot]["draws"] += 1
            elif text.endswith("h"):
                counts[bot]["heroes"] += 1
                first_hero.setdefault(bot, ply)
            board.push(Move.from_str(text))
        final = result.record["result"]
        for bot in "ab":
            team = result.a_team if bot == "a" else 1 - result.a_team
            for name, count in counts[bot].items():
                figures[bot][name].append(count)
            if bot in first_hero:
                figures[bot]["first hero ply"].append(first_hero[bot])
            figures[bot]["score"].append(final["red" if team == 0 else "white"]["score"])
        figures["a"]["points"].append(result.points_a)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bot_a")
    parser.add_argument("bot_b")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    config = MatchConfig(
        args.bot_a, args.bot_b, args.games, seed=args.seed, time_limit=args.time,
        keep_records=True,
    )  # fmt: skip
    figures = habits(config, args.jobs)
    points = figures["a"].pop("points")
    print(f"{args.bot_a} vs {args.bot_b}, {args.games} games at {args.time:g} s a move "
          f"(seed {args.seed}): {args.bot_a} scored {statistics.mean(points):.3f}")  # fmt: skip
    print(f"{'per game':<16}{args.bot_a:>12}{args.bot_b:>12}")
    for name in ("passes", "draws", "heroes", "first hero ply", "score"):
        a, b = (statistics.mean(figures[bot][name]) for bot in "ab")
        print(f"{name:<16}{a:>12.2f}{b:>12.2f}")


if __name__ == "__main__":
    main()
