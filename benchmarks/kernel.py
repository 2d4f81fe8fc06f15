"""Speed of the playout kernel and of the search bot.

    .venv/bin/python benchmarks/kernel.py [--games N] [--search-seconds S]

Prints JSON lines: the kernel's random two- and four-player games per second (the same
object as ``roses rk bench --kernel``), the engine's own benchmark for comparison, and
the search bot's iterations and playouts per second on a start position.
"""

from __future__ import annotations

import argparse
import json
import time

from roses.bots.roseking import kernel
from roses.bots.roseking.base import BotSpec
from roses.bots.roseking.mcts import MctsBot
from roses.roseking import Board
from roses.roseking.bench import random_games


def search_speed(seconds: float) -> dict[str, object]:
    bot = MctsBot(BotSpec("mcts", seed=1, time_limit=seconds))
    start = time.perf_counter()
    bot.search(Board(seed=3).view(0))
    elapsed = time.perf_counter() - start
    return {
        "search_seconds": round(elapsed, 3),
        "iterations_per_s": round(bot.last_iterations / elapsed),
        "playouts_per_s": round(bot.last_playouts / elapsed),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--search-seconds", type=float, default=1.0)
    args = parser.parse_args()
    print(json.dumps({"kernel": "numba" if kernel.NUMBA else "python", "seats": 2,
                      **kernel.benchmark(args.games, seats=2)}))  # fmt: skip
    print(json.dumps({"kernel": "numba" if kernel.NUMBA else "python", "seats": 4,
                      **kernel.benchmark(args.games, seats=4)}))  # fmt: skip
    print(json.dumps({"engine": "roses.roseking", **random_games(2000)}))
    print(json.dumps({"bot": "mcts", **search_speed(args.search_seconds)}))


if __name__ == "__main__":
    main()
