"""The three ways to play: classic, random-start (yucata) and the four-player teams."""

from __future__ import annotations

import enum


class Variant(enum.Enum):
    CLASSIC = "classic"  # RK-7: Red moves first
    RANDOM_START = "random-start"  # RK-7 (yucata): the first player is drawn at random
    FOUR_PLAYER = "four-player"  # RK-16, RK-17: two teams of two

    @property
    def seats(self) -> int:
        return 4 if self is Variant.FOUR_PLAYER else 2

    @property
    def hand_limit(self) -> int:
        """Cards dealt, and the hand size at which drawing is no longer allowed (RK-9, RK-16)."""
        return 3 if self is Variant.FOUR_PLAYER else 5

    @property
    def heroes_per_seat(self) -> int:
        return 2 if self is Variant.FOUR_PLAYER else 4  # RK-6, RK-16

    @classmethod
    def parse(cls, text: str) -> Variant:
        try:
            return cls(text)
        except ValueError:
            names = ", ".join(v.value for v in cls)
            raise ValueError(f"unknown variant {text!r} (expected one of: {names})") from None


def seat_name(seat: int, seats: int) -> str:
    """RK-23 player field: ``r``/``w`` for two players, ``r1 w1 r2 w2`` for four (RK-16)."""
    letter = "rw"[seat & 1]
    return letter if seats == 2 else f"{letter}{seat // 2 + 1}"
