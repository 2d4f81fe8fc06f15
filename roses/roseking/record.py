"""JSON game records that replay without this project's random number generator.

A record holds the start position (RK-23: the deal, the draw pile's order and the first
seat to move), the initial deck order (top first: seat 0's hand, then seat 1's, ..., then
the draw pile), every reshuffle's new draw pile (RK-9) top first, the moves in RK-22
notation and the result. Any faithful implementation can replay it from these alone.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from roses.jsonfile import read_json_object, write_json

from .board import Board, Shuffler
from .errors import InvalidPositionError, InvalidRecordError, RoseKingError
from .geometry import CARD_NAMES, Card, parse_card
from .moves import parse_move
from .variants import Variant, seat_name

FORMAT: Final = "roses/rose-king-record/1"


def _result_dict(board: Board) -> dict[str, Any] | None:
    outcome = board.outcome()
    if outcome is None:
        return None
    return {
        "winner": outcome.result(),
        "termination": outcome.termination.value,
        "red": {"score": outcome.red.score, "largest": outcome.red.largest,
                "stones": outcome.red.stones},
        "white": {"score": outcome.white.score, "largest": outcome.white.largest,
                  "stones": outcome.white.stones},
    }  # fmt: skip


def root(board: Board) -> Board:
    """A copy of ``board`` with every move taken back."""
    start = board.copy()
    while start.move_stack:
        start.pop()
    return start


def record_of(board: Board, players: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of the game played on ``board`` so far (god's view: keep it private)."""
    start = root(board)
    record: dict[str, Any] = {
        "format": FORMAT,
        "variant": board.variant.value,
        "players": list(players)
        if players
        else [seat_name(s, board.seats) for s in range(board.seats)],
    }
    record["start"] = start.position()
    record["deck"] = [CARD_NAMES[c] for c in _deck_order(start)]
    record["shuffles"] = [[CARD_NAMES[c] for c in pile] for pile in board.reshuffles]
    record["moves"] = [str(move) for move in board.move_stack]
    record["result"] = _result_dict(board)
    return record


def _deck_order(start: Board) -> tuple[Card, ...]:
    """The deck order that deals ``start``: the hands in seat order, then the draw pile."""
    return (*[card for hand in start.hands for card in hand], *start.draw_pile)


def recorded_shuffler(shuffles: Sequence[tuple[Card, ...]]) -> Shuffler:
    """Hands out the recorded reshuffles in turn, checking each against the discard pile."""

    def shuffle(discard: tuple[Card, ...], index: int) -> tuple[Card, ...]:
        if index >= len(shuffles):
            raise InvalidRecordError(
                f"the game needs reshuffle {index + 1} but only {len(shuffles)} are recorded",
                key="shuffles",
            )
        pile = shuffles[index]
        if sorted(pile) != sorted(discard):
            raise InvalidRecordError(
                f"reshuffle {index + 1} is not an order of the discard pile "
                f"({','.join(CARD_NAMES[c] for c in discard)})",
                key="shuffles",
            )
        return pile

    return shuffle


def _require(record: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in record:
        raise InvalidRecordError("missing", key=key)
    value = record[key]
    if not isinstance(value, kind):
        raise InvalidRecordError(f"has the wrong type {type(value).__name__}", key=key)
    return value


def replay(record: dict[str, Any]) -> Board:
    """Replay a record; raises ``InvalidRecordError`` at the first fault (its move index)."""
    if not isinstance(record, dict):
        raise InvalidRecordError("a record is a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise InvalidRecordError(f"unknown format {record.get('format')!r}", key="format")
    try:
        variant = Variant.parse(_require(record, "variant", str))
    except ValueError as error:
        raise InvalidRecordError(str(error), key="variant") from None

    shuffles = []
    for number, pile in enumerate(_require(record, "shuffles", list)):
        try:
            shuffles.append(tuple(parse_card(name) for name in pile))
        except (ValueError, TypeError):
            raise InvalidRecordError(
                f"reshuffle {number + 1}: bad card list", key="shuffles"
            ) from None

    try:
        board = Board.from_position(_require(record, "start", str), variant=variant)
    except InvalidPositionError as error:
        raise InvalidRecordError(str(error), key="start") from None
    if board.move_stack or board.stones_on_board or board.discard_pile:
        raise InvalidRecordError("not the start of a game", key="start")
    if "deck" in record and record["deck"] != [CARD_NAMES[c] for c in _deck_order(board)]:
        raise InvalidRecordError("does not deal the start position", key="deck")
    board.shuffler = recorded_shuffler(shuffles)

    for index, text in enumerate(_require(record, "moves", list)):
        try:
            board.push(parse_move(text))
        except RoseKingError as error:
            raise InvalidRecordError(str(error), move_index=index) from None
    if len(board.reshuffles) != len(shuffles):
        raise InvalidRecordError(
            f"{len(shuffles)} reshuffles recorded but the game made {len(board.reshuffles)}",
            key="shuffles",
        )
    result = record.get("result")
    if result is not None and result != _result_dict(board):
        raise InvalidRecordError(
            f"says {json.dumps(result)} but the moves give {json.dumps(_result_dict(board))}",
            key="result",
        )
    return board


def load(path: str | Path) -> dict[str, Any]:
    return read_json_object(path, InvalidRecordError)


def dump(record: dict[str, Any], path: str | Path) -> None:
    write_json(record, path)
