"""A player's view hides the draw pile's order and nothing else (RK-5, RK-20)."""

import json
import random

from roses.roseking import Board, Variant


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
