"""``roses rk analyse-position``: a position a player set up, analysed from the view of the
seat to move, given in RK-23 notation or as a JSON view (what the server sends a seat: the
draw pile's cards but never their order, RK-20)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from roses.roseking import Board, RoseKingError, Variant
from roses.roseking.geometry import ALL_CARDS, parse_card, parse_square
from roses.roseking.variants import seat_name

from ..errors import UserError

STONES = 52  # RK-2: the supply at the start


def _cards(names: Any, what: str) -> tuple[int, ...]:
    if not isinstance(names, list):
        raise UserError(f"the view's {what} must be a list of card names like N2")
    try:
        return tuple(parse_card(str(name)) for name in names)
    except ValueError as error:
        raise UserError(f"the view's {what}: {error}") from None


def _seat(name: Any, seats: int) -> int:
    for seat in range(seats):
        if seat_name(seat, seats) == name:
            return seat
    choices = ", ".join(seat_name(seat, seats) for seat in range(seats))
    raise UserError(f"the view's turn must name a seat ({choices}), not {name!r}")


def board_from_view(data: Any) -> Board:
    """A board in the state a JSON view describes (a game's view from the server, or its
    ``state``). The pile's order is not in a view: the cards not in a hand or the discard
    pile form the draw pile, in an order the analysis never looks at."""
    if isinstance(data, dict) and isinstance(data.get("state"), dict):
        data = data["state"]
    if not isinstance(data, dict):
        raise UserError("a JSON view is an object with stones, crown, turn, hands, heroes, ...")
    missing = [k for k in ("stones", "crown", "turn", "hands", "heroes", "discard_pile")
               if k not in data]  # fmt: skip
    if missing:
        raise UserError(f"the view has no {', '.join(missing)}")
    try:
        variant = Variant.parse(str(data.get("variant", "classic")))
    except ValueError as error:
        raise UserError(f"the view's variant: {error}") from None
    red = white = 0
    try:
        for square, colour in dict(data["stones"]).items():
            if colour not in ("r", "w"):
                raise UserError(f"the stone on {square} must be 'r' or 'w', not {colour!r}")
            bit = 1 << parse_square(str(square))
            red, white = (red | bit, white) if colour == "r" else (red, white | bit)
        crown = parse_square(str(data["crown"]))
    except ValueError as error:
        raise UserError(f"the view's board: {error}") from None
    if not isinstance(data["hands"], list) or len(data["hands"]) != variant.seats:
        raise UserError(f"the view needs {variant.seats} hands, one per seat")
    hands = tuple(_cards(hand, "hands") for hand in data["hands"])
    if any(len(hand) > variant.hand_limit for hand in hands):
        raise UserError(f"a hand holds at most {variant.hand_limit} cards (RK-9)")
    heroes, most = data["heroes"], variant.heroes_per_seat
    if not (isinstance(heroes, list) and len(heroes) == variant.seats
            and all(isinstance(h, int) and 0 <= h <= most for h in heroes)):  # fmt: skip
        raise UserError(f"the view's heroes must be {variant.seats} counts from 0 to {most}")
    discard = _cards(data["discard_pile"], "discard pile")
    seen = [card for hand in hands for card in hand] + list(discard)
    if len(set(seen)) != len(seen):
        raise UserError("a card is in two places at once in the view (each card is unique)")
    pile = tuple(card for card in ALL_CARDS if card not in seen)
    if "draw_pile_cards" in data and sorted(_cards(data["draw_pile_cards"], "draw pile")) != list(
        pile
    ):
        raise UserError("the view's draw pile must hold exactly the cards seen nowhere else")
    if (red | white).bit_count() > STONES:
        raise UserError(f"the view has more than the {STONES} stones of the game (RK-2)")
    return Board.from_state(
        variant=variant, red=red, white=white, crown=crown,
        turn=_seat(data["turn"], variant.seats), hands=hands, heroes=tuple(heroes),
        draw_pile=pile, discard_pile=discard, seed=0,
    )  # fmt: skip


def read_position(text: str) -> Board:
    """An RK-23 position, or a JSON view given inline, in a file, or on standard input (-)."""
    source = text.strip()
    if source == "-":
        source = sys.stdin.read()
    elif not source.startswith("{") and source.endswith(".json"):
        try:
            source = Path(source).read_text()
        except OSError as error:
            raise UserError(f"cannot read {text}: {error.strerror}") from None
    if source.lstrip().startswith("{"):
        try:
            data = json.loads(source)
        except json.JSONDecodeError as error:
            raise UserError(f"the JSON view does not parse: {error}") from None
        return board_from_view(data)
    try:
        return Board.from_position(source)
    except RoseKingError as error:
        raise UserError(f"bad position: {error}") from None
