"""The server's view of a seat read back for an agent (roses.interop.views): the same
``PlayerView``, observation tensor and legal actions as the research interfaces give."""

from __future__ import annotations

import random

import numpy as np
import pytest

from roses.interop.encoding import encode
from roses.interop.views import move_text, observe, player_view
from roses.roseking import Board, Move, Variant, parse_move


@pytest.mark.parametrize("variant", [Variant.CLASSIC, Variant.FOUR_PLAYER])
@pytest.mark.parametrize("shown_pile", [True, False])
def test_every_seat_reads_back_its_view_through_a_whole_game(
    variant: Variant, shown_pile: bool
) -> None:
    rng = random.Random(f"{variant}{shown_pile}")
    board = Board(variant, seed=11)
    checked = 0
    while True:
        for seat in range(board.seats):
            truth = board.view(seat)
            sent = truth.to_dict()
            if not shown_pile:  # RK-20 off: the server sends the count only
                del sent["draw_pile_cards"]
            assert player_view(sent) == truth
            seen = observe(sent, seat)
            assert np.array_equal(seen["observation"], encode(truth, seat))
            legal = np.flatnonzero(seen["action_mask"]).tolist()
            expected = sorted(m.action_id for m in truth.legal_moves) if board.turn == seat else []
            assert legal == expected
            checked += 1
        if board.is_over():
            break
        board.push(rng.choice(board.legal_moves()))
    assert checked > 20


def test_an_action_id_becomes_the_move_the_server_takes() -> None:
    for action_id in (0, 23, 24, 47, 48):
        move = Move.from_action_id(action_id)
        assert parse_move(move_text(action_id)) == move
    assert move_text(48) == "draw"
