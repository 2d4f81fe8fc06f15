"""A heuristic player: values income, defends what matters, attacks the leader and bribes
when it pays. It reasons only from its own ``PlayerView``.

Every choice is priced in victory points: a pound is worth ``POUND_VP`` VP (a troop costs
3 pounds and a zone's first place is worth 4-9 VP), a card's income and control points
count for the turns left, and a change on the table is judged by the Parliament VP it
moves to this player and away from the leader.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Final

from roses.wotr.actions import Action, Cube, FrenchAid, Orders, Pick
from roses.wotr.data import BoardData
from roses.wotr.phases.parliament import ranking, zone_holdings
from roses.wotr.phases.planning import bribe_cost, presence
from roses.wotr.state import Phase
from roses.wotr.view import PlayerView

POUND_VP: Final = 0.3
AWARD_VP: Final = 4
TRADE_VP: Final = 2
CHURCH_VP: Final = 3


@dataclass(frozen=True)
class Style:
    """How the heuristic plans; the default is its own way. The search varies it to make
    other sensible plans: thriftier or freer with money, more troops per attack, no bribes,
    no defence, a bigger or no Calais bid."""

    pound_vp: float = POUND_VP  # what a pound is worth in VP when deciding to spend it
    margin: int = 0  # troops sent beyond what the heuristic thinks an attack needs
    defend: bool = True
    bribes: bool = True
    calais_divisor: float = 3  # the bid is the value of Calais divided by this
    calais: bool = True


@dataclass
class Sketch:
    """A what-if copy of the public table (the ``Table`` protocol) the bot may change."""

    board: BoardData
    owner: dict[str, int | None]
    noble_zone: dict[str, str]
    ship_sea: dict[str, str]
    order: tuple[int, ...]
    player_count: int
    calais: tuple[int, str] | None = None

    @classmethod
    def of(cls, view: PlayerView) -> Sketch:
        return cls(view.board, dict(view.owner), dict(view.noble_zone), dict(view.ship_sea),
                   view.order, view.players)  # fmt: skip

    def zone_vp(self) -> list[int]:
        """The Parliament zone VP (WR-14) each seat would score on this table."""
        vp = [0] * self.player_count
        for zone in self.board.zones:
            placed = ranking(self, zone_holdings(self, zone.id))
            for seat, points in zip(placed, (zone.vp_first, zone.vp_second), strict=False):
                vp[seat] += points
        return vp


class HeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int | None = None, style: Style | None = None) -> None:
        self.rng = random.Random(seed)
        self.style = style or Style()
        self._base: tuple[PlayerView, list[int]] | None = None  # zone VP of the real table
        self._leader: tuple[PlayerView, int] | None = None

    def act(self, view: PlayerView) -> Action:
        if view.phase is Phase.DRAW:
            return Pick(max(view.layout, key=lambda card: self.card_value(view, card)))
        if view.phase is Phase.INCOME:
            # WR-9: the aid is once per game; take it when the gap is large or time runs out.
            offer = view.french_aid_offer
            return FrenchAid(offer >= 12 or (view.turn == 4 and offer >= 6) or view.turn == 5)
        return self.plan(view)

    # -- values --------------------------------------------------------------------------

    def seat(self, view: PlayerView) -> int:
        assert view.viewer is not None
        return view.viewer

    def leader(self, view: PlayerView) -> int:
        """The strongest opponent: most VP, then most income."""
        if self._leader is not None and self._leader[0] is view:
            return self._leader[1]  # asked for every what-if table of one decision
        me = self.seat(view)
        rivals = [s for s in range(view.players) if s != me]
        leader = max(rivals, key=lambda s: (view.vp[s], self.income(view, s)))
        self._leader = (view, leader)
        return leader

    def income(self, view: PlayerView, seat: int) -> int:
        board = view.board
        return sum(board.icons[c].income for c in view.owned(seat) if c in board.icons)

    def swing(self, view: PlayerView, sketch: Sketch, turns: int) -> float:
        """The Parliament VP a changed table moves to this player and from the leader."""
        me, leader = self.seat(view), self.leader(view)
        if self._base is None or self._base[0] is not view:
            self._base = (view, Sketch.of(view).zone_vp())
        before = self._base[1]
        after = sketch.zone_vp()
        gain = after[me] - before[me]
        harm = before[leader] - after[leader]
        return (gain + 0.5 * harm) * turns

    def holding_value(self, view: PlayerView, card: str, seat: int, turns: int) -> float:
        """What owning ``card`` is worth to ``seat`` beyond zone VP: income and pairings."""
        board = view.board
        if card in board.nobles:
            return 0.0
        icon = board.icons[card]
        value = icon.income * turns * POUND_VP
        partner = icon.port or icon.see
        if partner is None:
            partner = next((i.id for i in board.icons.values()
                            if card in (i.port, i.see)), None)  # fmt: skip
        if partner is not None and view.owner.get(partner) == seat:
            value += (TRADE_VP if icon.kind in ("port", "ship") else CHURCH_VP) * turns
        award = next((a for a in board.awards if a.counts == icon.kind), None)
        if award is not None:
            owned = len(view.owned(seat, icon.kind))
            holder = view.award_holder.get(award.id)
            if owned + 1 >= 2 and holder != seat:
                best = max(len(view.owned(s, icon.kind)) for s in range(view.players))
                if owned + 1 > best or holder is None:
                    value += AWARD_VP * turns * 0.7
        return value

    def card_value(self, view: PlayerView, card: str) -> float:
        board, me = view.board, self.seat(view)
        turns = 6 - view.turn
        if card in board.mercenary_cards:
            tokens = min(board.mercenaries_for_turn(view.turn), view.mercenary_supply)
            return tokens * board.model.troops.cost * POUND_VP * (0.6 + 0.1 * view.turn)
        sketch = Sketch.of(view)
        sketch.owner[card] = me
        if card in board.nobles:
            sketch.noble_zone[card] = board.nobles[card].home
            mobility = board.nobles[card].cp * 0.2 * turns
        else:
            mobility = 0.0
        swing = self.swing(view, sketch, turns)
        return swing + self.holding_value(view, card, me, turns) + mobility

    # -- planning ------------------------------------------------------------------------

    def plan(self, view: PlayerView) -> Orders:
        board, me = view.board, self.seat(view)
        budget = view.my_money
        unit = board.model.troops.cost
        orders = Orders(noble_moves=self.noble_moves(view))
        present = presence(view, me, orders)
        mercenaries = view.my_mercenaries
        troops: dict[str, int] = {}
        placed_mercs: dict[str, int] = {}
        troops_left = board.model.troops.per_player  # the player's troop pieces (WR-10)

        # Attack: opponents' Locations where present, the leader's first, best value per cost.
        leader = self.leader(view)
        targets = []
        for card, icon in board.icons.items():
            holder = view.owner[card]
            if not icon.is_location or holder is None or holder == me:
                continue
            if icon.zone not in present:
                continue
            sketch = Sketch.of(view)
            sketch.owner[card] = me
            value = self.swing(view, sketch, 1) + self.holding_value(view, card, me, 6 - view.turn)
            value += self.holding_value(view, card, holder, 6 - view.turn) * 0.5
            if holder == leader:
                value *= 1.5
            needed = icon.garrison + 1 + (1 if icon.income >= 4 or icon.kind == "castle" else 0)
            needed += self.style.margin
            targets.append((value / needed, value, needed, card))
        targets.sort(reverse=True)
        for _, value, needed, card in targets:
            free = min(mercenaries, needed)
            cost = (needed - free) * unit
            if cost > budget or needed - free > troops_left or value < cost * self.style.pound_vp:
                continue
            mercenaries -= free
            budget -= cost
            troops_left -= needed - free
            if needed - free:
                troops[card] = needed - free
            if free:
                placed_mercs[card] = free

        # Defend: own valuable Locations in zones where a rival is present.
        rivals_present = {
            board.icons[c].zone for c, h in view.owner.items()
            if h is not None and h != me and c in board.icons and board.icons[c].kind != "ship"
        } | {z for n, z in view.noble_zone.items() if view.owner[n] != me}  # fmt: skip
        mine = [c for c in view.owned(me) if board.icons.get(c) and board.icons[c].is_location]
        mine.sort(key=lambda c: -(board.icons[c].income + board.icons[c].cp))
        for card in mine[:3] if self.style.defend else []:
            icon = board.icons[card]
            if icon.zone not in rivals_present:
                continue
            if mercenaries:
                placed_mercs[card] = placed_mercs.get(card, 0) + 1
                mercenaries -= 1
            elif budget >= unit and troops_left and icon.income + icon.cp >= 7:
                troops[card] = troops.get(card, 0) + 1
                budget -= unit
                troops_left -= 1
        if mercenaries and mine:
            placed_mercs[mine[0]] = placed_mercs.get(mine[0], 0) + mercenaries

        bribes, budget = self.bribes(view, budget)
        bid, zone = self.calais_bid(view, budget)
        return replace(orders, calais_bid=bid, calais_zone=zone, troops=troops,
                       mercenaries=placed_mercs, bribes=bribes)  # fmt: skip

    def noble_moves(self, view: PlayerView) -> dict[str, str]:
        """Move a noble where it gains the most Parliament VP (if it gains any)."""
        board, me = view.board, self.seat(view)
        moves: dict[str, str] = {}
        for noble in view.owned(me, "noble"):
            best, best_gain = None, 0.0
            for zone in sorted(board.zone[view.noble_zone[noble]].land):
                sketch = Sketch.of(view)
                sketch.noble_zone.update(moves)
                before = self.swing(view, sketch, 1)
                sketch.noble_zone[noble] = zone
                gain = self.swing(view, sketch, 1) - before
                if gain > best_gain:
                    best, best_gain = zone, gain
            if best is not None:
                moves[noble] = best
        return moves

    def bribes(self, view: PlayerView, budget: int) -> tuple[dict[str, Cube], int]:
        board, me = view.board, self.seat(view)
        turns = 6 - view.turn
        bribes: dict[str, Cube] = {}
        if not self.style.bribes:
            return bribes, budget
        offers = []
        for card, holder in view.owner.items():
            if holder is None or holder == me or not board.is_personality(card):
                continue
            sketch = Sketch.of(view)
            sketch.owner[card] = me
            value = self.swing(view, sketch, 1) + self.holding_value(view, card, me, turns)
            cost = bribe_cost(board, card, "black")
            # A rival may guard it with a white cube: count on success half the time.
            if 0.5 * value > cost * self.style.pound_vp:
                offers.append((value - cost * POUND_VP, cost, card))
        for _, cost, card in sorted(offers, reverse=True)[:2]:
            if cost <= budget:
                bribes[card] = "black"
                budget -= cost
        # Guard the best noble when rivals could afford to bribe it.
        nobles = sorted(view.owned(me, "noble"), key=lambda n: -board.nobles[n].cp)
        if nobles and board.nobles[nobles[0]].cp >= 7:
            cost = bribe_cost(board, nobles[0], "white")
            if cost <= budget and cost <= view.my_money // 4:
                bribes[nobles[0]] = "white"
                budget -= cost
        return bribes, budget

    def calais_bid(self, view: PlayerView, budget: int) -> tuple[int, str | None]:
        """Bid for Calais where its 4 CP gains the most; the award alone is worth 4 VP."""
        board, me = view.board, self.seat(view)
        calais = board.model.calais
        if not self.style.calais:
            return 0, None
        best_zone, best_value = None, float(calais.vp)
        for zone in calais.zones:
            sketch = Sketch.of(view)
            sketch.calais = (me, zone)
            value = calais.vp + self.swing(view, sketch, 1)
            if value > best_value or best_zone is None:
                best_zone, best_value = zone, value
        # Losing bids are paid too (WR-11): offer a third of the value, at most half the purse.
        share = int(best_value / self.style.calais_divisor)
        bid = min(budget, view.my_money // 2, share + self.rng.randint(0, 2))
        return (bid, best_zone) if bid > 0 else (0, None)
