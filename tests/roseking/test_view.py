"""A player's view hides the draw pile's order and nothing else (RK-5, RK-20)."""

import json
import random

from roses.roseking import Board, Variant
from roses.roseking.geometry import square_name


def test_view_is_the_same_whatever_the_pile_order() -> None:
    board = Board(seed=21)
    other = board.copy()
    other.reorder_draw_pile(tuple(reversed(board.draw_pile)))
    assert board.draw_pile != other.draw_pile
    for seat in (0, 1, None):
        assert board.view(seat) == other.view(seat)
        assert json.dumps(board.view(seat).to_dict()) == json.dumps(other.view(seat).to_dict())


def test_rk20_the_pile_contents_are_public_as_a_sorted_list() -> None:
    board = Board(seed=21)
    view = board.view(0)
    assert view.draw_pile_cards == tuple(sorted(board.draw_pile))
    assert view.to_dict()["draw_pile_count"] == 14


def test_view_legal_moves_and_scores_match_the_board() -> None:
    board = Board(Variant.FOUR_PLAYER, seed=3)
    rng = random.Random(3)
    for _ in range(30):
        view = board.view(board.turn)
        assert view.legal_moves == board.legal_moves()
        assert view.team_scores() == board.team_scores()
        board.push(rng.choice(board.legal_moves()))


def test_determinize_keeps_everything_public_and_shuffles_the_pile() -> None:
    board = Board(seed=5)
    view = board.view(0)
    orders = set()
    for seed in range(20):
        sample = view.determinize(random.Random(seed))
        assert sample.hands == board.hands and sample.crown == board.crown
        assert sorted(sample.draw_pile) == sorted(board.draw_pile)
        assert sample.legal_moves() == board.legal_moves()
        orders.add(sample.draw_pile)
    assert len(orders) > 1


def test_view_dict_lists_stones_square_by_square_and_moves_in_notation() -> None:
    """The view's stones in square order (a1, b1, ... i9) and its moves in RK-22 notation,
    as the pages read them, through a game's worth of positions."""
    board = Board(seed=8)
    rng = random.Random(8)
    while not board.is_over():
        shown = board.view(0).to_dict()
        squares = [sq for sq in range(81) if (board.red | board.white) >> sq & 1]
        assert list(shown["stones"]) == [square_name(sq) for sq in squares]
        assert all(
            shown["stones"][square_name(sq)] == ("r" if board.red >> sq & 1 else "w")
            for sq in squares
        )
        assert shown["moves"] == [str(move) for move in board.move_stack]
        assert shown["legal_moves"] == [str(move) for move in board.legal_moves()]
        board.push(rng.choice(board.legal_moves()))
