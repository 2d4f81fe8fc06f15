"""Moves over a game's WebSocket: the browser's normal path (the POST stays for programs).

A client sends ``{"type": "move", "move": m, "version": v, "id": k}`` and is answered on the
same socket, after the view of the new version, by ``{"type": "ack", "id": k, "version": n}``
or by ``{"type": "error", "id": k, "status": s, "detail": "..."}`` (and ``errors`` for 422):
the POST's checks, statuses and sentences, and nothing changed. The socket was signed in
when it opened, so a move costs no session look-up, no routing and no request parsing.
An account's moves are limited on all its sockets and the POST route together
(``quotas.MoveRate``, 429); other frames are ignored unread beyond a glance.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from roses.games import JSON

from ..accounts.quotas import Limiter
from ..errors import Forbidden, ServiceError, Unprocessable, as_sentence, validation_answer
from ..http.json_bounds import MAX_DEPTH, too_deep, unstorable
from ..http.schemas import MoveRequest
from ..i18n import _
from .live_games import LiveGame, LiveGames

MAX_ID_LENGTH = 64
_MAX_VERSION = 2**31 - 1


class FrameTooDeep(Exception):
    """A move frame nested past what the JSON parser can read: answered, never acted on."""


def parse(text: str) -> dict[str, Any] | None:
    """The move message in ``text``; None for anything else (ignored, as before);
    ``FrameTooDeep`` for a move nested past the interpreter's recursion."""
    if '"move"' not in text:  # most frames are not moves: no JSON parsing for them
        return None
    try:
        message = json.loads(text)
    except RecursionError:
        raise FrameTooDeep from None
    except ValueError:
        return None
    if isinstance(message, dict) and message.get("type") == "move":
        return message
    return None


def too_deep_answer() -> dict[str, Any]:
    """The answer to a ``FrameTooDeep`` (its id could not be read)."""
    problem = _("this is nested more than {most} levels deep", most=MAX_DEPTH)
    return _error(None, Unprocessable("move", problem))


def _error(message_id: Any, error: ServiceError) -> dict[str, Any]:
    reply: dict[str, Any] = {
        "type": "error",
        "id": message_id,
        "status": error.status,
        "detail": as_sentence(error.message),
    }
    if isinstance(error, Unprocessable):
        reply["errors"] = [{"field": error.field, "message": as_sentence(error.problem)}]
    return reply


def _checked(message: dict[str, Any]) -> tuple[JSON, int]:
    """The move and version, checked as the POST's body is (``ValidationError`` with the
    same problems); pydantic only runs when the quick check finds something unusual."""
    move, version = message.get("move"), message.get("version")
    move_ok = (
        (isinstance(move, str) and 1 <= len(move) <= 16)
        or (isinstance(move, dict) and not too_deep(move))
    ) and not unstorable(move)
    if move_ok and type(version) is int and 0 <= version <= _MAX_VERSION:
        return move, version
    body = MoveRequest.model_validate({"move": move, "version": version})
    return body.move, body.version


async def refused(message: dict[str, Any], error: ServiceError) -> dict[str, Any]:
    """The reply to a move message the socket may not send (a read-only API token's)."""
    message_id = message.get("id")
    return _error(message_id if isinstance(message_id, int | str) else None, error)


async def handle(
    games: LiveGames, limiter: Limiter, game_id: int, user_id: int, message: dict[str, Any]
) -> dict[str, Any]:
    """The reply to one move message (the view itself goes out through the watchers)."""
    message_id = message.get("id")
    if not (message_id is None or isinstance(message_id, int | str)) or (
        isinstance(message_id, str) and len(message_id) > MAX_ID_LENGTH
    ):
        problem = _("a move's id is a number or a short text")
        return _error(None, Unprocessable("id", problem))

    def my_seat(live: LiveGame) -> int:
        seat = live.seat_of(user_id)
        if seat is None:
            raise Forbidden(_("you have no seat in this game"))
        return seat

    try:
        limiter.count_move(user_id)
        move, version = _checked(message)
        live = await games.act(game_id, my_seat, move, version)
    except ValidationError as invalid:
        return {"type": "error", "id": message_id, "status": 422,
                **validation_answer(invalid.errors())}  # fmt: skip
    except ServiceError as error:
        return _error(message_id, error)
    return {"type": "ack", "id": message_id, "version": live.version}
