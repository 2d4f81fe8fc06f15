"""Group commit: the accepted actions of every game are written by one writer, in batches.

Each action is acknowledged only once the transaction holding it has committed, so nothing
acknowledged is ever lost; under load, the actions that arrive while one batch is being
written go together into the next, one transaction (and one fsync) for all of them. If any
action in a batch conflicts (another process moved its game on), the batch is written again
one action at a time, so that only that action fails.

The writer is one thread of its own with one database connection, woken when actions wait
and gone after a second without any: an action costs no thread-pool hand-off and no pool
check-out, and the event loop hears of a whole batch at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable

from sqlalchemy import Connection, Engine

from ..db import store
from ..db.store import Change
from ..errors import Conflict

MAX_BATCH = 500
IDLE_SECONDS = 1.0  # the writer thread ends after this long without work

Outcome = Exception | None
Waiting = tuple[Change, asyncio.Future[None]]


class CommitQueue:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._lock = threading.Lock()
        self._work = threading.Condition(self._lock)
        self._waiting: list[Waiting] = []  # guarded by _lock
        self._writer: threading.Thread | None = None  # guarded by _lock

    async def write(self, change: Change) -> None:
        """Return once ``change`` is committed; raise what writing it raised (``Conflict``)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._lock:
            self._waiting.append((change, done))
            if self._writer is None:
                self._writer = threading.Thread(
                    target=self._write_all, name="roses-commits", daemon=True
                )
                self._writer.start()
            else:
                self._work.notify()
        await asyncio.shield(done)  # a caller that goes away does not stop its write

    def _next_batch(self) -> list[Waiting]:
        """The actions waiting (at most ``MAX_BATCH``); none once idle: the thread ends."""
        with self._lock:
            if not self._waiting:
                self._work.wait(IDLE_SECONDS)
            batch = self._waiting[:MAX_BATCH]
            del self._waiting[:MAX_BATCH]
            if not batch:
                self._writer = None
            return batch

    def _write_all(self) -> None:
        connection: Connection | None = None
        try:
            while batch := self._next_batch():
                if connection is None:
                    connection = self._engine.connect()
                outcomes = self._write_batch(connection, [change for change, _ in batch])
                if any(o is not None and not isinstance(o, Conflict) for o in outcomes):
                    connection.close()  # it may be broken: a fresh one for the next batch
                    connection = None
                _settle(batch, outcomes)
        finally:
            if connection is not None:
                connection.close()

    def _write_batch(self, connection: Connection, changes: list[Change]) -> list[Outcome]:
        try:
            self._write(connection, changes)
            return [None] * len(changes)
        except Exception as error:
            if len(changes) == 1:
                return [error]
            return [self._try(connection, change) for change in changes]

    def _try(self, connection: Connection, change: Change) -> Outcome:
        try:
            self._write(connection, [change])
        except Exception as error:  # handed to the one caller it concerns
            return error
        return None

    def _write(self, connection: Connection, changes: list[Change]) -> None:
        with connection.begin():  # no ORM session: a hot path
            store.append_actions(connection, changes)


def _settle(batch: list[Waiting], outcomes: list[Outcome]) -> None:
    """Hand each outcome to its waiting caller: one call into each event loop per batch."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], Outcome]]] = {}
    for (_, done), outcome in zip(batch, outcomes, strict=True):
        by_loop.setdefault(done.get_loop(), []).append((done, outcome))
    for loop, results in by_loop.items():
        with contextlib.suppress(RuntimeError):  # a loop closed: nobody waits there now
            loop.call_soon_threadsafe(_resolve(results))


def _resolve(results: list[tuple[asyncio.Future[None], Outcome]]) -> Callable[[], None]:
    def resolve() -> None:
        for done, outcome in results:
            if done.done():
                continue
            if outcome is None:
                done.set_result(None)
            else:
                done.set_exception(outcome)

    return resolve
