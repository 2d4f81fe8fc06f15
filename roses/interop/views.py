"""The server's view of a Rose King seat read back into the research interfaces' terms, so
that an OpenSpiel or PettingZoo agent can play on a roses server (``examples/play_on_roses.py``).

The server sends each seat its view (``PlayerView.to_dict``, under the game view's
``state``): the stones, the crown, the hands (face up, RK-5), the heroes, the discard pile
and the moves so far, never the draw pile's order (RK-20). ``player_view`` reads it back
into a ``PlayerView``; the draw pile's contents, when the game does not show them, are the
cards in no hand and not discarded. ``observe`` makes of it what the PettingZoo environment
gives an agent (the tensor of ``encoding`` and the mask of legal action ids), and
``move_text`` turns the action id an agent chose into the move the server takes (RK-22).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from roses.roseking import ACTION_COUNT, Move, Variant, parse_card, parse_move, parse_square
from roses.roseking.geometry import ALL_CARDS
from roses.roseking.variants import seat_name
from roses.roseking.view import PlayerView

from .encoding import encode

Observation = dict[str, npt.NDArray[Any]]


def _seat(name: str | None, seats: int) -> int | None:
    if name is None:
        return None
    return next(seat for seat in range(seats) if seat_name(seat, seats) == name)


def player_view(state: Mapping[str, Any]) -> PlayerView:
    """The ``PlayerView`` a seat's view describes (``state``: the game view's ``state``)."""
    variant = Variant(state["variant"])
    seats = variant.seats
    stones = {"r": 0, "w": 0}
    for square, colour in state["stones"].items():
        stones[colour] |= 1 << parse_square(square)
    hands = tuple(tuple(parse_card(card) for card in hand) for hand in state["hands"])
    discard = tuple(parse_card(card) for card in state["discard_pile"])
    if "draw_pile_cards" in state:
        pile = tuple(sorted(parse_card(card) for card in state["draw_pile_cards"]))
    else:  # RK-20: the pile holds what is neither in a hand nor discarded
        seen = {card for hand in hands for card in hand} | set(discard)
        pile = tuple(card for card in ALL_CARDS if card not in seen)
    return PlayerView(
        variant=variant,
        viewer=_seat(state["viewer"], seats),
        red=stones["r"],
        white=stones["w"],
        crown=parse_square(state["crown"]),
        turn=_seat(state["turn"], seats) or 0,
        hands=hands,
        heroes=tuple(state["heroes"]),
        draw_pile_cards=pile,
        discard_pile=discard,
        moves=tuple(parse_move(move) for move in state["moves"]),
        legal_moves=tuple(parse_move(move) for move in state["legal_moves"]),
    )


def legal_action_ids(view: PlayerView) -> list[int]:
    return sorted(move.action_id for move in view.legal_moves)


def observe(state: Mapping[str, Any], seat: int) -> Observation:
    """What the PettingZoo environment gives the agent of ``seat``: the observation tensor
    and the mask of its legal action ids (all zeros unless it is that seat's turn)."""
    view = player_view(state)
    mask = np.zeros(ACTION_COUNT, np.int8)
    if view.turn == seat:
        mask[legal_action_ids(view)] = 1
    return {"observation": encode(view, seat), "action_mask": mask}


def move_text(action_id: int) -> str:
    """The move an action id stands for, as the server takes it (RK-22), e.g. ``N2h``."""
    return str(Move.from_action_id(action_id))
