"""The observation tensor shared by the OpenSpiel game and the PettingZoo environment.

A flat ``float32`` vector of 0/1 values made of named pieces (OpenSpiel shows them as a
dict of shaped views). Squares are ``rank * 9 + file`` (a1 = 0, e5 = 40), cards are card
ids 0..23 (``direction * 3 + distance - 1``), seats are 0..1 (Red, White) or 0..3 (R1, W1,
R2, W2). The draw pile appears only as the set of cards in it, never in an order (RK-20).

| piece       | shape              | 1 means                                             |
|-------------|--------------------|-----------------------------------------------------|
| red         | 9 x 9              | a red stone on the square                           |
| white       | 9 x 9              | a white stone on the square                         |
| crown       | 9 x 9              | the crown on the square                             |
| viewer      | seats              | the seat this observation is for                    |
| turn        | seats              | the seat to move                                    |
| hands       | seats x 24         | the seat holds the card (hands are public, RK-5)    |
| heroes      | seats x (heroes+1) | the seat has that many hero cards left (one-hot)    |
| draw_pile   | 24                 | the card is in the draw pile                        |
| discard     | 24                 | the card is in the discard pile                     |
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from roses.roseking import Variant
from roses.roseking.geometry import CARD_COUNT, SQUARE_COUNT

from .chance import TableView

BOARD_SHAPE: Final = (9, 9)
Piece = tuple[str, tuple[int, ...]]


def observation_pieces(variant: Variant) -> list[Piece]:
    """The named pieces of the tensor, in order, with their shapes."""
    seats = variant.seats
    return [
        ("red", BOARD_SHAPE),
        ("white", BOARD_SHAPE),
        ("crown", BOARD_SHAPE),
        ("viewer", (seats,)),
        ("turn", (seats,)),
        ("hands", (seats, CARD_COUNT)),
        ("heroes", (seats, variant.heroes_per_seat + 1)),
        ("draw_pile", (CARD_COUNT,)),
        ("discard", (CARD_COUNT,)),
    ]


def observation_size(variant: Variant) -> int:
    return sum(int(np.prod(shape)) for _, shape in observation_pieces(variant))


def piece_views(
    tensor: npt.NDArray[np.float32], variant: Variant
) -> dict[str, npt.NDArray[np.float32]]:
    """Shaped views into ``tensor``, one per piece (writing to a view writes the tensor)."""
    views = {}
    start = 0
    for name, shape in observation_pieces(variant):
        size = int(np.prod(shape))
        views[name] = tensor[start : start + size].reshape(shape)
        start += size
    return views


def _fill_stones(plane: npt.NDArray[np.float32], stones: int) -> None:
    flat = plane.reshape(SQUARE_COUNT)
    while stones:
        low = stones & -stones
        flat[low.bit_length() - 1] = 1.0
        stones ^= low


def encode_into(views: dict[str, npt.NDArray[np.float32]], table: TableView, viewer: int) -> None:
    """Write what seat ``viewer`` sees of ``table`` into ``views`` (from ``piece_views``)."""
    for view in views.values():
        view.fill(0.0)
    _fill_stones(views["red"], table.red)
    _fill_stones(views["white"], table.white)
    views["crown"].reshape(SQUARE_COUNT)[table.crown] = 1.0
    views["viewer"][viewer] = 1.0
    views["turn"][table.turn] = 1.0
    for seat, hand in enumerate(table.hands):
        views["hands"][seat, list(hand)] = 1.0
    for seat, left in enumerate(table.heroes):
        views["heroes"][seat, left] = 1.0
    views["draw_pile"][list(table.draw_pile_cards)] = 1.0
    views["discard"][list(table.discard_pile)] = 1.0


def encode(table: TableView, viewer: int) -> npt.NDArray[np.float32]:
    """A new observation tensor of what seat ``viewer`` sees of ``table``."""
    tensor = np.zeros(observation_size(table.variant), np.float32)
    encode_into(piece_views(tensor, table.variant), table, viewer)
    return tensor
