"""Analysis for people: positions and whole games, judged from the mover's view (RK-20)."""

from __future__ import annotations

import json

import pytest

from roses.bots.roseking.analysis import analyse_game, analyse_position, judgement
from roses.roseking import Board, Move
from roses.roseking.record import record_of
from tests.bots.test_search import ENDGAME


@pytest.mark.parametrize(
    ("lost", "name"),
    [(0.0, "best"), (0.004, "best"), (0.03, "good"), (0.07, "inaccuracy"), (0.15, "mistake"),
     (0.2, "blunder"), (1.0, "blunder")],
)  # fmt: skip
def test_judgement_bands(lost: float, name: str) -> None:
    assert judgement(lost) == name


def test_an_exactly_solved_position_has_its_known_values() -> None:
    """ENDGAME: W2 wins for certain, NW2 wins 1 time in 12 (see test_search)."""
    analysis = analyse_position(Board.from_position(ENDGAME).view(0), nodes=100_000)
    assert analysis.exact and analysis.team == "red"
    assert [(m.move, m.win) for m in analysis.moves] == [("W2", 1.0), ("NW2", 0.0833)]
    json.dumps(analysis.to_dict())


def endgame_record(second: str) -> dict[str, object]:
    """A finished game from ENDGAME's position is not a record (records start at a deal),
    so a deal is played to the end by a fixed rule and its record analysed."""
    board = Board(seed=2)
    while moves := board.legal_moves():
        board.push(moves[-1] if second == "last" else moves[0])
    return record_of(board, ["a", "b"])


def test_a_game_analysis_covers_every_move_with_consistent_numbers() -> None:
    record = endgame_record("last")
    analysis = analyse_game(record, nodes=400)
    moves = record["moves"]
    assert isinstance(moves, list)
    assert [p.move for p in analysis.plies] == moves
    assert analysis.players == ["a", "b"]
    for p in analysis.plies:
        assert 0.0 <= p.win_after <= p.win_before + 1e-9 <= 1.0 + 1e-9
        assert p.red_win_after == (p.win_after if p.team == "red" else round(1 - p.win_after, 4))
        if p.move == p.best_move:
            assert p.judgement in ("best", "forced")
    json.dumps(analysis.to_dict())


def test_the_last_moves_of_a_game_are_exact() -> None:
    analysis = analyse_game(endgame_record("first"), nodes=5_000)
    last = analysis.plies[-1]
    assert last.exact and Move.from_str(last.move) is not None
