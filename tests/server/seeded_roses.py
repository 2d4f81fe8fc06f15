"""``python -m roses`` whose games are dealt from the seed in ``ROSES_TEST_DEALS``: a test's
live server in a subprocess deals the same games on every run, as the in-process app does
(``conftest.reproducible_deals``)."""

from __future__ import annotations

import os
import random

from roses.cli import run
from roses.server import store


class SeededDeals:
    """Stands in for ``secrets`` in ``store``: the games' seeds from a seeded generator."""

    def __init__(self, deals: random.Random) -> None:
        self.randbits = deals.getrandbits


if __name__ == "__main__":
    store.secrets = SeededDeals(random.Random(os.environ["ROSES_TEST_DEALS"]))  # type: ignore[assignment,attr-defined]
    run()
