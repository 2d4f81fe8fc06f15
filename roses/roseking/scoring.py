"""Territories, scores and the outcome (RK-14, RK-15)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .geometry import BB_FILE_A, BB_FILE_I, Bitboard


class Team(enum.IntEnum):
    RED = 0  # Lancaster, south edge
    WHITE = 1  # York, north edge

    @property
    def letter(self) -> str:
        return "rw"[self]

    @property
    def label(self) -> str:
        return ("red", "white")[self]


class Termination(enum.Enum):
    LAST_STONE = "last-stone"  # RK-12: the supply's 52nd stone was placed
    NO_MOVES = "no-moves"  # RK-13 / RK-17: nobody can take any action


def territory_sizes(stones: Bitboard) -> list[int]:
    """Sizes of the edge-connected groups of ``stones`` (RK-14), largest first."""
    sizes = []
    while stones:
        group = stones & -stones
        while True:
            grown = (
                group
                | (group << 9)
                | (group >> 9)
                | ((group & ~BB_FILE_I) << 1)
                | ((group & ~BB_FILE_A) >> 1)
            ) & stones
            if grown == group:
                break
            group = grown
        sizes.append(group.bit_count())
        stones &= ~group
    sizes.sort(reverse=True)
    return sizes


@dataclass(frozen=True, slots=True)
class TeamScore:
    """Score with its tie-breaks, shown as ``69 (8, 11)`` (RK-21)."""

    score: int
    largest: int
    stones: int

    def __str__(self) -> str:
        return f"{self.score} ({self.largest}, {self.stones})"

    @property
    def rank_key(self) -> tuple[int, int, int]:
        return (self.score, self.largest, self.stones)


def team_score(stones: Bitboard) -> TeamScore:
    sizes = territory_sizes(stones)
    return TeamScore(
        score=sum(n * n for n in sizes),  # RK-14: a territory of n stones scores n x n
        largest=sizes[0] if sizes else 0,
        stones=stones.bit_count(),
    )


def leader(red: TeamScore, white: TeamScore) -> Team | None:
    """RK-15: higher score, then larger territory, then more stones; ``None`` is a draw."""
    if red.rank_key > white.rank_key:
        return Team.RED
    if white.rank_key > red.rank_key:
        return Team.WHITE
    return None


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination
    winner: Team | None  # None: a draw
    red: TeamScore
    white: TeamScore

    def result(self) -> str:
        """``"red"``, ``"white"`` or ``"draw"``."""
        return "draw" if self.winner is None else self.winner.label
