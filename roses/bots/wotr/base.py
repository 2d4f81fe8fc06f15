"""The one interface every Wars of the Roses bot implements, and the registry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from roses.wotr.actions import Action
from roses.wotr.view import PlayerView


class WotrBot(Protocol):
    name: str

    def act(self, view: PlayerView) -> Action:
        """The viewer's decision: a pick, a French Aid answer or sealed orders."""
        ...


Factory = Callable[[int | None, float | None], WotrBot]  # (seed, seconds per decision)


def _factories() -> dict[str, Factory]:
    from .heuristic import HeuristicBot
    from .random_planner import RandomPlanner
    from .search import SearchBot

    return {
        "random": lambda seed, _seconds: RandomPlanner(seed),  # they answer at once
        "heuristic": lambda seed, _seconds: HeuristicBot(seed),
        "search": SearchBot,
        "search-model": lambda seed, seconds: SearchBot(seed, seconds, modelled=True),
    }


def available_wotr_bots() -> list[str]:
    return sorted(_factories())


def make_wotr_bot(name: str, seed: int | None = None, time_limit: float | None = None) -> WotrBot:
    """Build a bot by name; ``time_limit`` is the seconds a searching bot may think per
    decision (the others answer at once and ignore it). Raises ``ValueError`` naming the
    choices for an unknown name."""
    factories = _factories()
    if name not in factories:
        raise ValueError(f"unknown bot {name!r} (choose from: {', '.join(sorted(factories))})")
    return factories[name](seed, time_limit)
