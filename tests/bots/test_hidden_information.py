"""No bot may learn the draw pile's order (RK-5, RK-20): bots get a ``PlayerView`` only."""

from __future__ import annotations

import pytest

from roses.bots.roseking import available_bots, make_bot
from roses.bots.roseking.search import WHOLE_BUDGET_NODES
from roses.roseking import Board, Variant


def pile_twins(variant: Variant, seed: int, plies: int) -> tuple[Board, Board]:
    """Two boards equal in everything but the draw pile's order."""
    board = Board(variant, seed=seed)
    for ply in range(plies):
        moves = board.legal_moves()
        board.push(moves[ply % len(moves)])
    twin = board.copy()
    twin.reorder_draw_pile(tuple(reversed(board.draw_pile)))
    assert twin.draw_pile != board.draw_pile
    return board, twin


@pytest.mark.parametrize("name", available_bots())
@pytest.mark.parametrize("variant", list(Variant))
def test_every_bot_chooses_the_same_whatever_the_pile_order(name: str, variant: Variant) -> None:
    for plies in (0, 7, 30):
        board, twin = pile_twins(variant, seed=plies + 3, plies=plies)
        seat = board.turn
        assert board.view(seat) == twin.view(seat)  # identical inputs
        first = make_bot(name, seed=5, iterations=40).choose(board.view(seat))
        second = make_bot(name, seed=5, iterations=40).choose(twin.view(seat))
        assert first == second


def test_the_search_on_a_long_budget_chooses_the_same_whatever_the_pile_order() -> None:
    """Whole draws with ChanceProbCut (a budget of a second a move) read the pile as a
    set too: the twins above get the same move."""
    for plies in (7, 30):
        board, twin = pile_twins(Variant.CLASSIC, seed=plies + 3, plies=plies)
        seat = board.turn
        first = make_bot("search", iterations=WHOLE_BUDGET_NODES).choose(board.view(seat))
        second = make_bot("search", iterations=WHOLE_BUDGET_NODES).choose(twin.view(seat))
        assert first == second
