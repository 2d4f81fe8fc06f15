"""Analysis for people: positions and whole games, judged from the mover's view (RK-20)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from roses.bots.roseking.analysis import (
    analyse_game,
    analyse_move,
    analyse_position,
    judgement,
    win_probability,
)
from roses.roseking import Board, Move
from roses.roseking.moves import DRAW
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
        # every move from the position, best first, the played one among them
        wins = {m.move: m.win for m in p.moves}
        assert p.moves[0].move == p.best_move and p.moves[0].win == p.win_before
        assert wins[p.move] == p.win_after and p.win_before == max(wins.values())
    json.dumps(analysis.to_dict())


def test_the_last_moves_of_a_game_are_exact() -> None:
    analysis = analyse_game(endgame_record("first"), nodes=5_000)
    last = analysis.plies[-1]
    assert last.exact and Move.from_str(last.move) is not None


# Endgames from random games (seeds 27 and 17, four and three stones left), solved below.
FOUR_MOVES = (
    "2ww3r1/rr2wwr1w/r1wrrr1r1/wwrrrwr1r/rwrw1ww2/wrwrw1w2/wwrw1ww2/2r1ww1r1/1r1rw4 d9 r"
    " S1,E2,W3,SE1,SW2|SE2,SE3,NW3,SW3 0|0 S2,W1,NW2,W2,N1,NE2,NW1,E1,N3,E3/NE1,S3,NE3,SW1,N2"
)
WHITE_WITH_A_HERO = (
    "wr1wr4/ww3w3/rrwr5/w1rrw1wr1/rrwwrr2r/r2wrww2/wrrw2w1r/1wwrrwr1r/wwwrwr2r i3 w"
    " NE3,NW3,S1,S2|W3,SW3,NE1,N1,E1 1|0 NE2,S3,NW1,SW2,E3,SE3,W2,N3,W1,E2,SW1,SE2,NW2,SE1/N2"
)
SOLVED = {
    ENDGAME: {"W2": Fraction(1), "NW2": Fraction(-5, 6)},
    FOUR_MOVES: {"E2": Fraction(-2, 3), "S1": Fraction(-4, 5), "W3": Fraction(-1),
                 "SW2": Fraction(-1)},
    WHITE_WITH_A_HERO: {"N1": Fraction(755, 1092), "W3": Fraction(-137, 156)},
}  # fmt: skip


class BruteForce:
    """The exact expected result of a position by enumerating the whole game tree over the
    engine: every move, and every card a draw can bring, equally likely (RK-9), to the end
    (RK-12, RK-13), scored by the engine (RK-14, RK-15). Independent of the search."""

    def __init__(self) -> None:
        self.known: dict[tuple[object, ...], Fraction] = {}

    def value(self, board: Board) -> Fraction:
        """For the team to move: 1 a certain win, -1 a certain loss, 0 a draw."""
        outcome = board.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return Fraction(0)
            return Fraction(1 if int(outcome.winner) == board.turn & 1 else -1)
        key = (board.red, board.white, board.crown, board.turn, board.heroes,
               tuple(tuple(sorted(hand)) for hand in board.hands),
               tuple(sorted(board.draw_pile)), tuple(sorted(board.discard_pile)),
               tuple(str(move) for move in board.move_stack[-1:]))  # fmt: skip
        if key not in self.known:
            self.known[key] = max(self.move_value(board, move) for move in board.legal_moves())
        return self.known[key]

    def move_value(self, board: Board, move: Move) -> Fraction:
        if move.kind != DRAW:
            board.push(move)
            value = -self.value(board)
            board.pop()
            return value
        pile, total = board.draw_pile, Fraction(0)
        for card in pile:  # each card of the pile on top in turn
            board.reorder_draw_pile((card, *(other for other in pile if other != card)))
            board.push(move)
            total -= self.value(board)
            board.pop()
        board.reorder_draw_pile(pile)
        return total / len(pile)


@pytest.mark.parametrize("position", list(SOLVED))
def test_exact_values_are_those_of_the_whole_game_tree(position: str) -> None:
    board = Board.from_position(position)
    truth = {str(move): BruteForce().move_value(board, move) for move in board.legal_moves()}
    assert truth == SOLVED[position]
    analysis = analyse_position(board.view(board.turn), nodes=2_000_000)
    assert analysis.exact
    wins = {m.move: m.win for m in analysis.moves}
    assert wins == {move: round(win_probability(float(v)), 4) for move, v in truth.items()}
    assert analysis.moves[0].win == max(wins.values())


@pytest.mark.parametrize("position", list(SOLVED))
def test_each_move_is_judged_by_the_exact_chance_it_lost(position: str) -> None:
    board = Board.from_position(position)
    best = win_probability(float(max(SOLVED[position].values())))
    for move, value in SOLVED[position].items():
        ply = analyse_move(board.view(board.turn), Move.from_str(move), 7, nodes=2_000_000)
        lost = best - win_probability(float(value))
        assert ply.exact and ply.ply == 7 and ply.move == move
        assert ply.win_before == round(best, 4)
        assert ply.win_after == round(win_probability(float(value)), 4)
        assert ply.judgement == judgement(lost)
        assert {m.move: m.win for m in ply.moves} == {
            other: round(win_probability(float(v)), 4) for other, v in SOLVED[position].items()
        }
        red_after = ply.win_after if board.turn == 0 else round(1 - ply.win_after, 4)
        assert ply.red_win_after == red_after


def test_a_move_that_is_not_legal_is_refused() -> None:
    board = Board.from_position(ENDGAME)
    with pytest.raises(ValueError, match="not a legal move"):
        analyse_move(board.view(0), Move.from_str("S3h"), 0, nodes=1_000)
