"""Wars of the Roses: how much the search does per planning decision.

From the planning positions of heuristic games (every seat's view, ``--positions`` of
them), runs the search bot at each ``--time`` and prints one JSON object per time limit:
decisions per second, engine reveals per second (distinct plan combinations resolved by
``resolve_reveal``, each valued), regret-matching iterations and candidate plans per
decision (the viewer's and the others', medians).

    .venv/bin/python benchmarks/wotr_search.py [--players 4] [--time 0.2 1 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from roses.bots.wotr.search import SearchBot

sys.path.insert(0, str(Path(__file__).parent))
from bot_answers import wotr_positions


def measure(players: int, seconds: float, positions: int, seed: int) -> dict[str, object]:
    views = wotr_positions(positions, players, seed)
    spent, reveals, iterations, mine, theirs = [], [], [], [], []
    for number, view in enumerate(views):
        bot = SearchBot(seed=number, time_limit=seconds)
        start = time.perf_counter()
        bot.act(view)
        spent.append(time.perf_counter() - start)
        report = bot.last_report
        assert report is not None and view.viewer is not None
        reveals.append(report.reveals)
        iterations.append(report.iterations)
        mine.append(report.candidates[view.viewer])
        theirs.append(statistics.median(c for s, c in enumerate(report.candidates)
                                        if s != view.viewer))  # fmt: skip
    total = sum(spent)
    return {
        "players": players,
        "time_limit": seconds,
        "decisions": len(views),
        "decisions_per_s": round(len(views) / total, 2),
        "slowest_s": round(max(spent), 3),
        "reveals_per_s": round(sum(reveals) / total),
        "iterations_median": statistics.median(iterations),
        "candidates_median": [statistics.median(mine), statistics.median(theirs)],
        "load": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--time", type=float, nargs="+", default=[0.2, 1.0])
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for seconds in args.time:
        print(json.dumps(measure(args.players, seconds, args.positions, args.seed)), flush=True)


if __name__ == "__main__":
    main()
