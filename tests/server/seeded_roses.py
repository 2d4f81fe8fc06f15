"""``python -m roses`` whose games are dealt from the seed in ``ROSES_TEST_DEALS``: a test's
live server in a subprocess deals the same games on every run, as the in-process app does
(``conftest.reproducible_deals``)."""

from __future__ import annotations

import os
import random
from collections.abc import Callable

from roses.cli import run
from roses.server.lobby import creating


def seeded_deals(seed: str) -> Callable[[], int]:
    """Stands in for ``creating.deal_seed``: the seeds from a generator seeded by ``seed``."""
    deals = random.Random(seed)
    return lambda: deals.getrandbits(63)


if __name__ == "__main__":
    creating.deal_seed = seeded_deals(os.environ["ROSES_TEST_DEALS"])
    run()
