"""WebSockets: each watcher of a game gets its own seat's view after every change."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, FastAPI, WebSocket, WebSocketDisconnect
from sqlalchemy.orm import Session, sessionmaker

from . import accounts, games
from .errors import NotFound
from .hub import Hub, send
from .models import User
from .schemas import GameId
from .views import game_view

router = APIRouter()
UNAUTHORIZED = 4401  # WebSocket close codes 4000-4999 are the application's
FORBIDDEN = 4403
NOT_FOUND = 4404


def _user(sessions: sessionmaker[Session], token: str | None) -> User | None:
    with sessions() as db:
        return accounts.user_for_token(db, token)


def _views(
    sessions: sessionmaker[Session], game_id: int, user_ids: list[int]
) -> tuple[dict[int, dict[str, Any]], set[int]]:
    """Each watcher's view, and the players of the game (their lobbies change too)."""
    with sessions() as db:
        loaded = games.load(db, game_id)
        players = {s.user_id for s in loaded.game.seats if s.user_id is not None}
        players |= {s.invited_user_id for s in loaded.game.seats if s.invited_user_id is not None}
        return {user_id: game_view(loaded, user_id) for user_id in set(user_ids)}, players


async def announce(app: FastAPI, game_id: int) -> None:
    """After a change here: tell this process's watchers, the bots and the other servers."""
    await deliver(app, game_id)
    app.state.bots.poke(game_id)
    if app.state.relay is not None:
        await app.state.relay.publish(game_id)


async def deliver(app: FastAPI, game_id: int) -> None:
    """Fresh views to this process's watchers of the game, a note to its players' lobbies."""
    hub: Hub = app.state.hub
    watchers = hub.game_watchers(game_id)
    views, players = await asyncio.to_thread(
        _views, app.state.sessions, game_id, [user_id for _, user_id in watchers]
    )
    for socket, user_id in watchers:
        await send(socket, {"type": "game", "game": views[user_id]})
    await hub.notify_lobbies(players, {"type": "lobby", "game_id": game_id})


def _same_origin(socket: WebSocket) -> bool:
    """Browsers send cookies on WebSocket handshakes from other origins: refuse those."""
    origin = socket.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == socket.headers.get("host")


async def _signed_in(socket: WebSocket) -> User | None:
    if not _same_origin(socket):
        await socket.close(code=FORBIDDEN, reason="another site's page may not watch games")
        return None
    user = await asyncio.to_thread(
        _user, socket.app.state.sessions, socket.cookies.get(accounts.SESSION_COOKIE)
    )
    if user is None:
        await socket.close(code=UNAUTHORIZED, reason="sign in first")
    return user


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(socket: WebSocket, game_id: GameId) -> None:
    """Sends ``{"type": "game", "game": view}`` now and after every change."""
    await socket.accept()
    user = await _signed_in(socket)
    if user is None:
        return
    hub: Hub = socket.app.state.hub
    try:
        views, _ = await asyncio.to_thread(_views, socket.app.state.sessions, game_id, [user.id])
    except NotFound as error:
        await socket.close(code=NOT_FOUND, reason=error.message)
        return
    hub.watch_game(game_id, socket, user.id)
    try:
        await socket.send_json({"type": "game", "game": views[user.id]})
        while True:
            await socket.receive_text()  # the client only listens; this notices it leave
    except WebSocketDisconnect:
        pass
    finally:
        hub.unwatch_game(game_id, socket)


@router.websocket("/api/lobby/ws")
async def lobby_socket(socket: WebSocket) -> None:
    """Sends ``{"type": "lobby", "game_id": n}`` whenever one of my games changes."""
    await socket.accept()
    user = await _signed_in(socket)
    if user is None:
        return
    hub: Hub = socket.app.state.hub
    hub.watch_lobby(user.id, socket)
    try:
        await socket.send_json({"type": "hello", "user": user.name})
        while True:
            await socket.receive_text()
    except WebSocketDisconnect:
        pass
    finally:
        hub.unwatch_lobby(user.id, socket)
