"""Live updates: the open WebSockets, per game and per player's lobby."""

from __future__ import annotations

import contextlib
from collections import defaultdict
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect


class Hub:
    def __init__(self) -> None:
        self._games: dict[int, dict[WebSocket, int]] = defaultdict(dict)  # socket -> user id
        self._lobbies: dict[int, set[WebSocket]] = defaultdict(set)  # user id -> sockets

    def watch_game(self, game_id: int, socket: WebSocket, user_id: int) -> None:
        self._games[game_id][socket] = user_id

    def unwatch_game(self, game_id: int, socket: WebSocket) -> None:
        self._games[game_id].pop(socket, None)
        if not self._games[game_id]:
            del self._games[game_id]

    def watch_lobby(self, user_id: int, socket: WebSocket) -> None:
        self._lobbies[user_id].add(socket)

    def unwatch_lobby(self, user_id: int, socket: WebSocket) -> None:
        self._lobbies[user_id].discard(socket)
        if not self._lobbies[user_id]:
            del self._lobbies[user_id]

    def game_watchers(self, game_id: int) -> list[tuple[WebSocket, int]]:
        return list(self._games.get(game_id, {}).items())

    async def notify_lobbies(self, user_ids: set[int], message: dict[str, Any]) -> None:
        for user_id in user_ids:
            for socket in list(self._lobbies.get(user_id, ())):
                await send(socket, message)


async def send(socket: WebSocket, message: dict[str, Any]) -> None:
    """Send, ignoring a socket that has just gone away (its handler cleans it up)."""
    with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
        await socket.send_json(message)
