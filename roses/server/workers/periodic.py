"""A job the server repeats for as long as it runs (expiry, clocks, digests, warnings)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

log = logging.getLogger(__name__)


async def _repeat(
    job: Callable[[], Awaitable[object]],
    seconds: Callable[[], float],
    what: str,
    wake: asyncio.Event | None,
) -> None:
    while True:
        if wake is not None:
            wake.clear()
        try:
            await job()
        except Exception:  # a database hiccup must not end the job for good
            log.exception("%s failed; trying again later", what)
        if wake is None:
            await asyncio.sleep(seconds())
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), seconds())


@asynccontextmanager
async def repeated(
    job: Callable[[], Awaitable[object]],
    seconds: Callable[[], float],
    what: str,
    wake: asyncio.Event | None = None,
) -> AsyncIterator[None]:
    """Runs ``job`` now and then every ``seconds()`` (or sooner once ``wake`` is set)
    until the context ends."""
    task = asyncio.get_running_loop().create_task(_repeat(job, seconds, what, wake))
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
