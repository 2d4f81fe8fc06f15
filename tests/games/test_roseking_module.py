"""The Rose King through the server's game interface only (roses.games.roseking): the draw
pile's order in no view (RK-20), Light plays taken back (RK-19), bad input. What every game
shares (random games, restore and replay, private fields) is tests/games/test_every_game.py."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from roses.games import IllegalAction, InvalidInput
from roses.games.roseking import END_TURN, ROSE_KING, UNDO, RoseKingState
from tests.server.hidden import secret_order, walk

Log = list[tuple[int, Any]]


def new_game(players: int, seed: int, **raw: bool) -> tuple[Any, dict[str, Any], RoseKingState]:
    options = ROSE_KING.parse_options(players, raw)
    deal = ROSE_KING.setup(seed, players, options)
    return deal, options, ROSE_KING.restore(json.loads(json.dumps(deal)), players, options)


def play(state: RoseKingState, rng: random.Random, check: Any = None) -> Log:
    """Random legal actions to the end; in Light games (RK-19) some plays are taken back."""
    log: Log = []

    def act(seat: int, action: Any) -> None:
        ROSE_KING.apply(state, seat, action)
        log.append((seat, action))
        if check:
            check(state)

    while ROSE_KING.to_act(state):
        (seat,) = ROSE_KING.to_act(state)
        act(seat, ROSE_KING.fallback_action(ROSE_KING.bot_input(state, seat), rng))
        if state.pending is not None:
            act(seat, UNDO if rng.random() < 0.3 else END_TURN)
    return log


def pile_hidden(state: RoseKingState) -> None:
    """RK-20: no view, of any seat or a spectator, holds the draw pile's order."""
    order = secret_order(state.board)
    for seat in [None, *range(state.board.seats)]:
        for node in walk(ROSE_KING.view(state, seat)):
            assert order is None or node != order, "the draw pile's order was sent"


@pytest.mark.parametrize("options", [{"light": True}, {"show_draw_pile": True}])
def test_no_view_shows_the_draw_piles_order(options: dict[str, bool]) -> None:
    _, _, state = new_game(4 if "show_draw_pile" in options else 2, 5, **options)
    play(state, random.Random(5), pile_hidden)


def test_bad_input_is_refused_and_changes_nothing() -> None:
    _, _, state = new_game(2, 1)
    before = ROSE_KING.view(state, 0)
    with pytest.raises(InvalidInput):
        ROSE_KING.parse_action({"move": "N2"})
    with pytest.raises(IllegalAction, match="turn"):
        ROSE_KING.apply(state, 1, ROSE_KING.parse_action("draw"))  # RK-7: Red moves first
    assert ROSE_KING.view(state, 0) == before


@pytest.mark.parametrize(("players", "light"), [(2, False), (2, True), (4, False)])
def test_views_built_once_for_all_seats_are_each_seats_own(players: int, light: bool) -> None:
    """Each seat's view, its shared part built once per position (RoseKingState.shared_view),
    is the view built afresh for it, in whatever order the seats ask, after every action."""
    _, _, state = new_game(players, 14, light=light)

    def check(state: RoseKingState) -> None:
        seats = [*range(players), None]
        for order in (seats, seats[::-1]):
            for seat in order:
                fresh = RoseKingState(state.board, state.options, state.pending,
                                      list(state.entries))  # fmt: skip
                assert json.dumps(ROSE_KING.view(state, seat)) == json.dumps(
                    ROSE_KING.view(fresh, seat)
                )

    play(state, random.Random(14), check)
