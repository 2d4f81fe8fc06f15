"""The Rose King (Rosenkönig) engine: rules RK-1..RK-23 of docs/rules/rose-king.md.

This package knows nothing of servers, web pages or bots.
"""

from .board import Board, Shuffler, seeded_shuffler, shuffled_deck
from .errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRecordError,
    RoseKingError,
)
from .geometry import CARD_NAMES, Card, Square, card_name, parse_card, parse_square, square_name
from .moves import ACTION_COUNT, ALL_MOVES, DRAW_MOVE, PASS_MOVE, Move, parse_move
from .scoring import Outcome, Team, TeamScore, Termination, territories, territory_sizes
from .variants import Variant

__all__ = [
    "ACTION_COUNT",
    "ALL_MOVES",
    "CARD_NAMES",
    "DRAW_MOVE",
    "PASS_MOVE",
    "Board",
    "Card",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRecordError",
    "Move",
    "Outcome",
    "RoseKingError",
    "Shuffler",
    "Square",
    "Team",
    "TeamScore",
    "Termination",
    "Variant",
    "card_name",
    "parse_card",
    "parse_move",
    "parse_square",
    "seeded_shuffler",
    "shuffled_deck",
    "square_name",
    "territories",
    "territory_sizes",
]
