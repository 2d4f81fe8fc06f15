"""docs/research.md's examples run as doctests, so the guide cannot drift from the code."""

import doctest
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def test_research_guide_examples() -> None:
    result = doctest.testfile(str(GUIDE), module_relative=False)
    assert result.attempted > 0
    assert result.failed == 0
