"""JSON game records that replay without this project's random number generator.

A record holds the board data, the game's chance fixed up front (the deck's order, turn
1's order and the house tiles: ``Setup``), every decision in the order it was made and
the result. Replaying applies the decisions to a game built from the same setup.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from roses.jsonfile import read_json_object, write_json

from .actions import action_from_json
from .data import BoardData, parse_board
from .errors import BoardDataError, InvalidRecordError, WotrError
from .game import Game, Setup

FORMAT: Final = "roses/wotr-record/1"


def record_of(game: Game) -> dict[str, Any]:
    """The record of the game so far (god's view, with every sealed order: keep it private
    until the game is over)."""
    result = game.outcome()
    return {
        "format": FORMAT,
        "players": game.players,
        "board": game.board.to_json(),
        "setup": {
            "deck": list(game.setup.deck),
            "first_order": list(game.setup.first_order),
            "houses": None if game.setup.houses is None else list(game.setup.houses),
        },
        "actions": [{"seat": seat, **action.to_json()} for seat, action in game.history],
        "result": None if result is None else result.to_json(),
    }


def _require(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise InvalidRecordError("missing", key=key)
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise InvalidRecordError(f"has the wrong type {type(value).__name__}", key=key)
    return value


def _board(record: dict[str, Any]) -> BoardData:
    try:
        return parse_board(_require(record, "board", dict))
    except BoardDataError as error:
        raise InvalidRecordError(str(error), key="board") from None


def replay(record: object) -> Game:
    """Replay a record; raises ``InvalidRecordError`` at the first fault (its action index)."""
    if not isinstance(record, dict):
        raise InvalidRecordError("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise InvalidRecordError(f"unknown format {record.get('format')!r}", key="format")
    players = _require(record, "players", int)
    board = _board(record)
    setup_data = _require(record, "setup", dict)
    houses = setup_data.get("houses")
    try:
        setup = Setup(
            deck=tuple(_require(setup_data, "deck", list)),
            first_order=tuple(_require(setup_data, "first_order", list)),
            houses=None if houses is None else tuple(houses),
        )
        game = Game(players, board=board, setup=setup)
    except WotrError as error:
        raise InvalidRecordError(str(error), key="setup") from None
    except TypeError:
        raise InvalidRecordError("deck, first_order and houses are lists", key="setup") from None
    for index, entry in enumerate(_require(record, "actions", list)):
        if not isinstance(entry, dict) or "seat" not in entry:
            raise InvalidRecordError('each action is {"seat": N, ...}', action_index=index)
        body = {key: value for key, value in entry.items() if key != "seat"}
        try:
            game.apply(entry["seat"], action_from_json(body))
        except WotrError as error:
            raise InvalidRecordError(str(error), action_index=index) from None
    result = record.get("result")
    outcome = game.outcome()
    if result is not None and (outcome is None or result != outcome.to_json()):
        said = json.dumps(result)
        got = json.dumps(None if outcome is None else outcome.to_json())
        raise InvalidRecordError(f"says {said} but the actions give {got}", key="result")
    return game


def load(path: str | Path) -> dict[str, Any]:
    return read_json_object(path, InvalidRecordError)


def dump(record: dict[str, Any], path: str | Path) -> None:
    write_json(record, path)
