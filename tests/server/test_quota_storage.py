"""The in-process store of the rate limits: its counts hold between sweeps, and it sweeps
expired entries every SWEEP_SECONDS, not every hundredth of a second (a sweep walks every
key: at thousands of accounts, a steady stream of counts kept half a core sweeping)."""

from __future__ import annotations

import time

from limits import parse
from limits.strategies import MovingWindowRateLimiter

from roses.server.accounts.quotas import SWEEP_SECONDS, SweptMemoryStorage


def test_counts_hold_between_sweeps_and_a_sweep_frees_what_expired() -> None:
    storage = SweptMemoryStorage()
    time.sleep(0.05)  # past the one sweep limits' own constructor schedules
    limiter = MovingWindowRateLimiter(storage)
    item = parse("3/second")
    assert all(limiter.hit(item, "k") for _ in range(3))
    assert not limiter.hit(item, "k")  # refused: the window holds three
    assert storage.timer.interval == SWEEP_SECONDS and storage.timer.daemon
    time.sleep(1.05)
    assert limiter.hit(item, "k")  # the window moved on, with no sweep in between
    [key] = storage.events  # (limits' own key for "k")
    assert len(storage.events[key]) == 4  # the expired entries are still held...
    storage._MemoryStorage__expire_events()
    assert len(storage.events[key]) == 1  # ...until the sweep
