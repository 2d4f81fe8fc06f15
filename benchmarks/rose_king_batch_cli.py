"""``roses rk legal`` / ``score`` / ``apply`` batch mode: 10,000 positions through the CLI.

Prints one JSON object per command with the wall time of the whole process (start-up
included), as a user piping positions would see it.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

from roses.roseking import Board


def positions(count: int) -> list[str]:
    rng = random.Random(1)
    lines = []
    while len(lines) < count:
        board = Board(seed=len(lines))
        while not board.is_over() and len(lines) < count:
            if board.legal_moves() != () and rng.random() < 0.2:
                lines.append(board.position())
            board.push(rng.choice(board.legal_moves()))
    return lines


def main() -> None:
    lines = "\n".join(positions(10_000)) + "\n"
    for command in (["legal"], ["score"], ["apply", "pass"]):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "roses", "rk", *command],
            input=lines,
            capture_output=True,
            text=True,
            check=False,
        )
        seconds = time.perf_counter() - start
        figures = {
            "command": "roses rk " + " ".join(command),
            "positions": 10_000,
            "output_lines": done.stdout.count("\n"),
            "seconds": round(seconds, 3),
        }
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
