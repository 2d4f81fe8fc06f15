"""Special awards (WR-16) and the trade and church bonuses (WR-17)."""

from __future__ import annotations

from typing import Final

from ..state import GameState

AWARD_THRESHOLD: Final = 2
TRADE_BONUS: Final = 2
CHURCH_BONUS: Final = 3


def refresh_awards(state: GameState) -> None:
    """WR-16, called after every change of ownership: the holder keeps a tile while they own
    at least 2 and nobody owns more; otherwise the first player in turn order with the
    most (at least 2) takes it, or it goes back."""
    board = state.board
    tally = {award.counts: [0] * state.player_count for award in board.awards}
    for card, seat in state.owner.items():
        if seat is not None and card in board.icons and board.icons[card].kind in tally:
            tally[board.icons[card].kind][seat] += 1
    for award in board.awards:
        counts = tally[award.counts]
        holder = state.award_holder.get(award.id)
        best = max(counts)
        if holder is not None and counts[holder] >= AWARD_THRESHOLD and counts[holder] == best:
            continue
        new = next((s for s in state.order if counts[s] == best), None)
        new = new if best >= AWARD_THRESHOLD else None
        if new != holder:
            state.award_holder[award.id] = new
            if new is None:
                state.note("{award} goes back.", award=award.name)
            else:
                state.note("{award} goes to {seat}.", award=award.name, seat=state.name(new))


def score_awards(state: GameState) -> None:
    """WR-16: 4 VP per tile held at the end of Parliament, and the Captain of Calais."""
    for award in state.board.awards:
        holder = state.award_holder.get(award.id)
        if holder is not None:
            state.score(holder, "awards", award.vp, "{award}: {seat} scores {vp} VP.",
                        award=award.name)  # fmt: skip
    if state.calais is not None:
        calais = state.board.model.calais
        state.score(state.calais[0], "calais", calais.vp, "{award}: {seat} scores {vp} VP.",
                    award=calais.name)  # fmt: skip


def score_bonuses(state: GameState) -> None:
    """WR-17: 2 VP per port owned with its own ship (wherever the ship is); 3 VP per
    cathedral town owned with its bishop."""
    board = state.board
    for seat in range(state.player_count):
        trade = sum(
            TRADE_BONUS for ship in state.owned(seat, "ship")
            if state.owner[board.icons[ship].port or ""] == seat
        )  # fmt: skip
        church = sum(
            CHURCH_BONUS for bishop in state.owned(seat, "bishop")
            if state.owner[board.icons[bishop].see or ""] == seat
        )  # fmt: skip
        if trade:
            state.score(
                seat, "trade", trade, "Trade bonus: {seat} scores {vp} VP (ports with their ships)."
            )
        if church:
            state.score(
                seat,
                "church",
                church,
                "Church bonus: {seat} scores {vp} VP (cathedral towns with their bishops).",
            )
