"""Positions a player sets up for analysis: a JSON view (what the server sends a seat) read
back into a board. A view holds the draw pile's cards but never their order (RK-20), so the
board's pile order is arbitrary: only searches from the view of the seat to move, which see
the pile as a set of cards, may use it."""

from __future__ import annotations

from typing import Any

from roses.roseking import Board, RoseKingError, Variant
from roses.roseking.geometry import ALL_CARDS, parse_card, parse_square
from roses.roseking.variants import seat_name
from roses.roseking.view import PlayerView

STONES = 52  # RK-2: the supply at the start


def _cards(names: Any, what: str) -> tuple[int, ...]:
    if not isinstance(names, list):
        raise ValueError(f"the view's {what} must be a list of card names like N2")
    try:
        return tuple(parse_card(str(name)) for name in names)
    except ValueError as error:
        raise ValueError(f"the view's {what}: {error}") from None


def _seat(name: Any, seats: int) -> int:
    for seat in range(seats):
        if seat_name(seat, seats) == name:
            return seat
    choices = ", ".join(seat_name(seat, seats) for seat in range(seats))
    raise ValueError(f"the view's turn must name a seat ({choices}), not {name!r}")


def board_from_view(data: Any) -> Board:
    """A board in the state a JSON view describes (a game's view from the server, or its
    ``state``); ``ValueError`` naming what is wrong. The pile's order is not in a view: the
    cards not in a hand or the discard pile form the draw pile, in an order the analysis
    never looks at."""
    if isinstance(data, dict) and isinstance(data.get("state"), dict):
        data = data["state"]
    if not isinstance(data, dict):
        raise ValueError("a JSON view is an object with stones, crown, turn, hands, heroes, ...")
    missing = [k for k in ("stones", "crown", "turn", "hands", "heroes", "discard_pile")
               if k not in data]  # fmt: skip
    if missing:
        raise ValueError(f"the view has no {', '.join(missing)}")
    try:
        variant = Variant.parse(str(data.get("variant", "classic")))
    except ValueError as error:
        raise ValueError(f"the view's variant: {error}") from None
    red = white = 0
    try:
        for square, colour in dict(data["stones"]).items():
            if colour not in ("r", "w"):
                raise ValueError(f"the stone on {square} must be 'r' or 'w', not {colour!r}")
            bit = 1 << parse_square(str(square))
            red, white = (red | bit, white) if colour == "r" else (red, white | bit)
        crown = parse_square(str(data["crown"]))
    except ValueError as error:
        raise ValueError(f"the view's board: {error}") from None
    if not isinstance(data["hands"], list) or len(data["hands"]) != variant.seats:
        raise ValueError(f"the view needs {variant.seats} hands, one per seat")
    hands = tuple(_cards(hand, "hands") for hand in data["hands"])
    if any(len(hand) > variant.hand_limit for hand in hands):
        raise ValueError(f"a hand holds at most {variant.hand_limit} cards (RK-9)")
    heroes, most = data["heroes"], variant.heroes_per_seat
    if not (isinstance(heroes, list) and len(heroes) == variant.seats
            and all(isinstance(h, int) and 0 <= h <= most for h in heroes)):  # fmt: skip
        raise ValueError(f"the view's heroes must be {variant.seats} counts from 0 to {most}")
    discard = _cards(data["discard_pile"], "discard pile")
    seen = [card for hand in hands for card in hand] + list(discard)
    if len(set(seen)) != len(seen):
        raise ValueError("a card is in two places at once in the view (each card is unique)")
    pile = tuple(card for card in ALL_CARDS if card not in seen)
    if "draw_pile_cards" in data and sorted(_cards(data["draw_pile_cards"], "draw pile")) != list(
        pile
    ):
        raise ValueError("the view's draw pile must hold exactly the cards seen nowhere else")
    if (red | white).bit_count() > STONES:
        raise ValueError(f"the view has more than the {STONES} stones of the game (RK-2)")
    return Board.from_state(
        variant=variant, red=red, white=white, crown=crown,
        turn=_seat(data["turn"], variant.seats), hands=hands, heroes=tuple(heroes),
        draw_pile=pile, discard_pile=discard, seed=0,
    )  # fmt: skip


def position_view(raw: Any) -> PlayerView:
    """The view of the seat to move in a position set up by a player: an RK-23 position
    (its pile order is dropped with the view) or a JSON view; ``ValueError`` naming what is
    wrong, or that the game is over there."""
    if isinstance(raw, str):
        try:
            board = Board.from_position(raw.strip())
        except RoseKingError as error:
            raise ValueError(f"not a position (RK-23): {error}") from None
    else:
        board = board_from_view(raw)
    if board.is_over():
        raise ValueError("the game is over in this position: there is no move to analyse")
    return board.view(board.turn)
