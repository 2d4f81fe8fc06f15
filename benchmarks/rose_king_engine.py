"""The Rose King engine: random complete two-player games through the public API.

Prints the same JSON object as ``roses rk bench`` (best of several rounds, to damp noise
from other processes on the machine). The issue's goal is 5,000 games/s on one core; for
scale, a public TypeScript engine plays about 1,800 here and a plain C loop about 177,000.
"""

from __future__ import annotations

import argparse
import json

from roses.roseking.bench import random_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    results = [random_games(args.games, seed) for seed in range(args.rounds)]
    print(json.dumps(max(results, key=lambda r: r["games_per_s"])))


if __name__ == "__main__":
    main()
