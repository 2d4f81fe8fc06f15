"""Territories, scores and the outcome (RK-14, RK-15)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

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


def _runs(row: int) -> tuple[int, ...]:
    """The maximal horizontal runs of stones in one rank's 9 bits."""
    runs, run = [], 0
    for file in range(9):
        if row >> file & 1:
            run |= 1 << file
        elif run:
            runs.append(run)
            run = 0
    if run:
        runs.append(run)
    return tuple(runs)


RUNS: Final = tuple(_runs(row) for row in range(512))


def territory_sizes(stones: Bitboard) -> list[int]:
    """Sizes of the edge-connected groups of ``stones`` (RK-14), largest first.

    Rank by rank, each horizontal run joins the groups of the runs it touches on the rank
    below (a small union-find): a few table look-ups per run, where a flood fill would
    shift and mask the whole board once per step of every group's breadth.
    """
    below: list[tuple[int, int]] = []  # (run, group) on the previous rank
    parent: list[int] = []
    size: list[int] = []
    for shift in range(0, 81, 9):
        current = []
        for run in RUNS[stones >> shift & 511]:
            group = -1
            for run_below, other in below:
                if run_below & run:
                    while parent[other] != other:
                        other = parent[other]
                    if group < 0:
                        group = other
                    elif other != group:
                        parent[other] = group
                        size[group] += size[other]
                        size[other] = 0
            if group < 0:
                group = len(parent)
                parent.append(group)
                size.append(run.bit_count())
            else:
                size[group] += run.bit_count()
            current.append((run, group))
        below = current
    sizes = [n for n in size if n]
    sizes.sort(reverse=True)
    return sizes


def territories(stones: Bitboard) -> list[Bitboard]:
    """The territories of ``stones`` (RK-14) as bitboards, largest first (for display)."""
    groups = []
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
        groups.append(group)
        stones &= ~group
    groups.sort(key=int.bit_count, reverse=True)
    return groups


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


@lru_cache(maxsize=256)  # a position's scores are asked for each seat's view and the outcome
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
