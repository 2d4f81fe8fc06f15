"""Scaling out: server processes tell each other about changed games through Redis.

Each process keeps its own WebSockets and its own live games. An action accepted by one
process is published whole (game, version, seat, action and what it did to the game's row:
``store.Change``); every other process that holds the game applies it to its own cached
state if it follows the version it has, and reads the game again only on a gap, then sends
fresh views to its own watchers. Other changes (a join, a resignation) travel as "game g is
now at version v" and are read again. Redis is the servers' own, like the database: an
action (a sealed plan) travels through it, a view never does. Notes about a game that are
not changes of it (a chat message, a rematch offer) travel whole too, and so does news of
an account that every process must honour at once (a session signed out: its sockets close
everywhere; ``accounts.sign_outs``).

Everything goes to every process on the shared channel but the actions of a game that has
an owner (``owners``): the owner sends each only to the processes that hold a socket of
that game or a lobby of one of its players (``publish(..., to=...)``, from the presence
each process tells: ``Hub.processes_for``), on each one's own channel
(``<channel>:to:<process>``). The others never hear of it, so an added process does not
pay for every move of the cluster.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, Protocol

import orjson
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from ..db.models import SeatClock
from ..db.store import Change
from ..http.fast_json import dumps

log = logging.getLogger("roses.server.play.relay")


class Games(Protocol):
    """What the relay tells this process's live games (``LiveGames``)."""

    async def changed_elsewhere(
        self, game_id: int, version: int | None = None, *, relayed: bool = False
    ) -> None: ...

    async def acted_elsewhere(self, change: Change, people: Sequence[int] = ()) -> None: ...

    def applies(self, game_id: int) -> bool:
        """Whether this process applies the game's actions (with owners: it owns it)."""
        ...

    async def passed(self, game_id: int, people: Sequence[int]) -> None:
        """An action this process does not apply (``applies``); ``people``: whose lobbies
        hear of it."""


_CHANGE_FIELDS = tuple(field.name for field in dataclasses.fields(Change))
_CLOCK_FIELDS = tuple(field.name for field in dataclasses.fields(SeatClock))


def change_json(change: Change) -> dict[str, Any]:
    """``change`` as JSON (moments as ISO text); shallow, unlike ``dataclasses.asdict``,
    which copied the action deeply and showed in the profile."""
    data = {name: getattr(change, name) for name in _CHANGE_FIELDS}
    data["turn_since"] = change.turn_since.isoformat()
    data["clock_due"] = None if change.clock_due is None else change.clock_due.isoformat()
    data["clocks"] = [
        {name: _text(getattr(clock, name)) for name in _CLOCK_FIELDS} for clock in change.clocks
    ]
    return data


def _text(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _listed(messages: list[str]) -> str:
    """Messages already encoded, as one JSON list."""
    return "[" + ",".join(messages) + "]"


def change_from_json(data: dict[str, Any]) -> Change:
    due = data["clock_due"]
    clocks = tuple(SeatClock(**_moments(clock)) for clock in data["clocks"])
    return Change(
        **{
            **data,
            "turn_since": datetime.fromisoformat(data["turn_since"]),
            "clock_due": None if due is None else datetime.fromisoformat(due),
            "clocks": clocks,
        }
    )


def _moments(clock: dict[str, Any]) -> dict[str, Any]:
    """A clock's fields: its texts are moments (the rest are numbers or None)."""
    return {
        key: datetime.fromisoformat(value) if isinstance(value, str) else value
        for key, value in clock.items()
    }


class RedisRelay:
    def __init__(self, url: str, channel: str, games: Games) -> None:
        self._redis = Redis.from_url(url)
        self._channel = channel
        self._games = games
        self.origin = uuid.uuid4().hex  # this process: it ignores its own messages
        self._listener: asyncio.Task[None] | None = None
        # (channel, game, message) not yet published
        self._outbox: list[tuple[str, int | None, str]] = []
        self._publisher: asyncio.Task[None] | None = None
        self._on_remote_note: Callable[[int, dict[str, Any]], Awaitable[None]] | None = None
        self._on_account: Callable[[dict[str, Any]], Awaitable[None]] | None = None

    def on_note(self, handler: Callable[[int, dict[str, Any]], Awaitable[None]]) -> None:
        """Hand the notes other processes publish (``publish_note``) to ``handler``."""
        self._on_remote_note = handler

    def on_account(self, handler: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        """Hand the news of accounts other processes publish (``publish_account``) to
        ``handler``."""
        self._on_account = handler

    async def start(self) -> None:
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(self._channel, self.channel_of(self.origin))
        self._listener = asyncio.get_running_loop().create_task(self._listen(pubsub))

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            await asyncio.gather(self._listener, return_exceptions=True)
        if self._publisher is not None:
            await asyncio.gather(self._publisher, return_exceptions=True)
        await self._redis.aclose()

    def channel_of(self, process: str) -> str:
        """The channel of the messages for one process alone."""
        return f"{self._channel}:to:{process}"

    def publish(
        self,
        game_id: int,
        version: int,
        change: Change | None = None,
        people: Iterable[int] = (),
        to: Iterable[str] | None = None,
    ) -> None:
        """Tell the others that the game is at ``version`` (by ``change``, if that is
        known; ``people``: whose lobbies hear of it), without holding up the caller (the
        game's writer): every process, or only the processes ``to``."""
        content: dict[str, Any] = {"version": version}
        if change is not None:
            content["change"] = change_json(change)
            content["people"] = sorted(people)
        if to is None:
            self._send(game_id, content)
            return
        for process in sorted(to):
            self._send(game_id, content, self.channel_of(process))

    def publish_note(self, game_id: int, note: dict[str, Any]) -> None:
        """Pass a note about a game (not a change of it) to the others' watchers."""
        self._send(game_id, {"note": note})

    def publish_account(self, news: dict[str, Any]) -> None:
        """Pass news of an account (a session ended, say) to the other processes."""
        self._send(None, {"account": news})

    def _send(self, game_id: int | None, content: dict[str, Any], channel: str = "") -> None:
        """Queue a message for the one publisher task: messages leave in the order they
        were made (a game's versions in order), those made meanwhile for one channel as one
        (a JSON list: each process reads and wakes once for all of them)."""
        message = dumps({"game": game_id, **content, "origin": self.origin})
        self._outbox.append((channel or self._channel, game_id, message))
        if self._publisher is None:
            self._publisher = asyncio.get_running_loop().create_task(self._publish_all())

    async def _publish_all(self) -> None:
        try:
            while self._outbox:
                batch, self._outbox = self._outbox, []
                by_channel: dict[str, list[str]] = {}
                for channel, _, message in batch:
                    by_channel.setdefault(channel, []).append(message)
                published = [
                    (channel, messages[0] if len(messages) == 1 else _listed(messages))
                    for channel, messages in by_channel.items()
                ]
                try:
                    if len(published) == 1:
                        await self._redis.publish(*published[0])
                    else:
                        async with self._redis.pipeline(transaction=False) as pipe:
                            for channel, text in published:
                                pipe.publish(channel, text)
                            await pipe.execute()
                except RedisError as error:  # the moves stand; others catch up later
                    games = sorted({game for _, game, _ in batch if game is not None})
                    log.warning("could not tell the other servers about games %s: %s", games, error)
        finally:
            self._publisher = None

    async def _listen(self, pubsub: PubSub) -> None:
        async for message in pubsub.listen():
            if message["type"] != "message":
                continue
            data = orjson.loads(message["data"])
            for item in data if isinstance(data, list) else (data,):
                if item["origin"] == self.origin:
                    continue
                try:
                    await self._hear(item)
                except Exception:  # one bad message must not stop the listening
                    log.exception("could not take in the news of game %s", item.get("game"))

    async def _hear(self, data: dict[str, Any]) -> None:
        if "account" in data:
            if self._on_account is not None:
                await self._on_account(data["account"])
        elif "change" in data:
            people = [int(person) for person in data.get("people", ())]
            game_id = int(data["game"])
            if self._games.applies(game_id):
                await self._games.acted_elsewhere(change_from_json(data["change"]), people)
            else:  # the action is not even decoded
                await self._games.passed(game_id, people)
        elif "note" not in data:
            await self._games.changed_elsewhere(
                int(data["game"]), int(data["version"]), relayed=True
            )
        elif self._on_remote_note is not None:
            await self._on_remote_note(int(data["game"]), data["note"])
