"""What every row of a speed benchmark says beside its figures (issue 37): the commit of
the code measured, the machine's speed (``reference_loop.py``, measured in the same run),
its load, and the command that measures it again.

A row is recorded (``--record``) only from a clean checkout: the commit it names is then
the code that ran, benchmarks included. Without ``--record`` a benchmark prints its row and
appends nothing.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from reference_loop import reference_rate

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()


def commit(ref: str = "HEAD") -> str:
    """``ref``'s abbreviated commit."""
    return _git("rev-parse", "--short", ref)


def why_not_recordable() -> str | None:
    """Why a row may not be recorded from this checkout (uncommitted changes to tracked
    files: the row would name a commit that is not the code that ran), or None."""
    try:
        changed = _git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.CalledProcessError) as error:
        return f"not a git checkout ({error})"
    if changed:
        return f"the checkout has uncommitted changes:\n{changed}"
    return None


def command(script: str, argv: Sequence[str]) -> str:
    """The command that measures the row again (``--record`` and where to write left out)."""
    kept = [a for a in argv if a != "--record"]
    return shlex.join(["python", f"benchmarks/{script}", *kept])


def machine() -> dict[str, object]:
    """The machine's speed and load now: the reference loop's rate (M loops/s) and the
    1 / 5 / 15-minute load averages."""
    return {
        "reference_m_loops_per_s": round(reference_rate(), 2),
        "load": [round(x, 2) for x in os.getloadavg()],
        "nproc": os.cpu_count(),
    }


def append_row(path: Path, header: str, row: str) -> None:
    """Append ``row`` to ``path``'s table (``header``, intro and columns, starts a new file)."""
    if not path.exists():
        path.write_text(header)
    with path.open("a") as out:
        out.write(row)


def refuse_if_dirty(program: str) -> bool:
    """Print why a ``--record`` run may not record and return True, or False."""
    reason = why_not_recordable()
    if reason is not None:
        print(f"{program}: --record: {reason}; commit first (or run without --record)",
              file=sys.stderr)  # fmt: skip
        return True
    return False
