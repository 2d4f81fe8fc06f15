"""Scaling out: server processes tell each other about changed games through Redis.

Each process keeps its own WebSockets and its own live games; a change accepted by one
process is published, and every other process reads that game again and sends fresh views
to its own watchers. Only a game's id and version travel through Redis, never a view or
anything hidden; and notes about a game that are not changes of it (a chat message, a
rematch offer), which hold nothing of the game itself.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

log = logging.getLogger("roses.server.relay")


class RedisRelay:
    def __init__(
        self, url: str, channel: str, on_remote_change: Callable[[int, int], Awaitable[None]]
    ) -> None:
        self._redis = Redis.from_url(url)
        self._channel = channel
        self._on_remote_change = on_remote_change
        self._origin = uuid.uuid4().hex  # this process: it ignores its own messages
        self._listener: asyncio.Task[None] | None = None
        self._publishing: set[asyncio.Task[None]] = set()
        self._on_remote_note: Callable[[int, dict[str, Any]], Awaitable[None]] | None = None

    def on_note(self, handler: Callable[[int, dict[str, Any]], Awaitable[None]]) -> None:
        """Hand the notes other processes publish (``publish_note``) to ``handler``."""
        self._on_remote_note = handler

    async def start(self) -> None:
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(self._channel)
        self._listener = asyncio.get_running_loop().create_task(self._listen(pubsub))

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            await asyncio.gather(self._listener, return_exceptions=True)
        await asyncio.gather(*self._publishing, return_exceptions=True)
        await self._redis.aclose()

    def publish(self, game_id: int, version: int) -> None:
        """Tell the others, without holding up the caller (the game's writer)."""
        self._send(game_id, {"version": version})

    def publish_note(self, game_id: int, note: dict[str, Any]) -> None:
        """Pass a note about a game (not a change of it) to the others' watchers."""
        self._send(game_id, {"note": note})

    def _send(self, game_id: int, content: dict[str, Any]) -> None:
        task = asyncio.get_running_loop().create_task(self._publish(game_id, content))
        self._publishing.add(task)
        task.add_done_callback(self._publishing.discard)

    async def _publish(self, game_id: int, content: dict[str, Any]) -> None:
        message = json.dumps({"game": game_id, **content, "origin": self._origin})
        try:
            await self._redis.publish(self._channel, message)
        except RedisError as error:  # the move stands; other processes' watchers catch up later
            log.warning("could not tell the other servers about game %s: %s", game_id, error)

    async def _listen(self, pubsub: PubSub) -> None:
        async for message in pubsub.listen():
            if message["type"] != "message":
                continue
            data = json.loads(message["data"])
            if data["origin"] == self._origin:
                continue
            if "note" not in data:
                await self._on_remote_change(int(data["game"]), int(data["version"]))
            elif self._on_remote_note is not None:
                await self._on_remote_note(int(data["game"]), data["note"])
