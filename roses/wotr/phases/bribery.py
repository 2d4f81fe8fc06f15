"""Phase 6: bribery (WR-12)."""

from __future__ import annotations

from ..state import GameState
from .awards import refresh_awards


def resolve_bribes(state: GameState) -> None:
    """WR-12, in reverse turn order: a black cube on a Personality carrying a white cube
    fails and both cubes go back; otherwise the briber takes the Personality. Once the
    white cube has gone, later black cubes succeed; the last successful briber keeps it.
    Leftover white cubes go back."""
    board = state.board
    for seat in reversed(state.order):
        for card in state.black_cubes.get(seat, []):
            name = board.card_name(card)
            if card in state.white_cubes:
                state.white_cubes.discard(card)
                state.note(
                    "{seat} fails to bribe {name}: a white cube guards it.",
                    seat=state.name(seat),
                    name=name,
                )
                continue
            previous = state.owner[card]
            state.owner[card] = seat
            # A Personality never returns to nobody, so a black cube always finds an owner.
            away = "nobody" if previous is None else state.name(previous)
            state.note(
                "{seat} bribes {name} away from {holder}.",
                seat=state.name(seat),
                name=name,
                holder=away,
            )
            refresh_awards(state)
    state.white_cubes = set()
    state.black_cubes = {}
