"""The streaming API for programs (a bot account's, or a person's script): newline-delimited
JSON over plain HTTP, as lichess's bot API, for clients that would rather not hold a
WebSocket. Each line is one JSON object; an empty line now and then keeps the connection
open. Signed in by the session cookie or an API token (``accounts/tokens.py``, scope read).

- ``GET /api/stream/events``: the account's events: ``hello``, then an ``invitation`` to a
  game, a ``game-start`` of a game it plays, a ``game-finish``, a ``game-cancelled``;
  each with the game's envelope (``views.summary``: who sits where, whose turn; no state).
- ``GET /api/games/{id}/stream``: the game as the account's seat sees it, every version in
  order, exactly the game socket's messages (``sockets``: the views of ``GameModule.view``,
  chat and rematch notes); it ends once the game is over.

Moves go by ``POST /api/games/{id}/moves`` (or the game socket).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from ..accounts.quotas import TooMany
from ..accounts.signed_in import CurrentUser, credential_hash
from ..db import store
from ..db.models import Game, GameStatus, User
from ..errors import ServiceError
from ..http.schemas import ERROR_ANSWERS, GameId
from ..services import Services, services
from .hub import Watcher, encode
from .live_games import GameHeader
from .sockets import game_message
from .views import summary

router = APIRouter(prefix="/api", responses=ERROR_ANSWERS, tags=["bots"])
NDJSON = "application/x-ndjson"
QUIET_SECONDS = 10.0  # an empty line after this long without a message
_OVER = (GameStatus.FINISHED, GameStatus.CANCELLED)


def _lines(texts: AsyncIterator[str]) -> StreamingResponse:
    async def lines() -> AsyncIterator[str]:
        async for text in texts:
            yield text + "\n"

    # No buffering by a proxy in front: each line is worth sending at once.
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return StreamingResponse(lines(), media_type=NDJSON, headers=headers)


def _watcher(app: Services, request: Request, user: User) -> Watcher:
    watcher = Watcher(request, user.id, credential_hash(request))
    refusal = app.hub.refusal(watcher)
    if refusal is not None:
        raise TooMany(refusal)
    return watcher


# -- a game ---------------------------------------------------------------------------------


@router.get("/games/{game_id}/stream")
async def game_stream(
    game_id: GameId, user: CurrentUser, request: Request, version: int | None = None
) -> StreamingResponse:
    """The game as my seat (or a spectator) sees it, as NDJSON: the current version (unless
    I have ``version`` already), then every newer one, as the game socket sends them; the
    stream ends after the version that finished the game."""
    app = services(request)
    watcher = _watcher(app, request, user)
    live = await app.games.locked(game_id)
    try:  # registered under the lock, once its first view is queued: no version slips in
        newer = version is None or version < live.version
        first = encode(game_message(live, user.id)) if newer else None
        over = live.status in _OVER
        if not over:
            watcher.version = live.version
            if first is not None:
                watcher.send_text(first)
            app.hub.watch_game(game_id, watcher)
    finally:
        live.lock.release()

    async def texts() -> AsyncIterator[str]:
        if over:  # nothing will follow: the last version, if it is news, and the end
            if first is not None:
                yield first
            return
        try:
            async for text in watcher.texts(QUIET_SECONDS):
                yield text
                if text and _ends_game(text):
                    return
        finally:
            app.hub.unwatch_game(game_id, watcher)

    return _lines(texts())


def _ends_game(text: str) -> bool:
    """Whether a game message is the version that ended the game."""
    message = json.loads(text)
    return message.get("type") == "game" and message["game"]["status"] in _OVER


# -- the account's events -------------------------------------------------------------------


def _event(kind: str, header: GameHeader, user_id: int) -> dict[str, Any]:
    return {"type": kind, "game_id": header.id, "game": summary(header, user_id)}


def event_kind(header: GameHeader, user_id: int) -> str | None:
    """What a game is to the account now: an invitation, a game it plays, one that ended."""
    seated = header.seat_of(user_id) is not None
    invited = any(s.invited_id == user_id and s.user_id is None for s in header.seats)
    if header.status == GameStatus.CANCELLED and (seated or invited):
        return "game-cancelled"
    if header.status == GameStatus.WAITING:
        return "invitation" if invited else None
    if not seated:
        return None
    return "game-finish" if header.status == GameStatus.FINISHED else "game-start"


@router.get("/stream/events")
async def event_stream(user: CurrentUser, request: Request) -> StreamingResponse:
    """My events, as NDJSON: ``{"type": "hello", "user", "bot"}``, then for each game of
    mine waiting for me or being played, ``invitation`` or ``game-start``; then, as they
    happen, ``invitation``, ``game-start``, ``game-finish`` and ``game-cancelled``, each
    ``{"type", "game_id", "game": <envelope>}``, once per game and kind."""
    app = services(request)
    watcher = _watcher(app, request, user)
    app.hub.watch_lobby(watcher)  # before reading: a change meanwhile is heard, not lost

    def read() -> list[Game]:
        with app.sessions() as db:
            return store.games_of(db, user)

    told: dict[int, str] = {}

    def tell(header: GameHeader) -> str | None:
        kind = event_kind(header, user.id)
        if kind is None or told.get(header.id) == kind:
            return None
        told[header.id] = kind
        return encode(_event(kind, header, user.id))

    async def texts() -> AsyncIterator[str]:
        try:
            yield encode({"type": "hello", "user": user.name, "bot": user.is_bot})
            for game in await asyncio.to_thread(read):
                if game.status not in _OVER and (text := tell(GameHeader(game))):
                    yield text
            async for text in watcher.texts(QUIET_SECONDS):
                if not text:
                    yield text
                    continue
                heard = json.loads(text)
                if heard.get("type") != "lobby":
                    continue
                try:
                    header = await app.games.get(int(heard["game_id"]))
                except ServiceError:
                    continue  # gone meanwhile
                if event := tell(header):
                    yield event
        finally:
            app.hub.unwatch_lobby(watcher)

    return _lines(texts())
