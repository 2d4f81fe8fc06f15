"""The server's garbage collector set-up (roses/server/workers/collector.py): survivors of young
collections leave the full collections' sight, and every ``full_seconds`` they come back so
that cycles among them are still freed."""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Iterator

import pytest

from roses.server.workers.collector import Collector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> tuple[Node, weakref.ref[Node]]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a, weakref.ref(a)


@pytest.fixture
def collector() -> Iterator[Collector]:
    installed = Collector(full_seconds=3600)
    installed.install()
    try:
        yield installed
    finally:
        installed.uninstall()


def test_survivors_of_a_young_collection_are_frozen(collector: Collector) -> None:
    kept = [Node() for _ in range(100)]
    frozen = gc.get_freeze_count()
    gc.collect(1)
    assert gc.get_freeze_count() >= frozen + len(kept)
    assert gc.get_count()[0] < 10  # the young generation is empty again


def test_frozen_objects_are_still_freed_by_reference_counting(collector: Collector) -> None:
    node = Node()
    gone = weakref.ref(node)
    gc.collect(1)
    del node
    assert gone() is None


def test_a_frozen_cycle_is_freed_after_full_seconds(collector: Collector) -> None:
    node, gone = cycle()
    gc.collect(1)  # frozen
    del node
    gc.collect()
    assert gone() is not None  # out of sight: a full collection does not walk it
    collector._unfrozen_at = time.monotonic() - 3600  # an hour later
    gc.collect(1)  # the young collection after the hour unfreezes
    gc.collect(1)  # and nothing is frozen again before a full collection
    assert gone() is not None
    gc.collect()
    assert gone() is None


def test_uninstall_gives_everything_back() -> None:
    installed = Collector(full_seconds=3600)
    installed.install()
    node, gone = cycle()
    gc.collect(1)
    del node
    installed.uninstall()
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert gone() is None


def test_the_full_collection_after_a_thaw_is_timed(collector: Collector) -> None:
    node, gone = cycle()
    gc.collect(1)  # frozen
    del node
    collector._unfrozen_at = time.monotonic() - 3600
    gc.collect(1)  # thawed
    gc.collect()
    assert gone() is None
    assert len(collector.thawed_pauses) == 1 and 0 < collector.thawed_pauses[0] < 60
    gc.collect()  # an ordinary full collection is not the thaw's
    assert len(collector.thawed_pauses) == 1
