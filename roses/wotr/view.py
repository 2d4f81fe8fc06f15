"""What one player may know (WR-20): the table, the public log and their own screen.

During Planning each player's Planning chart is behind their screen, and with it what lies
on the chart: their plan, their money and their mercenary tokens (WR-4, WR-8); once the plans
are revealed the screens are put aside until the next Planning, so money and mercenaries
are public then.
Sealed orders stay hidden until every player has sealed. The deck's order is never shown
(only its size). Bots and clients only ever get a ``PlayerView``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .actions import Orders
from .data import BoardData
from .errors import IllegalActionError
from .payment import Charge, payment, plan_cost
from .phases.ending import Outcome
from .phases.planning import bribe_cost, check_orders, presence, ship_destinations
from .state import SEAT_NAMES, Event, Phase

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class Preview:
    """A plan as its planner would see it before sealing: its price, the money left after
    deployment pays for it and, per WR-11, what a shortfall cancels (in paying order)."""

    cost: int
    money: int
    left: int
    paid: tuple[Charge, ...]
    cancelled: tuple[Charge, ...]
    faults: tuple[IllegalActionError, ...]
    # Locations attacked on the strength of the plan's Calais bid alone: their troops are
    # placed (and paid for) only if the bid wins (WR-11); the rest is as shown.
    if_captain: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "cost": self.cost,
            "money": self.money,
            "left": self.left,
            "short": max(0, self.cost - self.money),
            "paid": [charge.to_json() for charge in self.paid],
            "cancelled": [charge.to_json() for charge in self.cancelled],
            "faults": [fault.to_json() for fault in self.faults],
            "if_captain": list(self.if_captain),
        }


@dataclass(frozen=True)
class PlayerView:
    board: BoardData
    viewer: int | None  # None for a spectator
    players: int
    turn: int
    phase: Phase
    order: tuple[int, ...]
    houses: tuple[str | None, ...]
    vp: tuple[int, ...]
    vp_by_source: tuple[Mapping[str, int], ...]
    money: tuple[int | None, ...]  # None: behind another player's screen (WR-20)
    mercenaries: tuple[int | None, ...]  # None: behind another player's screen (WR-20)
    french_aid_used: tuple[bool, ...]
    owner: Mapping[str, int | None]
    noble_zone: Mapping[str, str]
    ship_sea: Mapping[str, str]
    layout: tuple[str, ...]
    returned: tuple[str, ...]  # face up on the deck
    deck_size: int
    picks: tuple[int, ...]  # who takes the cards still to be taken this draft, next first
    awaiting: tuple[int, ...]
    sealed: tuple[int, ...]  # who has handed in orders this turn (not what)
    my_orders: Orders | None  # the viewer's own sealed orders
    revealed: Mapping[int, Orders]  # this turn's orders, once revealed
    troops_placed: Mapping[str, Mapping[int, int]]  # the last reveal's, per Location and seat
    troops_after_combat: Mapping[str, Mapping[int, int]]
    french_aid_offer: int  # to the viewer, now
    calais: tuple[int, str] | None
    revealed_calais: tuple[int, str] | None  # the last reveal's Captain of Calais (WR-11)
    award_holder: Mapping[str, int | None]
    crowned: tuple[str | None, ...]
    mercenary_supply: int
    log: tuple[Event, ...]
    outcome: Outcome | None

    @classmethod
    def of(cls, game: Game, viewer: int | None) -> PlayerView:
        state = game.state
        players = state.players
        screens_up = state.phase is Phase.PLANNING  # WR-20
        return cls(
            board=state.board,
            viewer=viewer,
            players=state.player_count,
            turn=state.turn,
            phase=state.phase,
            order=tuple(state.order),
            houses=tuple(p.house for p in players),
            vp=tuple(p.vp for p in players),
            vp_by_source=tuple(dict(p.vp_by_source) for p in players),
            money=tuple(
                None if screens_up and seat != viewer else p.money for seat, p in enumerate(players)
            ),
            mercenaries=tuple(
                None if screens_up and seat != viewer else p.mercenaries
                for seat, p in enumerate(players)
            ),
            french_aid_used=tuple(p.french_aid_used for p in players),
            owner=dict(state.owner),
            noble_zone=dict(state.noble_zone),
            ship_sea=dict(state.ship_sea),
            layout=tuple(state.layout),
            returned=tuple(state.returned),
            deck_size=len(state.deck),
            picks=tuple(state.picks[state.pick_index :]) if state.phase is Phase.DRAW else (),
            awaiting=game.awaiting(),
            sealed=tuple(sorted(state.orders)),
            my_orders=state.orders.get(viewer) if viewer is not None else None,
            revealed=dict(state.revealed),
            troops_placed={loc: dict(by) for loc, by in state.troops_placed.items()},
            troops_after_combat={loc: dict(by) for loc, by in state.troops_after_combat.items()},
            french_aid_offer=game.french_aid_offer(viewer) if viewer is not None else 0,
            calais=state.calais,
            revealed_calais=state.revealed_calais,
            award_holder=dict(state.award_holder),
            crowned=tuple(state.crowned),
            mercenary_supply=state.mercenary_supply,
            log=tuple(state.log),
            outcome=game.outcome(),
        )

    @property
    def player_count(self) -> int:
        return self.players

    @property
    def my_money(self) -> int:
        money = None if self.viewer is None else self.money[self.viewer]
        return money or 0

    @property
    def my_mercenaries(self) -> int:
        held = None if self.viewer is None else self.mercenaries[self.viewer]
        return held or 0

    @property
    def can_unseal(self) -> bool:
        """Whether the viewer may take back their sealed plan (``Unseal``, WR-10)."""
        return self.phase is Phase.PLANNING and self.my_orders is not None

    def owned(self, seat: int, kind: str | None = None) -> list[str]:
        cards = [card for card, holder in self.owner.items() if holder == seat]
        return [c for c in cards if kind is None or self.board.card_kind(c) == kind]

    def check(self, orders: Orders) -> list[IllegalActionError]:
        """The faults the game would find in the viewer's ``orders`` (WR-10)."""
        if self.viewer is None:
            return [IllegalActionError("seat", "a spectator gives no orders")]
        return check_orders(self, self.viewer, self.my_money, self.my_mercenaries, orders)

    def cost(self, orders: Orders) -> int:
        return plan_cost(self, orders)

    def preview(self, orders: Orders) -> Preview:
        """What ``orders`` would cost the viewer and what deployment would pay and cancel
        (WR-11), with the faults the game would refuse them for (WR-10)."""
        bill = payment(self, self.my_money, orders)
        return Preview(bill.cost, bill.money, bill.left, bill.paid, bill.cancelled,
                       tuple(self.check(orders)), self._if_captain(orders))  # fmt: skip

    def _if_captain(self, orders: Orders) -> tuple[str, ...]:
        if self.viewer is None:
            return ()
        present = presence(self, self.viewer, orders)
        board = self.board
        return tuple(
            location for location in board.icons
            if (location in orders.troops or location in orders.mercenaries)
            and self.owner.get(location) not in (None, self.viewer)
            and board.icons[location].zone not in present
            and board.icons[location].zone == orders.calais_zone and orders.calais_bid > 0
        )  # fmt: skip

    def planning_options(self) -> dict[str, Any] | None:
        """For the viewer's planning form: where each of their nobles and ships may go
        (WR-5), the zones where they are present before any move (WR-10) and the price of
        a troop and of a cube on each Personality that may carry one."""
        if self.viewer is None or self.phase is not Phase.PLANNING:
            return None
        board, me = self.board, self.viewer
        ships = {ship: ship_destinations(board, self.ship_sea[ship])
                 for ship in self.owned(me, "ship")}  # fmt: skip
        cubes: dict[str, dict[str, int]] = {"white": {}, "black": {}}
        for card, holder in self.owner.items():
            if holder is not None and board.is_personality(card):
                colour = "white" if holder == me else "black"
                cubes[colour][card] = bribe_cost(board, card, colour)
        return {
            "noble_moves": {
                noble: sorted(board.zone[self.noble_zone[noble]].land)
                for noble in self.owned(me, "noble")
            },
            "ship_moves": ships,
            "present": sorted(presence(self, me, Orders())),
            "calais_zones": list(board.model.calais.zones),
            "troop_cost": board.model.troops.cost,
            "troops_max": board.model.troops.per_player,
            "cube_costs": cubes,
        }

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description holding everything a client needs to draw the table
        and act, and nothing this viewer may not know (WR-20). Seats are numbers in
        ``owner``, ``calais`` and ``award_holder`` and names elsewhere (``seats`` maps
        one to the other); the board and its map are ``board.to_json()``."""
        names = [SEAT_NAMES[s] for s in range(self.players)]
        mine = self.my_orders
        return {
            "viewer": None if self.viewer is None else SEAT_NAMES[self.viewer],
            "seats": names,
            "turn": self.turn,
            "phase": self.phase.value,
            "order": [SEAT_NAMES[s] for s in self.order],
            "houses": list(self.houses),
            "vp": list(self.vp),
            "vp_by_source": [dict(sources) for sources in self.vp_by_source],
            "money": list(self.money),
            "mercenaries": list(self.mercenaries),
            "french_aid_used": list(self.french_aid_used),
            "owner": {card: holder for card, holder in self.owner.items() if holder is not None},
            "noble_zone": dict(self.noble_zone),
            "ship_sea": dict(self.ship_sea),
            "layout": list(self.layout),
            "returned": list(self.returned),
            "deck_size": self.deck_size,
            "picks": [SEAT_NAMES[s] for s in self.picks],
            "awaiting": [SEAT_NAMES[s] for s in self.awaiting],
            "sealed": [SEAT_NAMES[s] for s in self.sealed],
            "my_orders": None if mine is None else mine.to_json()["orders"],
            "my_preview": None if mine is None else self.preview(mine).to_json(),
            "can_unseal": self.can_unseal,
            "planning_options": self.planning_options(),
            "revealed": {SEAT_NAMES[s]: o.to_json()["orders"] for s, o in self.revealed.items()},
            "troops_placed": _troops_json(self.troops_placed),
            "troops_after_combat": _troops_json(self.troops_after_combat),
            "french_aid_offer": self.french_aid_offer,
            "calais": list(self.calais) if self.calais else None,
            "revealed_calais": list(self.revealed_calais) if self.revealed_calais else None,
            "award_holder": dict(self.award_holder),
            "crowned": list(self.crowned),
            "mercenary_supply": self.mercenary_supply,
            "log": [{"n": n, **event.to_json()} for n, event in enumerate(self.log)],
            "outcome": None
            if self.outcome is None
            else {**self.outcome.to_json(), "standings": self.outcome.standings()},
        }


def _troops_json(troops: Mapping[str, Mapping[int, int]]) -> dict[str, dict[str, int]]:
    return {loc: {SEAT_NAMES[s]: n for s, n in by.items()} for loc, by in troops.items()}
