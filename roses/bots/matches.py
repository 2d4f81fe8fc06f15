"""What every game's bot matches share: games played in worker processes and handed back
as they finish, and the Wilson interval of a win share."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TypeVar

Config = TypeVar("Config")
Result = TypeVar("Result")

Z95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval


def games_as_they_finish(
    play: Callable[[Config, int], Result],
    config: Config,
    games: int,
    jobs: int = 1,
    skip: Collection[int] = (),
) -> Iterator[Result]:
    """``play(config, index)`` for every game index but those in ``skip`` (played before,
    when a match resumes), in any order when ``jobs`` > 1. ``play`` runs in worker
    processes: a module-level function of picklable arguments."""
    indices = [index for index in range(games) if index not in skip]
    if jobs <= 1:
        for index in indices:
            yield play(config, index)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play, config, index) for index in indices]
        for future in as_completed(futures):
            yield future.result()


def wilson_interval(points: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (draws count one half)."""
    if games == 0:
        return 0.0, 1.0
    p = points / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    # exact ends: rounding must not exclude an observed rate of 0 or 1
    low = 0.0 if points <= 0 else max(0.0, centre - spread)
    high = 1.0 if points >= games else min(1.0, centre + spread)
    return low, high
