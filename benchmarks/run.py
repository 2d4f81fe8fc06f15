"""``make bench``: every quick speed benchmark, one after another, printing their JSON lines.

The strength matches (``strength.py``) and design matches (``tuning.py``) take hours of
CPU and are run on their own; so are the full load runs of ``server_load.py`` (here only a
short smoke setting that records nothing).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
QUICK = [
    ["rose_king_engine.py"],
    ["kernel.py"],
    ["rose_king_batch_cli.py"],
    ["wotr_simulate.py"],
    ["bot_answers.py", "--rounds", "1"],
    ["server_load.py", "--games", "20", "--seconds", "15", "--warmup", "5"],
]


def main() -> int:
    failed = 0
    for script, *options in QUICK:
        print(f"# {' '.join([script, *options])}", flush=True)
        command = [sys.executable, str(HERE / script), *options]
        failed |= subprocess.run(command, check=False).returncode
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
