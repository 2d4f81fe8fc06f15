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


def _factories() -> dict[str, Callable[[int | None], WotrBot]]:
    from .heuristic import HeuristicBot
    from .random_planner import RandomPlanner

    return {"random": RandomPlanner, "heuristic": HeuristicBot}


def available_wotr_bots() -> list[str]:
    return sorted(_factories())


def make_wotr_bot(name: str, seed: int | None = None) -> WotrBot:
    """Build a bot by name; raises ``ValueError`` naming the choices for an unknown name."""
    factories = _factories()
    if name not in factories:
        raise ValueError(f"unknown bot {name!r} (choose from: {', '.join(sorted(factories))})")
    return factories[name](seed)
