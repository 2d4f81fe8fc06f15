"""Phase 3: income and French Aid (WR-9)."""

from __future__ import annotations

from typing import Final

from ..state import GameState
from ..text import pounds

FRENCH_AID_MAX: Final = 25


def income_of(state: GameState, seat: int) -> int:
    board = state.board
    return sum(board.icons[card].income for card in state.owned(seat) if card in board.icons)


def collect_income(state: GameState) -> None:
    """WR-9: each player in turn order takes the income printed on their cards."""
    for seat in state.order:
        amount = income_of(state, seat)
        state.players[seat].money += amount
        state.note(
            "{seat} collects {pounds} of income.", seat=state.name(seat), pounds=pounds(amount)
        )


def french_aid_amount(state: GameState, seat: int) -> int:
    """WR-9: the leader's score minus one's own, at most 25; 0 when not available."""
    player = state.players[seat]
    if state.turn == 1 or player.french_aid_used:
        return 0
    leader = max(p.vp for p in state.players)
    return min(FRENCH_AID_MAX, leader - player.vp)


def french_aid_candidates(state: GameState) -> list[int]:
    """WR-9: every player but the leader, in turn order, who may still take French Aid."""
    return [seat for seat in state.order if french_aid_amount(state, seat) > 0]


def take_french_aid(state: GameState, seat: int) -> None:
    amount = french_aid_amount(state, seat)
    state.players[seat].money += amount
    state.players[seat].french_aid_used = True
    state.note("{seat} takes French Aid: {pounds}.", seat=state.name(seat), pounds=pounds(amount))
