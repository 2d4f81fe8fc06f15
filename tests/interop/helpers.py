"""Random play through ``ChanceGame`` for the interop tests."""

from __future__ import annotations

import random
from collections.abc import Callable

from roses.interop.chance import ChanceGame


def step_randomly(game: ChanceGame, rng: random.Random) -> None:
    """One chance outcome (by its probabilities) or one uniformly random legal action."""
    if game.is_chance_node():
        cards, weights = zip(*game.chance_outcomes(), strict=True)
        game.apply_chance(rng.choices(cards, weights)[0])
    else:
        game.apply_action(rng.choice(game.legal_actions()))


def play_randomly(
    game: ChanceGame, rng: random.Random, check: Callable[[ChanceGame], None] | None = None
) -> ChanceGame:
    """Play to the end, calling ``check`` before every step and at the end."""
    while not game.is_terminal():
        if check is not None:
            check(game)
        step_randomly(game, rng)
    if check is not None:
        check(game)
    return game
