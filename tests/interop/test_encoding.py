"""The observation tensor both interfaces share (roses.interop.encoding)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roses.interop.chance import ChanceGame
from roses.interop.encoding import encode, observation_pieces, observation_size, piece_views
from roses.roseking import Board, Variant, parse_card, parse_square
from tests.interop.helpers import step_randomly
from tests.roseking.helpers import make_position


def test_sizes() -> None:
    assert observation_size(Variant.CLASSIC) == 3 * 81 + 2 + 2 + 2 * 24 + 2 * 5 + 24 + 24
    assert observation_size(Variant.FOUR_PLAYER) == 3 * 81 + 4 + 4 + 4 * 24 + 4 * 3 + 24 + 24
    names = [name for name, _ in observation_pieces(Variant.CLASSIC)]
    assert names == [
        "red", "white", "crown", "viewer", "turn", "hands", "heroes", "draw_pile", "discard",
    ]  # fmt: skip


def test_pieces_show_the_position() -> None:
    position = make_position(
        red="a1 e4", white="i9", crown="e4", turn="w",
        hands=["N1 N2", "E1 E2 E3 SE1 SE2"], heroes=[3, 0], discard="S1 S2",
    )  # fmt: skip
    board = Board.from_position(position)
    tensor = encode(board.view(0), viewer=0)
    views = piece_views(tensor, Variant.CLASSIC)
    a1, e4, i9 = parse_square("a1"), parse_square("e4"), parse_square("i9")
    assert np.flatnonzero(views["red"]).tolist() == [a1, e4]  # square = rank * 9 + file
    assert views["red"][0, 0] == 1 and views["red"][3, 4] == 1  # [rank, file]
    assert np.flatnonzero(views["white"]).tolist() == [i9]
    assert np.flatnonzero(views["crown"]).tolist() == [e4]
    assert views["viewer"].tolist() == [1, 0]
    assert views["turn"].tolist() == [0, 1]
    assert np.flatnonzero(views["hands"][0]).tolist() == sorted(map(parse_card, ["N1", "N2"]))
    assert views["hands"][1].sum() == 5
    assert views["heroes"].tolist() == [[0, 0, 0, 1, 0], [1, 0, 0, 0, 0]]
    assert np.flatnonzero(views["discard"]).tolist() == sorted(map(parse_card, ["S1", "S2"]))
    assert np.flatnonzero(views["draw_pile"]).tolist() == sorted(board.draw_pile)
    assert tensor.dtype == np.float32 and set(np.unique(tensor)) <= {0.0, 1.0}


def test_the_pile_order_is_not_in_the_observation() -> None:
    # RK-20: which cards are in the pile is public, their order is not.
    board = Board(seed=4)
    before = encode(board.view(1), viewer=1)
    board.reorder_draw_pile(sorted(board.draw_pile))
    assert np.array_equal(encode(board.view(1), viewer=1), before)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 4]), steps=st.integers(0, 120))
def test_every_card_is_in_exactly_one_place(seed: int, players: int, steps: int) -> None:
    # RK-3: each of the 24 cards is in a hand, the draw pile or the discard pile.
    game = ChanceGame.for_players(players)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_terminal():
            break
        step_randomly(game, rng)
    views = piece_views(encode(game.view(0), 0), game.variant)
    places = views["hands"].sum(axis=0) + views["draw_pile"] + views["discard"]
    assert places.tolist() == [1.0] * 24
    assert views["heroes"].sum(axis=1).tolist() == [1.0] * players
    assert views["crown"].sum() == 1 and views["turn"].sum() == 1


@pytest.mark.parametrize("players", [2, 4])
def test_the_viewer_is_marked(players: int) -> None:
    game = ChanceGame.for_players(players)
    for seat in range(players):
        views = piece_views(encode(game.view(seat), seat), game.variant)
        assert np.flatnonzero(views["viewer"]).tolist() == [seat]
