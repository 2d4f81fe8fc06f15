"""Figures tied to landed code: every commit a results file names is one of this checkout's
history, and every row of a speed run says on what machine speed, load and command it was
measured (issue 37), so that anyone can run it again and compare."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
# An abbreviated commit: 7 to 40 hex digits with at least one letter and one digit (a bare
# number such as 1800000 is a count, a bare word such as "defaced" is a word).
COMMIT = re.compile(r"(?<![\w/.-])(?=[0-9a-f]*[a-f])(?=[a-f]*[0-9])[0-9a-f]{7,40}(?![\w/-])")
# In a column of commits, digits alone are a commit too (2267414).
IN_COLUMN = re.compile(r"(?<![\w/.-])[0-9a-f]{7,40}(?![\w/-])")
COMMIT_COLUMNS = ("commit", "code", "recorded in")
# The files whose rows are speed runs: each row names the reference loop's rate measured in
# the same run, the machine's load and the command that reproduces it.
SPEED_RUNS = ("server-load.md", "wotr-server.md")
MACHINE_COLUMNS = ("reference loop", "load")


@dataclass
class Table:
    file: str
    line: int  # of its header
    header: list[str]
    rows: list[tuple[int, list[str]]]


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _tables(path: Path) -> list[Table]:
    tables: list[Table] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    number = 0
    while number < len(lines) - 1:
        line, below = lines[number], lines[number + 1]
        if line.startswith("|") and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", below.strip()):
            table = Table(path.name, number + 1, [c.lower() for c in _cells(line)], [])
            number += 2
            while number < len(lines) and lines[number].startswith("|"):
                table.rows.append((number + 1, _cells(lines[number])))
                number += 1
            tables.append(table)
        else:
            number += 1
    return tables


def _commit_cells(table: Table, cells: list[str]) -> list[str]:
    return [
        cells[i] for i, name in enumerate(table.header) if name in COMMIT_COLUMNS and i < len(cells)
    ]


def _files() -> list[Path]:
    return sorted(RESULTS.glob("*.md"))


@cache
def _in_git() -> bool:
    try:
        inside = subprocess.run(
            ["git", "rev-parse", "--is-inside-work-tree"],
            cwd=ROOT, capture_output=True, text=True, check=False,
        )  # fmt: skip
    except OSError:
        return False
    return inside.returncode == 0 and inside.stdout.strip() == "true"


def _git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def _landed(commit: str) -> bool:
    """Whether ``commit`` is HEAD or one of its ancestors."""
    return _git("merge-base", "--is-ancestor", commit, "HEAD").returncode == 0


def test_every_commit_named_in_the_results_is_landed() -> None:
    if not _in_git():
        pytest.skip("not a git checkout (an sdist): the commits cannot be looked up")
    named: dict[str, list[str]] = {}
    for path in _files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for commit in COMMIT.findall(line):
                named.setdefault(commit, []).append(f"{path.name}:{number}")
        for table in _tables(path):
            for number, cells in table.rows:
                for cell in _commit_cells(table, cells):
                    for commit in IN_COLUMN.findall(cell):
                        named.setdefault(commit, []).append(f"{path.name}:{number}")
    assert named, "no results file names a commit"
    missing = {c: places for c, places in named.items() if not _landed(c)}
    if missing and _git("rev-parse", "--is-shallow-repository").stdout.strip() == "true":
        pytest.skip(f"a shallow clone: its history may not hold {sorted(missing)}")
    assert not missing, (
        "results name commits that are not ancestors of HEAD (measured on code that did not "
        f"land): {missing}"
    )


def test_every_row_of_a_table_of_runs_names_its_commit() -> None:
    unnamed = []
    for path in _files():
        for table in _tables(path):
            if not any(name in COMMIT_COLUMNS for name in table.header):
                continue
            for number, cells in table.rows:
                if not any(IN_COLUMN.search(cell) for cell in _commit_cells(table, cells)):
                    unnamed.append(f"{path.name}:{number}")
    assert not unnamed, f"rows naming no commit: {unnamed}"


def test_every_speed_run_says_the_machine_speed_load_and_command() -> None:
    incomplete = []
    for name in SPEED_RUNS:
        for table in _tables(RESULTS / name):
            if "commit" not in table.header:
                continue
            wanted = {
                what: next((i for i, h in enumerate(table.header) if h.startswith(what)), None)
                for what in (*MACHINE_COLUMNS, "command")
            }
            absent = [what for what, column in wanted.items() if column is None]
            assert not absent, f"{name}:{table.line}: the table has no column {absent}"
            for number, cells in table.rows:
                cell = {what: cells[i] if i is not None and i < len(cells) else ""
                        for what, i in wanted.items()}  # fmt: skip
                if not all(re.search(r"\d", cell[what]) for what in MACHINE_COLUMNS) or not (
                    re.fullmatch(r"`python benchmarks/\w+\.py[^`]*`", cell["command"])
                ):
                    incomplete.append(f"{name}:{number}")
    assert not incomplete, (
        f"speed runs without their reference-loop rate, load or command: {incomplete}"
    )


def test_the_table_reader_finds_what_the_tests_check() -> None:
    """The checks above see tables as the files write them (they would pass on nothing)."""
    tables = [t for path in _files() for t in _tables(path)]
    assert any("commit" in t.header for t in tables)
    assert any("code" in t.header and t.rows for t in tables)
    assert COMMIT.findall("at 5f70459, 1800000 nodes, cafe, defaced, a1b2c3d4e5") == [
        "5f70459",
        "a1b2c3d4e5",
    ]
