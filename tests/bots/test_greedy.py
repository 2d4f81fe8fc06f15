"""The greedy bot: the best immediate margin, judged in RK-15's order (RK-14 scores)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from roses.bots.roseking import make_bot
from roses.bots.roseking.greedy import margin
from roses.roseking import Board, Move, Variant
from roses.roseking.moves import DRAW
from tests.roseking.helpers import make_board


def independent_margins(board: Board) -> dict[Move, tuple[int, int, int]]:
    """Each legal move's margin for the team to move, straight from the engine's scores."""
    team = board.turn & 1
    result = {}
    for move in board.legal_moves():
        after = board.copy()
        if move.kind != DRAW:
            after.push(move)
        red, white = after.team_scores()
        own, other = (red, white) if team == 0 else (white, red)
        result[move] = (
            own.score - other.score,
            own.largest - other.largest,
            own.stones - other.stones,
        )
    return result


def test_greedy_joins_its_territory() -> None:
    """RK-14: W1 puts the stone on d5, joining e5 and d4-c4 into 4 stones (16 points)."""
    board = make_board(red="c4 d4 e5", hands=["W1 E1 N1 S2 NE3", "N2 N3 E2 E3 S3"])
    assert make_bot("greedy", seed=0).choose(board.view(0)) == Move.from_str("W1")


def test_greedy_breaks_a_score_tie_by_the_largest_territory() -> None:
    """RK-15: NE1 and NW2 both lead by 14; NE1 makes the larger territory."""
    board = Board.from_position(
        "9/9/r2w5/r8/1w3r3/w2r5/1wr1w4/wr1rrr3/w1w6 e2 r NE1,NW2|N1,S2,E3,S1,E1 1|1 "
        "E2,NE3,SW2,SW3,W2,W3,N3,SE1,N2,SE3,NW1,SW1,NW3,NE2/SE2,S3,W1"
    )
    margins = independent_margins(board)
    assert margins[Move.from_str("NE1")][0] == margins[Move.from_str("NW2")][0]
    for seed in range(10):
        assert make_bot("greedy", seed=seed).choose(board.view(0)) == Move.from_str("NE1")


def test_greedy_flips_with_a_hero_when_that_leads_most() -> None:
    """RK-10: flipping the white stone on e6 joins e7 and cuts White's pair."""
    board = make_board(
        red="e7", white="e6 f6", crown="e7", hands=["S1 SE3 SW3 W3 E3", "N2 N3 E2 E1 S2"]
    )
    assert make_bot("greedy", seed=0).choose(board.view(0)) == Move.from_str("S1h")


def test_greedy_plays_for_its_team_in_four_player() -> None:
    board = Board(Variant.FOUR_PLAYER, seed=3)
    bot = make_bot("greedy", seed=1)
    while board.legal_moves():
        move = bot.choose(board.view(board.turn))
        margins = independent_margins(board)
        assert margins[move] == max(margins.values())
        board.push(move)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 90))
def test_greedy_choice_has_the_best_margin(seed: int, plies: int) -> None:
    """Whatever the position, greedy's move has the largest (score, largest, stones) lead."""
    rng = random.Random(seed)
    board = Board(seed=seed)
    for _ in range(plies):
        moves = board.legal_moves()
        if not moves:
            break
        board.push(rng.choice(moves))
    if board.is_over():
        return
    margins = independent_margins(board)
    move = make_bot("greedy", seed=seed).choose(board.view(board.turn))
    assert margins[move] == max(margins.values())


def test_margin_is_antisymmetric() -> None:
    board = make_board(red="a1 a2 c3", white="i9", crown="c3", hands=["N1", "N2"])
    assert margin(board, 0) == (5 - 1, 2 - 1, 3 - 1)
    assert margin(board, 1) == (-4, -1, -2)
