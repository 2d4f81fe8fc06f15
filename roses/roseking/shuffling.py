"""Seeded shuffles (RK-5, RK-9) that are cheap and identical on every platform.

A BLAKE2b digest of (seed, stream) gives a 256-bit number that is read as a permutation
(its mixed-radix digits drive Fisher-Yates), costing about as much as drawing a few random
numbers, where seeding ``random.Random`` afresh would cost more than a playout's draws.
A seed and a stream always give the same order, so ``pop`` then ``push`` of a draw gives
the same pile and no random state has to be saved in a snapshot.
"""

from __future__ import annotations

import hashlib
from typing import TypeVar

T = TypeVar("T")


def seeded_shuffle(items: tuple[T, ...] | list[T], seed: int, stream: int = 0) -> list[T]:
    """``items`` in an order fixed by (``seed``, ``stream``); uniform for up to 24 items.

    24! < 2**80, so the 256-bit number's digits are uniform to within 2**-176.
    """
    digest = hashlib.blake2b(f"{seed}/{stream}".encode(), digest_size=32).digest()
    number = int.from_bytes(digest, "little")
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        number, j = divmod(number, i + 1)
        order[i], order[j] = order[j], order[i]
    return order
