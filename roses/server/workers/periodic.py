"""A job the server repeats for as long as it runs (expiry, clocks, digests, warnings)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

log = logging.getLogger(__name__)


async def _repeat(
    job: Callable[[], Awaitable[object]], seconds: Callable[[], float], what: str
) -> None:
    while True:
        try:
            await job()
        except Exception:  # a database hiccup must not end the job for good
            log.exception("%s failed; trying again later", what)
        await asyncio.sleep(seconds())


@asynccontextmanager
async def repeated(
    job: Callable[[], Awaitable[object]], seconds: Callable[[], float], what: str
) -> AsyncIterator[None]:
    """Runs ``job`` now and then every ``seconds()`` until the context ends."""
    task = asyncio.get_running_loop().create_task(_repeat(job, seconds, what))
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
