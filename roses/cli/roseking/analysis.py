"""``roses rk analyse-position``: a position a player set up, analysed from the view of the
seat to move, given in RK-23 notation or as a JSON view (what the server sends a seat: the
draw pile's cards but never their order, RK-20)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from roses.bots.roseking.positions import board_from_view
from roses.roseking import Board, RoseKingError

from ..errors import UserError


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
        try:
            return board_from_view(data)
        except ValueError as error:
            raise UserError(str(error)) from None
    try:
        return Board.from_position(source)
    except RoseKingError as error:
        raise UserError(f"bad position: {error}") from None
