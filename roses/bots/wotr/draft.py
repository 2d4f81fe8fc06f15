"""The search's draft picks (WR-7, WR-8): each of the heuristic's favourite cards is tried,
the rest of this draft played out by the heuristic for every seat, and the table it leaves
valued; the best is picked. The draft is sequential and open (the layout and who picks
next are public), so a lookahead, not an equilibrium, is what it needs."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Final

from roses.wotr.actions import Pick
from roses.wotr.data import TURNS
from roses.wotr.phases.awards import CHURCH_BONUS, TRADE_BONUS
from roses.wotr.phases.draft import picker, take_card
from roses.wotr.phases.income import income_of
from roses.wotr.phases.parliament import KING_VP, house_zone_winner, ranking, zone_holdings
from roses.wotr.state import LANCASTER, YORK, GameState, Phase
from roses.wotr.view import PlayerView

from .heuristic import POUND_VP, HeuristicBot
from .inference import inferred_money
from .table import table_of, view_of

PICKS_TRIED: Final = 6  # of the heuristic's favourite cards
REPEAT: Final = 0.8  # how much of the table's Parliament VP a seat counts on each turn
LEAD_SCALE: Final = 8.0


def table_values(state: GameState) -> list[float]:
    """Each seat's prospects from a table: VP now, and for this turn's Parliament and each
    later one most of what the table would score (zones, the King, awards, bonuses,
    WR-14..WR-17),
    plus money, income and mercenaries at the heuristic's price."""
    board = state.board
    parliaments = TURNS - state.turn + 1
    scores = [0.0] * state.player_count
    for zone in board.zones:
        placed = ranking(state, zone_holdings(state, zone.id))
        for seat, vp in zip(placed, (zone.vp_first, zone.vp_second), strict=False):
            scores[seat] += vp
    for award in board.awards:
        holder = state.award_holder.get(award.id)
        if holder is not None:
            scores[holder] += award.vp
    for card, holder in state.owner.items():
        if holder is None or card not in board.icons:
            continue
        icon = board.icons[card]
        if icon.kind == "ship" and state.owner.get(icon.port or "") == holder:
            scores[holder] += TRADE_BONUS
        elif icon.kind == "bishop" and state.owner.get(icon.see or "") == holder:
            scores[holder] += CHURCH_BONUS
    king = crowned_house(state)
    for seat, player in enumerate(state.players):
        if king is not None and player.house == king:
            scores[seat] += KING_VP
    unit = board.model.troops.cost
    values = []
    for seat, player in enumerate(state.players):
        money = player.money + income_of(state, seat) * parliaments + player.mercenaries * unit
        values.append(player.vp + parliaments * REPEAT * scores[seat] + POUND_VP * money)
    return values


def crowned_house(state: GameState) -> str | None:
    """WR-15 (4 players): the house the table would crown now; None with fewer players,
    or on a tie (which the game settles by the last crowning)."""
    if state.player_count != 4:
        return None
    votes = {LANCASTER: 0, YORK: 0}
    for zone in state.board.zones:
        winner = house_zone_winner(state, zone_holdings(state, zone.id))
        if winner is not None:
            votes[winner] += zone.votes
    if votes[LANCASTER] == votes[YORK]:
        return None
    return LANCASTER if votes[LANCASTER] > votes[YORK] else YORK


def lead(values: Sequence[float], seat: int) -> float:
    best_other = max(v for other, v in enumerate(values) if other != seat)
    return math.tanh((values[seat] - best_other) / LEAD_SCALE)


def draft_pick(view: PlayerView, rng: random.Random, deadline: float) -> Pick:
    """The pick whose played-out draft leaves the viewer the best table; the heuristic's
    own pick when there is no time to look further."""
    assert view.viewer is not None and view.phase is Phase.DRAW
    me = view.viewer
    ranker = HeuristicBot(rng.randrange(2**32))
    cards = sorted(set(view.layout), key=lambda card: ranker.card_value(view, card), reverse=True)
    state = table_of(view, inferred_money(view))
    state.phase = Phase.DRAW
    state.layout = list(view.layout)
    state.picks, state.pick_index = list(view.picks), 0
    pickers = [HeuristicBot(rng.randrange(2**32)) for _ in range(view.players)]
    best, best_value = cards[0], -math.inf
    for card in cards[:PICKS_TRIED]:
        if time.perf_counter() >= deadline and best_value > -math.inf:
            break
        after = state.clone()
        take_card(after, me, card)
        while (seat := picker(after)) is not None and after.layout:
            choice = pickers[seat].act(view_of(view, after, seat))
            assert isinstance(choice, Pick)
            take_card(after, seat, choice.card)
        value = lead(table_values(after), me)
        if value > best_value:
            best, best_value = card, value
    return Pick(best)
