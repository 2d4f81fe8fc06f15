"""The garbage collector of a server that holds thousands of live games in memory.

CPython's full collection walks every object the collector tracks. With 3,000 live games
and 6,000 sockets that is about 1.6 million objects: it stopped the server for 0.3-1.3 s
every half minute, and those stalls were the slowest moves people waited for. Almost all
of these objects live long (games, sockets, modules), and reference counting frees most of
the rest. So, right after each young collection (generation 1), whatever survived it is
moved out of the collector's sight (``gc.freeze``, a constant-time splice): full
collections then walk only what was made since, and frozen objects are still freed as
usual when their last reference goes. What freezing cannot see is a long-lived object that
later becomes part of a garbage cycle (a closed socket, a game dropped from memory): every
``full_seconds`` everything is unfrozen, so the next full collection walks it all once and
frees those.

The freeze happens inside the collector's own callback, in whichever thread collected, at
the one moment the young generations are empty and no other collection can run.
"""

from __future__ import annotations

import gc
import logging
import time
from typing import Any

log = logging.getLogger("roses.server.collector")


class Collector:
    """Freezes the survivors of young collections; unfreezes every ``full_seconds``."""

    def __init__(self, full_seconds: float) -> None:
        self._full_seconds = full_seconds
        self._unfrozen_at = 0.0  # set by install()
        self._thawed = False  # unfrozen, and no full collection since
        self._walk_began: tuple[float, float] | None = None  # wall clock, thread CPU
        # How long each full collection after a thaw stopped the server, in seconds: the
        # one long pause left (logged; ``benchmarks/server_load.py --thaw-after`` reports it).
        self.thawed_pauses: list[float] = []

    def install(self) -> None:
        gc.collect()  # what start-up made and dropped, before its survivors are frozen
        gc.freeze()
        self._unfrozen_at = time.monotonic()
        gc.callbacks.append(self._after_collection)

    def uninstall(self) -> None:
        if self._after_collection in gc.callbacks:
            gc.callbacks.remove(self._after_collection)
        gc.unfreeze()

    def _after_collection(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            if info["generation"] == 2 and self._thawed:
                self._walk_began = (time.perf_counter(), time.thread_time())
            return
        if info["generation"] == 2:
            if self._walk_began is not None:
                wall, cpu = self._walk_began
                self._told(time.perf_counter() - wall, time.thread_time() - cpu, info["collected"])
                self._walk_began = None
            self._thawed = False
        elif info["generation"] == 1 and not self._thawed:
            now = time.monotonic()
            if now - self._unfrozen_at >= self._full_seconds:
                self._unfrozen_at, self._thawed = now, True
                gc.unfreeze()  # the next full collection walks everything once
            else:
                gc.freeze()

    def _told(self, seconds: float, cpu: float, collected: int) -> None:
        self.thawed_pauses.append(seconds)
        log.warning(
            "roses collector: the full collection after the thaw stopped the server for "
            "%.1f ms (%.1f ms of CPU) and freed %d objects",
            seconds * 1000,
            cpu * 1000,
            collected,
        )
