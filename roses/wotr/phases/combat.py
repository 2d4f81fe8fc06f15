"""Phase 7: combat (WR-13)."""

from __future__ import annotations

from ..state import GameState
from ..text import Value
from .awards import refresh_awards


def battle(attackers: int, defenders: int) -> tuple[int, int]:
    """WR-13: both sides lose one troop at a time; returns what each side has left."""
    lost = min(attackers, defenders)
    return attackers - lost, defenders - lost


def resolve_battles(state: GameState) -> None:
    """WR-13, in reverse turn order: every Location where the active player attacks.

    The first attack of the turn on a Location replaces the owner's cube with its garrison,
    beside the owner's defending troops; later attacks fight only the troops left there.
    A tie makes the Location neutral and its card goes face up onto the deck, where a later
    attacker this turn takes it from.
    """
    board = state.board
    # Location -> troops standing on it for its present holder, once it has been attacked.
    standing: dict[str, int] = {}
    for seat in reversed(state.order):
        # Within one player's turn, battles go zone by zone in WR-1 order.
        for location in board.icons:
            troops = state.attacks.get(location, {}).get(seat)
            if troops is None:
                continue
            holder = state.owner[location]
            name = board.card_name(location)
            if location not in standing:  # the first attack this turn
                garrison = board.icons[location].garrison
                standing[location] = garrison + state.defence.get(location, 0)
            attackers, defenders = battle(troops, standing[location])
            fight: dict[str, Value] = {
                "seat": state.name(seat),
                "name": name,
                "holder": "nobody" if holder is None else state.name(holder),
                "attackers": troops,
                "defenders": standing[location],
            }
            if attackers:
                if holder is None:
                    state.returned.remove(location)
                state.owner[location] = seat
                standing[location] = attackers
                state.note(
                    "{seat} attacks {name} ({holder}) with {attackers} against {defenders}: "
                    "won, {left} left.",
                    left=attackers,
                    **fight,
                )
            elif defenders:
                standing[location] = defenders
                state.note(
                    "{seat} attacks {name} ({holder}) with {attackers} against {defenders}: "
                    "repulsed, {left} left.",
                    left=defenders,
                    **fight,
                )
            else:
                state.owner[location] = None
                state.returned.append(location)
                standing[location] = 0
                state.note(
                    "{seat} attacks {name} ({holder}) with {attackers} against {defenders}: "
                    "both sides destroyed; the Location is neutral.",
                    **fight,
                )
            refresh_awards(state)
    state.troops_after_combat = {
        location: _left_after_battles(state, location, placed, standing)
        for location, placed in state.troops_placed.items()
    }


def _left_after_battles(
    state: GameState, location: str, placed: dict[int, int], standing: dict[str, int]
) -> dict[int, int]:
    """The troops on ``location`` once the battles are over: the holder's survivors where
    there was a battle (none if it fell neutral), the defenders where there was none."""
    if location not in standing:
        return dict(placed)
    holder = state.owner[location]
    return {} if holder is None or not standing[location] else {holder: standing[location]}
