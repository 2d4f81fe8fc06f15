"""The machine's speed beside a figure: a fixed loop of plain Python whose rate, measured in
the same run as a benchmark, lets figures from different machines (or the same machine
under other load) be compared.

    .venv/bin/python benchmarks/reference_loop.py      # prints the rate, M loops/s

The loop does integer arithmetic, a dict and a list, as engine and server code do; the
rate is the best of several short rounds, so a brief stall elsewhere does not lower it.
"""

from __future__ import annotations

import sys
import time

LOOPS = 200_000
ROUNDS = 5


def _loop(count: int) -> int:
    table: dict[int, int] = {}
    items: list[int] = []
    total = 0
    for i in range(count):
        key = (i * 7919) % 1031
        table[key] = table.get(key, 0) + i
        if i % 3 == 0:
            items.append(key)
        total += key ^ (i >> 3)
    return total + len(items) + len(table)


def reference_rate(rounds: int = ROUNDS) -> float:
    """Millions of loops a second: the best of ``rounds``."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        _loop(LOOPS)
        best = min(best, time.perf_counter() - start)
    return LOOPS / best / 1e6


if __name__ == "__main__":
    print(f"{reference_rate():.2f} M loops/s")
    sys.exit(0)
