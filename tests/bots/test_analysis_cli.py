"""``roses rk analyse-position``: a position set up by a player, in RK-23 notation or as
the JSON view the server sends (the pile's cards without their order, RK-20)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from roses.roseking import Board
from tests.bots.test_analysis import FOUR_MOVES
from tests.bots.test_cli import run

# The exact win probabilities of FOUR_MOVES (tests/bots/test_analysis.py, by brute force).
EXACT = {"E2": 0.1667, "S1": 0.1, "W3": 0.0, "SW2": 0.0}
BUDGET = ("--iterations", "1000000")  # enough to solve it (about 52,000 nodes), whatever the load


def view_json(position: str) -> dict[str, object]:
    """The view of the seat to move, as the server sends it."""
    board = Board.from_position(position)
    return {"state": board.view(board.turn).to_dict()}


def moves_of(out: str) -> dict[str, float]:
    return {move["move"]: move["win"] for move in json.loads(out)["moves"]}


def test_a_position_in_rk23_notation_is_solved(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rk", "analyse-position", FOUR_MOVES, *BUDGET, "--json")
    assert code == 0 and moves_of(out) == EXACT and json.loads(out)["exact"] is True


def test_a_json_view_gives_the_same_values(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = view_json(FOUR_MOVES)
    code, out, _ = run(capsys, "rk", "analyse-position", json.dumps(view), *BUDGET, "--json")
    assert code == 0 and moves_of(out) == EXACT
    path = tmp_path / "view.json"
    path.write_text(json.dumps(view["state"]))
    code, out, _ = run(capsys, "rk", "analyse-position", str(path), *BUDGET)
    assert code == 0 and out.splitlines()[1].startswith("E2") and "exact" in out
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(view)))
    code, out, _ = run(capsys, "rk", "analyse-position", "-", *BUDGET, "--json")
    assert code == 0 and moves_of(out) == EXACT


def test_a_view_without_its_pile_uses_the_cards_seen_nowhere_else(
    capsys: pytest.CaptureFixture[str],
) -> None:
    state = view_json(FOUR_MOVES)["state"]
    assert isinstance(state, dict)
    del state["draw_pile_cards"]  # a spectator's view without RK-20's option
    code, out, _ = run(capsys, "rk", "analyse-position", json.dumps(state), *BUDGET, "--json")
    assert code == 0 and moves_of(out) == EXACT


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"turn": "x"}, "the view's turn must name a seat (r, w), not 'x'"),
        ({"crown": "z9"}, "not a square: 'z9'"),
        ({"hands": [["N1"]]}, "the view needs 2 hands, one per seat"),
        ({"hands": [["N1", "N1"], []]}, "a card is in two places at once"),
        ({"hands": [["N1", "N2", "N3", "S1", "S2", "S3"], []]}, "a hand holds at most 5 cards"),
        ({"hands": [["Q1"], []]}, "not a power card: 'Q1'"),
        ({"heroes": [5, 0]}, "the view's heroes must be 2 counts from 0 to 4"),
        ({"draw_pile_cards": ["N1"]}, "the view's draw pile must hold exactly the cards"),
        ({"stones": {"a1": "x"}}, "the stone on a1 must be 'r' or 'w'"),
        ({"variant": "chess"}, "the view's variant"),
    ],
)
def test_a_bad_view_is_refused_with_a_sentence(
    capsys: pytest.CaptureFixture[str], change: dict[str, object], message: str
) -> None:
    state = view_json(FOUR_MOVES)["state"]
    assert isinstance(state, dict)
    state.update(change)
    code, _, err = run(capsys, "rk", "analyse-position", json.dumps(state))
    assert code == 2 and message in err


def test_a_view_that_is_not_json_or_a_position_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "rk", "analyse-position", "{not json")
    assert code == 2 and "the JSON view does not parse" in err
    code, _, err = run(capsys, "rk", "analyse-position", "no position")
    assert code == 2 and "bad position" in err
    code, _, err = run(capsys, "rk", "analyse-position", "missing.json")
    assert code == 2 and "cannot read missing.json" in err
