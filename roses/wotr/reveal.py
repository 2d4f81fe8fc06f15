"""The reveal and what follows it to the end of the turn (WR-11..WR-17): once every plan
is sealed, deployment, bribery, combat and Parliament run without a decision.

``Game`` runs these steps one phase at a time; a search runs them all at once on a quiet
copy of the state (``GameState.clone``), so both resolve a turn with the same code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .phases.bribery import resolve_bribes
from .phases.combat import resolve_battles
from .phases.deployment import deploy
from .phases.parliament import hold_parliament
from .state import GameState, Phase

REVEAL_STEPS: Final[dict[Phase, Callable[[GameState], None]]] = {
    Phase.DEPLOYMENT: deploy,
    Phase.BRIBERY: resolve_bribes,
    Phase.COMBAT: resolve_battles,
    Phase.PARLIAMENT: hold_parliament,
}


def resolve_reveal(state: GameState) -> None:
    """With every seat's plan in ``state.orders``: reveal, pay, move, bribe, fight and hold
    Parliament, then clear the turn, leaving ``state`` at the end of its Parliament."""
    if len(state.orders) != state.player_count:
        missing = sorted(set(range(state.player_count)) - set(state.orders))
        raise ValueError(f"the reveal needs every seat's plan; missing seats {missing}")
    for phase, step in REVEAL_STEPS.items():
        state.phase = phase
        step(state)
    state.clear_turn()
