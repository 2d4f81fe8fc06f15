"""The one interface every Rose King bot implements, and the registry that builds them.

A bot is built from a ``BotSpec`` (name, seed, budget) and asked for a move with a
``PlayerView``: what its seat may know and nothing more (RK-20).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from roses.roseking import Move
from roses.roseking.view import PlayerView


@dataclass(frozen=True)
class BotSpec:
    name: str
    seed: int | None = None
    time_limit: float | None = None  # seconds per move
    iterations: int | None = None  # search iterations per move


class Bot(Protocol):
    name: str

    def choose(self, view: PlayerView) -> Move:
        """A legal move for the seat to move in ``view``."""
        ...


class RandomBot:
    """Uniformly random legal moves."""

    name = "random"

    def __init__(self, spec: BotSpec) -> None:
        self.rng = random.Random(spec.seed)

    def choose(self, view: PlayerView) -> Move:
        return self.rng.choice(view.legal_moves)


def _greedy(spec: BotSpec) -> Bot:
    from .greedy import GreedyBot  # imported late: those modules import this one

    return GreedyBot(spec)


def _mcts(spec: BotSpec) -> Bot:
    from .mcts import MctsBot

    return MctsBot(spec)


def _search(spec: BotSpec) -> Bot:
    from .search import search_bot

    return search_bot(spec)


def _alphabeta(spec: BotSpec) -> Bot:
    from .search import alphabeta_bot

    return alphabeta_bot(spec)


def _expectimax(spec: BotSpec) -> Bot:
    from .search import expectimax_bot

    return expectimax_bot(spec)


BOT_FACTORIES: dict[str, Callable[[BotSpec], Bot]] = {
    "random": RandomBot,
    "greedy": _greedy,
    "mcts": _mcts,  # Monte Carlo tree search with random playouts: a sparring partner now
    "search": _search,
    "alphabeta": _alphabeta,
    "expectimax": _expectimax,
}
# The strongest bot: what the lobby's strengths (quick, normal, strong) should play.
STRONGEST = "search"
SEARCHES = frozenset({"search", "alphabeta", "expectimax"})  # the bots of the compiled search
# Bots that answer at once, whatever time they are given: they have no strengths to offer.
INSTANT = frozenset({"random", "greedy"})


def available_bots() -> list[str]:
    return sorted(BOT_FACTORIES)


def make_bot(
    name: str,
    *,
    seed: int | None = None,
    time_limit: float | None = None,
    iterations: int | None = None,
) -> Bot:
    """Build a bot by name; raises ``ValueError`` naming the choices for an unknown name."""
    try:
        factory = BOT_FACTORIES[name]
    except KeyError:
        raise ValueError(
            f"unknown bot {name!r} (choose from: {', '.join(available_bots())})"
        ) from None
    return factory(BotSpec(name, seed, time_limit, iterations))


def prepare(name: str) -> None:
    """Compile what bot ``name`` needs, once per process, so that its first move answers
    within its time (the compiled search takes seconds to compile and is not cached)."""
    if name in SEARCHES:
        from .search import warm_up

        warm_up()
