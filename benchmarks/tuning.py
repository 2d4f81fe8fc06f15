"""Design matches for the search bot: each idea against the plain version, same budget.

    .venv/bin/python benchmarks/tuning.py NAME [--games N] [--time S | --iterations K] [--jobs J]

Appends one line per match to ``benchmarks/results/tuning.md``. Variants are ``MctsBot``
keyword arguments registered under a name for the match runner.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from roses.bots.roseking import kernel
from roses.bots.roseking.base import BOT_FACTORIES, Bot, BotSpec
from roses.bots.roseking.match import MatchConfig, format_stats, match_stats, play_match
from roses.bots.roseking.mcts import MctsBot

RESULTS = Path(__file__).parent / "results" / "tuning.md"

VARIANTS: dict[str, dict[str, Any]] = {
    "uniform-playouts": {"policy": kernel.UNIFORM},
    "neighbour-playouts": {"policy": kernel.NEIGHBOURS},
    "rare-hero-playouts": {"policy": (1, 4, 0, 1, 0, 4)},
    "mild-neighbour-playouts": {"policy": (1, 3, 1, 1, 1, 3)},
    "no-reuse": {"reuse_tree": False},
    "leaf1": {"playouts_per_leaf": 1},
    "leaf2": {"playouts_per_leaf": 2},
    "leaf4": {"playouts_per_leaf": 4},
    "leaf8": {"playouts_per_leaf": 8},
    "c0.4": {"exploration": 0.4},
    "c0.7": {"exploration": 0.7},
    "c1.0": {"exploration": 1.0},
    "c1.4": {"exploration": 1.4},
}


def _register(name: str) -> None:
    options = VARIANTS[name]

    def factory(spec: BotSpec) -> Bot:
        return MctsBot(spec, **options)

    BOT_FACTORIES[name] = factory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("bot_a")
    parser.add_argument("bot_b")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--time", type=float, default=None)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    for name in (args.bot_a, args.bot_b):
        if name in VARIANTS:
            _register(name)
    config = MatchConfig(
        args.bot_a, args.bot_b, args.games, seed=args.seed,
        time_limit=args.time, iterations=args.iterations,
    )  # fmt: skip
    start = time.perf_counter()
    points = [result.points_a for result in play_match(config, args.jobs)]
    minutes = (time.perf_counter() - start) / 60
    stats = match_stats(points)
    print(format_stats(config, stats))
    budget = f"{args.time} s/move" if args.time is not None else f"{args.iterations} iterations"
    if args.seed != 1:
        budget += f" (seed {args.seed})"
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a", encoding="utf-8") as out:
        out.write(
            f"| {args.bot_a} | {args.bot_b} | {budget} | {stats.games} | {stats.wins}-"
            f"{stats.draws}-{stats.losses} | {stats.score:.3f} [{stats.low:.3f}, "
            f"{stats.high:.3f}] | {minutes:.1f} min |\n"
        )


if __name__ == "__main__":
    main()
