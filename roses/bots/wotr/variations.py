"""Plans near a given one, for the search to weigh against it: another Calais bid, an
attack dropped, reinforced or added, a Location defended harder, a bribe dropped or added,
a noble kept home. A change the seat cannot pay for in full is cut back as the game would
cut it (WR-11: what the money does not cover in paying order is cancelled), so each plan
is one the seat can pay."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Final

from roses.wotr.actions import Cube, Orders
from roses.wotr.payment import payment
from roses.wotr.phases.planning import presence
from roses.wotr.view import PlayerView

TOP: Final = 5  # how many of the likeliest targets, defences and bribes to try
CALAIS_BIDS: Final = (0, 1, 2, 3, 4, 6, 8, 11)


def affordable(view: PlayerView, plan: Orders) -> Orders:
    """``plan`` less what a shortfall would cancel (WR-11)."""
    bill = payment(view, view.my_money, plan)
    if not bill.cancelled:
        return plan
    bid = next((charge.cost for charge in bill.paid if charge.kind == "calais"), 0)
    bribes: dict[str, Cube] = {}
    troops: dict[str, int] = {}
    for charge in bill.paid:
        if charge.kind in ("white", "black") and charge.card is not None:
            bribes[charge.card] = "white" if charge.kind == "white" else "black"
        elif charge.kind == "troops" and charge.card is not None:
            troops[charge.card] = charge.count
    return replace(plan, calais_bid=bid, calais_zone=plan.calais_zone if bid else None,
                   bribes=bribes, troops=troops)  # fmt: skip


def _with(counts: dict[str, int] | object, card: str, by: int) -> dict[str, int]:
    assert isinstance(counts, dict)
    changed = dict(counts)
    changed[card] = changed.get(card, 0) + by
    if changed[card] <= 0:
        del changed[card]
    return changed


def calais_bids(
    view: PlayerView, base: Orders, bids: tuple[int, ...] = CALAIS_BIDS
) -> Iterator[Orders]:
    """``base`` with each of ``bids`` for Calais, in each zone Calais may land in."""
    for bid in bids:
        if bid == 0:
            yield replace(base, calais_bid=0, calais_zone=None)
            continue
        for zone in view.board.model.calais.zones:
            yield affordable(view, replace(base, calais_bid=bid, calais_zone=zone))


def nearby_plans(view: PlayerView, base: Orders) -> Iterator[Orders]:
    """Plans for ``view``'s viewer near ``base``, each one it can pay in full."""
    assert view.viewer is not None
    board, me = view.board, view.viewer
    yield from calais_bids(view, base)
    troops = dict(base.troops)
    for location in base.troops:
        yield replace(base, troops=_with(troops, location, -troops[location]))
        yield affordable(view, replace(base, troops=_with(troops, location, 1)))
        yield affordable(view, replace(base, troops=_with(troops, location, 2)))

    def worth(card: str) -> int:
        icon = board.icons[card]
        return icon.income + icon.cp

    present = presence(view, me, base)
    targets = [card for card, icon in board.icons.items()
               if icon.is_location and view.owner[card] not in (None, me)
               and icon.zone in present and card not in base.troops]  # fmt: skip
    for card in sorted(targets, key=worth, reverse=True)[:TOP]:
        needed = board.icons[card].garrison + 1
        for extra in (0, 1):
            added = replace(base, troops=_with(troops, card, needed + extra))
            yield affordable(view, added)
    mine = [card for card in view.owned(me)
            if card in board.icons and board.icons[card].is_location]  # fmt: skip
    for card in sorted(mine, key=worth, reverse=True)[:TOP]:
        yield affordable(view, replace(base, troops=_with(troops, card, 1)))
        yield affordable(view, replace(base, troops=_with(troops, card, 2)))
    for card in base.bribes:
        yield replace(base, bribes={c: colour for c, colour in base.bribes.items() if c != card})

    def rank(card: str) -> int:
        return board.nobles[card].cp if card in board.nobles else board.icons[card].cp

    theirs = [card for card, holder in view.owner.items()
              if holder not in (None, me) and board.is_personality(card)]  # fmt: skip
    for card in sorted(theirs, key=rank, reverse=True)[:TOP]:
        if card not in base.bribes:
            yield affordable(view, replace(base, bribes={**base.bribes, card: "black"}))
    own = [card for card in view.owned(me) if board.is_personality(card)]
    for card in sorted(own, key=rank, reverse=True)[:2]:
        if card not in base.bribes:
            yield affordable(view, replace(base, bribes={**base.bribes, card: "white"}))
    if base.noble_moves:  # the attacks a move makes possible may then be refused: checked
        yield replace(base, noble_moves={})
