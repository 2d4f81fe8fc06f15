"""``make bench``: every quick speed benchmark, one after another, printing their JSON lines.

The strength matches (``strength.py``) and design matches (``tuning.py``) take hours of
CPU and are run on their own.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
QUICK = ["rose_king_engine.py", "kernel.py", "rose_king_batch_cli.py", "wotr_simulate.py"]


def main() -> int:
    failed = 0
    for script in QUICK:
        print(f"# {script}", flush=True)
        failed |= subprocess.run([sys.executable, str(HERE / script)], check=False).returncode
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
