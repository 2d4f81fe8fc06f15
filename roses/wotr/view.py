"""What one player may know (WR-20): the table, the public log and their own screen.

Other players' money and sealed orders stay behind their screens, and the deck's order is
never shown (only its size). Bots and clients only ever get a ``PlayerView``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .actions import Orders
from .data import BoardData
from .errors import IllegalActionError
from .phases.planning import check_orders, orders_cost
from .state import SEAT_NAMES, Event, Phase

if TYPE_CHECKING:
    from .game import Game


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
    mercenaries: tuple[int, ...]
    french_aid_used: tuple[bool, ...]
    owner: Mapping[str, int | None]
    noble_zone: Mapping[str, str]
    ship_sea: Mapping[str, str]
    layout: tuple[str, ...]
    returned: tuple[str, ...]  # face up on the deck
    deck_size: int
    awaiting: tuple[int, ...]
    sealed: tuple[int, ...]  # who has handed in orders this turn (not what)
    my_orders: Orders | None  # the viewer's own sealed orders
    revealed: Mapping[int, Orders]  # this turn's orders, once revealed
    french_aid_offer: int  # to the viewer, now
    calais: tuple[int, str] | None
    award_holder: Mapping[str, int | None]
    crowned: tuple[str | None, ...]
    mercenary_supply: int
    log: tuple[Event, ...]

    @classmethod
    def of(cls, game: Game, viewer: int | None) -> PlayerView:
        state = game.state
        players = state.players
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
            money=tuple(p.money if seat == viewer else None for seat, p in enumerate(players)),
            mercenaries=tuple(p.mercenaries for p in players),
            french_aid_used=tuple(p.french_aid_used for p in players),
            owner=dict(state.owner),
            noble_zone=dict(state.noble_zone),
            ship_sea=dict(state.ship_sea),
            layout=tuple(state.layout),
            returned=tuple(state.returned),
            deck_size=len(state.deck),
            awaiting=game.awaiting(),
            sealed=tuple(sorted(state.orders)),
            my_orders=state.orders.get(viewer) if viewer is not None else None,
            revealed=dict(state.revealed),
            french_aid_offer=game.french_aid_offer(viewer) if viewer is not None else 0,
            calais=state.calais,
            award_holder=dict(state.award_holder),
            crowned=tuple(state.crowned),
            mercenary_supply=state.mercenary_supply,
            log=tuple(state.log),
        )

    @property
    def player_count(self) -> int:
        return self.players

    @property
    def my_money(self) -> int:
        money = None if self.viewer is None else self.money[self.viewer]
        return money or 0

    def owned(self, seat: int, kind: str | None = None) -> list[str]:
        cards = [card for card, holder in self.owner.items() if holder == seat]
        return [c for c in cards if kind is None or self.board.card_kind(c) == kind]

    def check(self, orders: Orders) -> list[IllegalActionError]:
        """The faults the game would find in the viewer's ``orders`` (WR-10)."""
        if self.viewer is None:
            return [IllegalActionError("seat", "a spectator gives no orders")]
        return check_orders(self, self.viewer, self.my_money, self.mercenaries[self.viewer], orders)

    def cost(self, orders: Orders) -> int:
        return orders_cost(self.board, orders)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description; holds nothing this viewer may not know."""
        return {
            "viewer": None if self.viewer is None else SEAT_NAMES[self.viewer],
            "turn": self.turn,
            "phase": self.phase.value,
            "order": [SEAT_NAMES[s] for s in self.order],
            "houses": list(self.houses),
            "vp": list(self.vp),
            "money": list(self.money),
            "mercenaries": list(self.mercenaries),
            "french_aid_used": list(self.french_aid_used),
            "owner": {card: holder for card, holder in self.owner.items() if holder is not None},
            "noble_zone": dict(self.noble_zone),
            "ship_sea": dict(self.ship_sea),
            "layout": list(self.layout),
            "returned": list(self.returned),
            "deck_size": self.deck_size,
            "awaiting": [SEAT_NAMES[s] for s in self.awaiting],
            "sealed": [SEAT_NAMES[s] for s in self.sealed],
            "my_orders": None if self.my_orders is None else self.my_orders.to_json()["orders"],
            "revealed": {SEAT_NAMES[s]: o.to_json()["orders"] for s, o in self.revealed.items()},
            "calais": list(self.calais) if self.calais else None,
            "award_holder": dict(self.award_holder),
            "crowned": list(self.crowned),
            "log": [event.text for event in self.log],
        }
