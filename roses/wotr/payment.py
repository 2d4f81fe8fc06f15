"""WR-11: what a plan costs and, when its player is short of money, what is paid and what
is cancelled. Deployment pays with it and a planner's preview shows it, so both agree.

Paying order: the Calais bid, white cubes, black cubes, troops; within each, by the chart
order of WR-3 (nobles by rank), then by the zone's votes, higher first. A ship counts for
the zone of the sea it is in when deployment begins (what the planner saw). Troops are
bought one at a time, so a Location may get some of the troops ordered for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .actions import Orders
from .data import CHART_ORDER, BoardData
from .phases.planning import bribe_cost
from .state import Table
from .text import Phrase, counted, phrase

ChargeKind = Literal["calais", "white", "black", "troops"]


@dataclass(frozen=True)
class Charge:
    """One thing a plan pays for: a Calais bid, a cube on a Personality or troops on a
    Location (``count`` troops; 1 otherwise)."""

    kind: ChargeKind
    card: str | None  # None for the Calais bid
    name: str  # the card's name, or the zone bid on
    count: int
    cost: int

    @property
    def phrase(self) -> Phrase:
        """What it is, for people (a shortfall cancels it): deployment's log and the
        planning form's preview (the server answers each saved draft with it) say it."""
        if self.kind == "calais":
            return phrase("the bid of {bid} for Calais in {zone}", bid=self.cost, zone=self.name)
        if self.kind == "troops":
            return counted("{n} troop on {place}", "{n} troops on {place}", self.count,
                           place=self.name)  # fmt: skip
        if self.kind == "white":
            return phrase("the white cube on {name}", name=self.name)
        return phrase("the black cube on {name}", name=self.name)

    @property
    def text(self) -> str:
        return str(self.phrase)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "card": self.card, "name": self.name, "count": self.count,
                "cost": self.cost, "phrase": self.phrase.to_json()}  # fmt: skip


@dataclass(frozen=True)
class Payment:
    money: int  # before paying
    paid: tuple[Charge, ...]
    cancelled: tuple[Charge, ...]

    @property
    def cost(self) -> int:
        """The whole plan's price, cancelled parts included."""
        return self.spent + sum(charge.cost for charge in self.cancelled)

    @property
    def spent(self) -> int:
        return sum(charge.cost for charge in self.paid)

    @property
    def left(self) -> int:
        return self.money - self.spent


def _personality_priority(table: Table, card: str) -> tuple[int, int, int, str]:
    """WR-11: chart order (nobles first, ships last), nobles by rank, then the zone's votes
    (a noble's home zone; a ship's present zone)."""
    board = table.board
    if card in board.nobles:
        noble = board.nobles[card]
        return CHART_ORDER.index("noble"), -noble.cp, -board.zone[noble.home].votes, card
    icon = board.icons[card]
    zone = board.sea_zone[table.ship_sea[card]] if icon.kind == "ship" else icon.zone
    return CHART_ORDER.index(icon.kind), 0, -board.zone[zone].votes, card


def _location_priority(board: BoardData, location: str) -> tuple[int, int, str]:
    icon = board.icons[location]
    return CHART_ORDER.index(icon.kind), -board.zone[icon.zone].votes, location


def charges(table: Table, orders: Orders) -> list[Charge]:
    """Every priced part of a plan, in WR-11's paying order. Parts that name no card of the
    right kind are left out (the order check reports them)."""
    board = table.board
    found: list[Charge] = []
    if orders.calais_bid > 0:
        zone = orders.calais_zone or ""
        found.append(Charge("calais", None, zone, 1, orders.calais_bid))
    cube_kinds: tuple[ChargeKind, ...] = ("white", "black")
    for colour in cube_kinds:
        cubes = [card for card, c in orders.bribes.items()
                 if c == colour and board.is_personality(card)]  # fmt: skip
        for card in sorted(cubes, key=lambda card: _personality_priority(table, card)):
            cost = bribe_cost(board, card, colour)
            found.append(Charge(colour, card, board.card_name(card), 1, cost))
    unit = board.model.troops.cost
    locations = [loc for loc, n in orders.troops.items()
                 if n > 0 and loc in board.icons and board.icons[loc].is_location]  # fmt: skip
    for location in sorted(locations, key=lambda loc: _location_priority(board, loc)):
        wanted = orders.troops[location]
        found.append(Charge("troops", location, board.card_name(location), wanted, wanted * unit))
    return found


def plan_cost(table: Table, orders: Orders) -> int:
    """The full price of a plan: the Calais bid, every cube and every troop."""
    return sum(charge.cost for charge in charges(table, orders))


def payment(table: Table, money: int, orders: Orders) -> Payment:
    """WR-11: pay in order what the money allows; cancel the rest."""
    paid: list[Charge] = []
    cancelled: list[Charge] = []
    for charge in charges(table, orders):
        if charge.kind == "troops":
            unit = charge.cost // charge.count
            bought = min(charge.count, money // unit)
            if bought:
                paid.append(Charge("troops", charge.card, charge.name, bought, bought * unit))
                money -= bought * unit
            if bought < charge.count:
                short = charge.count - bought
                cancelled.append(Charge("troops", charge.card, charge.name, short, short * unit))
        elif charge.cost <= money:
            paid.append(charge)
            money -= charge.cost
        else:
            cancelled.append(charge)
    start = money + sum(charge.cost for charge in paid)
    return Payment(start, tuple(paid), tuple(cancelled))
