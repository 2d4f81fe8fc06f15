"""Group commit: the accepted actions of every game are written by one writer, in batches.

Each action is acknowledged only once the transaction holding it has committed, so nothing
acknowledged is ever lost; under load, the actions that arrive while one batch is being
written go together into the next, one transaction (and one fsync) for all of them. If any
action in a batch conflicts (another process moved its game on), the batch is written again
one action at a time, so that only that action fails.
"""

from __future__ import annotations

import asyncio

from sqlalchemy import Engine

from . import store
from .store import Change

MAX_BATCH = 500


class CommitQueue:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._waiting: list[tuple[Change, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def write(self, change: Change) -> None:
        """Return once ``change`` is committed; raise what writing it raised (``Conflict``)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((change, done))
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write_all())
        await asyncio.shield(done)  # a caller that goes away does not stop its write

    async def _write_all(self) -> None:
        try:
            while self._waiting:
                batch = self._waiting[:MAX_BATCH]
                del self._waiting[:MAX_BATCH]
                outcomes = await asyncio.to_thread(self._write_batch, [c for c, _ in batch])
                for (_, done), outcome in zip(batch, outcomes, strict=True):
                    if outcome is None:
                        done.set_result(None)
                    else:
                        done.set_exception(outcome)
        finally:
            self._writer = None

    def _write_batch(self, changes: list[Change]) -> list[Exception | None]:
        try:
            self._write(changes)
            return [None] * len(changes)
        except Exception as error:
            if len(changes) == 1:
                return [error]
            return [self._try(change) for change in changes]

    def _try(self, change: Change) -> Exception | None:
        try:
            self._write([change])
        except Exception as error:  # handed to the one caller it concerns
            return error
        return None

    def _write(self, changes: list[Change]) -> None:
        with self._engine.begin() as connection:  # no ORM session: a hot path
            store.append_actions(connection, changes)
