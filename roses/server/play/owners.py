"""Who plays each game when several server processes run behind a balancer.

With ``game_owners`` on (``ROSES_GAME_OWNERS``), each game has one **owner**: the only
process that applies its moves, runs its bots and acts on its clocks. The balancer sends a
game's requests and sockets to one process (by the game's id, ``deploy/``), and ownership
follows that traffic:

- Ownership is a key in Redis per game naming its owner (``<channel>:owner:<game>``), and
  each process keeps itself alive there with a heartbeat (``<channel>:alive:<process>``,
  expiring after ``owner_seconds``). A process claims a game when a move or a game's socket
  comes to it: at once if nobody owns it or its owner is no longer alive (killed, say).
- If another process that is alive owns it, the claimant asks it to **hand the game
  over**: the owner finishes the action it is writing, forgets the game, closes its sockets
  of the game (the pages reconnect through the balancer), stops its bots and gives up the
  key; the claimant then takes it. Waiting for that (or for a dead owner's heartbeat to
  expire) lasts at most ``owner_seconds`` and a second: past that the request is refused
  (503) and nothing is done.
- Background work (a bot's move, a stand-in, a clock that ran out) never takes a game from
  a live owner: it acts only where the game is owned already or nobody owns it.
- A process whose heartbeat lapsed (it stalled past ``owner_seconds``) gives up every game
  it owned before it goes on.

Everything stays correct even when two processes act on one game at once (every write is
guarded by the version it was based on): ownership saves the second process from paying
for each move again, and keeps bots and clocks from running twice. Without
``game_owners`` (``EveryGame``) every process may act on every game, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Protocol

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from ..errors import Unavailable
from ..i18n import _

log = logging.getLogger("roses.server.play.owners")

# Owner: the game's key names this process, or nobody's (a live process's) and now ours.
_CLAIM = """
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then return owner end
if (not owner) or redis.call('EXISTS', ARGV[2] .. owner) == 0 then
  redis.call('SET', KEYS[1], ARGV[1])
  return ARGV[1]
end
return owner
"""
# Give up a game's key only if it still names this process.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
POLL_SECONDS = 0.05

Release = Callable[[int], Awaitable[None]]


class Owners(Protocol):
    """Which games this process may act on (``LiveGames``, the bots, the clocks)."""

    exclusive: bool  # False: every process acts on every game (no ownership)

    def owns(self, game_id: int) -> bool:
        """Whether this process owns the game now (no round trip)."""

    async def claim(self, game_id: int) -> None:
        """Own the game, taking it over from another live process if need be (a move or a
        socket came here); ``Unavailable`` if that could not be done in time."""

    async def adopt(self, game_id: int) -> bool:
        """Own the game if it is ours or nobody's (its owner gone): background work."""

    def finished(self, game_id: int) -> None:
        """The game is over: its key is no longer needed."""


class EveryGame:
    """One process, or several without a balancer routing by game: each acts on all."""

    exclusive = False

    def owns(self, game_id: int) -> bool:
        return True

    async def claim(self, game_id: int) -> None:
        return None

    async def adopt(self, game_id: int) -> bool:
        return True

    def finished(self, game_id: int) -> None:
        return None


class GameOwners:
    """Ownership kept in Redis (see the module's text)."""

    exclusive = True

    def __init__(self, url: str, prefix: str, name: str, seconds: float) -> None:
        self._redis = Redis.from_url(url)
        self.process = f"{name}-{uuid.uuid4().hex[:8]}"  # this run of this process
        self._owner_prefix = f"{prefix}:owner:"
        self._alive_prefix = f"{prefix}:alive:"
        self._hand_over_prefix = f"{prefix}:hand-over:"
        self._seconds = seconds
        self._mine: set[int] = set()
        self._releasing: set[int] = set()
        self._on_release: Release | None = None
        self._claim = self._redis.register_script(_CLAIM)
        self._release = self._redis.register_script(_RELEASE)
        self._tasks: list[asyncio.Task[None]] = []
        self._pending: set[asyncio.Task[None]] = set()

    def on_release(self, handler: Release) -> None:
        """``handler(game)`` makes this process let go of a game (under its lock)."""
        self._on_release = handler

    async def start(self) -> None:
        await self._beat()
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(self._hand_over_prefix + self.process)
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._heartbeats()),
            loop.create_task(self._hear_hand_overs(pubsub)),
        ]

    async def stop(self) -> None:
        """Stop beating and give up every game (the others take them at once)."""
        for task in (*self._tasks, *self._pending):
            task.cancel()
        await asyncio.gather(*self._tasks, *self._pending, return_exceptions=True)
        with contextlib.suppress(RedisError):
            for game_id in list(self._mine):
                await self._release(keys=[self._owner_prefix + str(game_id)], args=[self.process])
            await self._redis.delete(self._alive_prefix + self.process)
        self._mine.clear()
        await self._redis.aclose()

    def owns(self, game_id: int) -> bool:
        return game_id in self._mine

    async def claim(self, game_id: int) -> None:
        if game_id in self._mine:
            return
        deadline = time.monotonic() + self._seconds + 1
        asked = False
        while True:
            owner = await self._try(game_id)
            if owner == self.process:
                return
            if owner is not None and not asked:  # a live process owns it: ask it to let go
                asked = True
                with contextlib.suppress(RedisError):
                    await self._redis.publish(self._hand_over_prefix + owner, str(game_id))
            if time.monotonic() >= deadline:
                raise Unavailable(
                    _("another server is playing game {id} just now; try again", id=game_id)
                )
            await asyncio.sleep(POLL_SECONDS)

    async def adopt(self, game_id: int) -> bool:
        if game_id in self._mine:
            return True
        try:
            return await self._try(game_id) == self.process
        except Unavailable:
            return False

    async def _try(self, game_id: int) -> str | None:
        """This process's name if it owns the game now; else its owner (None: letting go)."""
        if game_id in self._releasing:
            return None  # being handed over by this very process: wait for it
        try:
            raw = await self._claim(
                keys=[self._owner_prefix + str(game_id)],
                args=[self.process, self._alive_prefix],
            )
        except RedisError as error:
            log.warning("could not claim game %s: %s", game_id, error)
            raise Unavailable(
                _("the servers cannot tell who plays game {id} just now; try again", id=game_id)
            ) from None
        owner = raw.decode() if isinstance(raw, bytes) else str(raw)
        if owner == self.process and game_id not in self._releasing:
            self._mine.add(game_id)
        return owner

    def finished(self, game_id: int) -> None:
        if game_id in self._mine:
            self._mine.discard(game_id)
            self._spawn(self._forget(game_id))

    async def _forget(self, game_id: int) -> None:
        with contextlib.suppress(RedisError):
            await self._release(keys=[self._owner_prefix + str(game_id)], args=[self.process])

    def _spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            await work

        task = asyncio.get_running_loop().create_task(run())
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def hand_over(self, game_id: int) -> None:
        """Another process asked for the game: let go of it and give up its key (if the key
        still names this process, e.g. a give-up that failed before, it goes too)."""
        if game_id in self._releasing:
            return
        self._releasing.add(game_id)
        try:
            if game_id in self._mine:
                self._mine.discard(game_id)
                if self._on_release is not None:
                    try:
                        await self._on_release(game_id)
                    except Exception:  # the key goes anyway: the others must not wait
                        log.exception("could not let go of game %s cleanly", game_id)
            await self._forget(game_id)
        finally:
            self._releasing.discard(game_id)

    async def _hear_hand_overs(self, pubsub: PubSub) -> None:
        async for message in pubsub.listen():
            if message["type"] == "message":
                try:
                    await self.hand_over(int(message["data"]))
                except Exception:  # one bad request must not stop the listening
                    log.exception("could not hand game %s over", message["data"])

    async def _beat(self) -> bool:
        """Keep this process alive; False if it had lapsed (others may own its games)."""
        key = self._alive_prefix + self.process
        pipe = self._redis.pipeline(transaction=False)
        pipe.exists(key)
        pipe.set(key, "1", px=int(self._seconds * 1000))
        existed, _set = await pipe.execute()
        return bool(existed)

    async def beat(self) -> None:
        """One heartbeat; if the last one had lapsed, every game this process owned may be
        another's by now: it lets them all go."""
        try:
            alive = await self._beat()
        except RedisError as error:
            log.warning("could not tell Redis this server is alive: %s", error)
            return
        if not alive and self._mine:
            log.warning("this server stalled past %.1fs: giving up its games", self._seconds)
            for game_id in list(self._mine):
                await self.hand_over(game_id)

    async def _heartbeats(self) -> None:
        while True:
            await asyncio.sleep(self._seconds / 4)
            await self.beat()
