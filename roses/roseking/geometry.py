"""Squares, power cards and the precomputed crown-move table (RK-1, RK-3).

Plain ints carry the meaning, as in python-chess: a ``Square`` is ``rank * 9 + file``
(``a1`` = 0, ``e5`` = 40, ``i9`` = 80) and a ``Card`` is ``direction * 3 + distance - 1``
in the order ``N NE E SE S SW W NW``. A board of stones is a ``Bitboard``: bit ``s`` set
means a stone on square ``s``.
"""

from __future__ import annotations

from typing import Final

Square = int
Card = int
Bitboard = int

FILES: Final = "abcdefghi"
RANKS: Final = "123456789"
SQUARE_COUNT: Final = 81
CENTRE: Final[Square] = 40  # e5, the sun square where the crown starts (RK-6)

DIRECTIONS: Final = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
# (file step, rank step); north is towards rank 9 (RK-1, RK-3).
DIRECTION_STEPS: Final = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

CARD_COUNT: Final = 24
ALL_CARDS: Final = tuple(range(CARD_COUNT))
STONE_COUNT: Final = 52  # RK-2

BB_ALL: Final[Bitboard] = (1 << SQUARE_COUNT) - 1
BB_FILE_A: Final[Bitboard] = sum(1 << (rank * 9) for rank in range(9))
BB_FILE_I: Final[Bitboard] = sum(1 << (rank * 9 + 8) for rank in range(9))


def square(file: int, rank: int) -> Square:
    return rank * 9 + file


def square_name(sq: Square) -> str:
    return FILES[sq % 9] + RANKS[sq // 9]


SQUARE_NAMES: Final = tuple(square_name(sq) for sq in range(81))


def parse_square(name: str) -> Square:
    """``"e5"`` -> 40; raises ``ValueError`` naming the text for anything else."""
    if len(name) != 2 or name[0] not in FILES or name[1] not in RANKS:
        raise ValueError(f"not a square: {name!r} (expected a1..i9)")
    return square(FILES.index(name[0]), RANKS.index(name[1]))


def card_direction(card: Card) -> int:
    return card // 3


def card_distance(card: Card) -> int:
    return card % 3 + 1


def card_name(card: Card) -> str:
    return f"{DIRECTIONS[card // 3]}{card % 3 + 1}"


CARD_NAMES: Final = tuple(card_name(card) for card in ALL_CARDS)
CARDS_BY_NAME: Final = {name: card for card, name in enumerate(CARD_NAMES)}


def parse_card(name: str) -> Card:
    try:
        return CARDS_BY_NAME[name]
    except KeyError:
        raise ValueError(f"not a power card: {name!r} (expected e.g. N1, SE3)") from None


def _target(card: Card, origin: Square) -> Square | None:
    file_step, rank_step = DIRECTION_STEPS[card_direction(card)]
    distance = card_distance(card)
    file = origin % 9 + file_step * distance
    rank = origin // 9 + rank_step * distance
    if 0 <= file < 9 and 0 <= rank < 9:
        return square(file, rank)
    return None


# TARGET[card][origin]: where the crown lands, or -1 off the board (RK-8: the crown jumps,
# so only the target square matters).
TARGET: Final[tuple[tuple[Square, ...], ...]] = tuple(
    tuple(-1 if (t := _target(card, origin)) is None else t for origin in range(SQUARE_COUNT))
    for card in ALL_CARDS
)
# TARGET_BIT[card][origin]: the target as a one-bit Bitboard, 0 off the board.
TARGET_BIT: Final[tuple[tuple[Bitboard, ...], ...]] = tuple(
    tuple(0 if t < 0 else 1 << t for t in row) for row in TARGET
)

# TARGET_BIT_FROM[origin][card]: the same table indexed by the crown's square first.
TARGET_BIT_FROM: Final[tuple[tuple[Bitboard, ...], ...]] = tuple(
    tuple(TARGET_BIT[card][origin] for card in ALL_CARDS) for origin in range(SQUARE_COUNT)
)


def squares_of(bb: Bitboard) -> list[Square]:
    """The squares of a bitboard, lowest first."""
    result = []
    while bb:
        low = bb & -bb
        result.append(low.bit_length() - 1)
        bb ^= low
    return result
