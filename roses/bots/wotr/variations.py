"""Plans near a given one, for the search to weigh against it: another Calais bid, an
attack dropped, reinforced or added, a Location defended harder, a bribe dropped or added.
Only plans the seat can pay in full are made (a shortfall cancels what the planner meant
to keep, WR-11)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from roses.wotr.actions import Orders
from roses.wotr.payment import plan_cost
from roses.wotr.phases.planning import presence
from roses.wotr.view import PlayerView

TOP: int = 4  # how many of the likeliest targets, defences and bribes to try


def _changed(counts: dict[str, int], card: str, by: int) -> dict[str, int]:
    changed = dict(counts)
    changed[card] = changed.get(card, 0) + by
    if changed[card] <= 0:
        del changed[card]
    return changed


def nearby_plans(view: PlayerView, base: Orders) -> Iterator[Orders]:
    """Plans for ``view``'s viewer near ``base``, each costing at most its money."""
    assert view.viewer is not None
    board, me, money = view.board, view.viewer, view.my_money
    found: list[Orders] = []

    def offer(plan: Orders) -> None:
        if plan != base and plan not in found and plan_cost(view, plan) <= money:
            found.append(plan)

    for bid in (0, 2, 4, 7, money // 2):
        for zone in board.model.calais.zones:
            if bid == 0:
                offer(replace(base, calais_bid=0, calais_zone=None))
            else:
                offer(replace(base, calais_bid=bid, calais_zone=zone))
    for location in base.troops:
        offer(replace(base, troops=_changed(dict(base.troops), location, -base.troops[location])))
        offer(replace(base, troops=_changed(dict(base.troops), location, 1)))
        offer(replace(base, troops=_changed(dict(base.troops), location, 2)))
    present = presence(view, me, base)

    def worth(card: str) -> int:
        icon = board.icons[card]
        return icon.income + icon.cp

    targets = [card for card, icon in board.icons.items()
               if icon.is_location and view.owner[card] not in (None, me)
               and icon.zone in present and card not in base.troops]  # fmt: skip
    for card in sorted(targets, key=worth, reverse=True)[:TOP]:
        needed = board.icons[card].garrison + 1
        offer(replace(base, troops=_changed(dict(base.troops), card, needed)))
    mine = [
        card for card in view.owned(me) if card in board.icons and board.icons[card].is_location
    ]
    for card in sorted(mine, key=worth, reverse=True)[:TOP]:
        offer(replace(base, troops=_changed(dict(base.troops), card, 1)))
        offer(replace(base, troops=_changed(dict(base.troops), card, 2)))
    for card in base.bribes:
        offer(replace(base, bribes={c: colour for c, colour in base.bribes.items() if c != card}))

    def rank(card: str) -> int:
        return board.nobles[card].cp if card in board.nobles else board.icons[card].cp

    theirs = [card for card, holder in view.owner.items()
              if holder not in (None, me) and board.is_personality(card)]  # fmt: skip
    for card in sorted(theirs, key=rank, reverse=True)[:TOP]:
        offer(replace(base, bribes={**base.bribes, card: "black"}))
    own = [card for card in view.owned(me) if board.is_personality(card)]
    for card in sorted(own, key=rank, reverse=True)[:2]:
        offer(replace(base, bribes={**base.bribes, card: "white"}))
    yield from found
