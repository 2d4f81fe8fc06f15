"""Plain-text pictures of a Wars of the Roses table, drawn from one player's view."""

from __future__ import annotations

from roses.wotr.actions import Orders
from roses.wotr.state import SEAT_NAMES
from roses.wotr.text import mercenaries, pounds, troops
from roses.wotr.view import PlayerView


def seat_label(view: PlayerView, seat: int) -> str:
    house = view.houses[seat]
    return SEAT_NAMES[seat] + (f" ({house})" if house else "")


def draw_table(view: PlayerView) -> str:
    """Scores, the zones with every marker on them, and the viewer's own screen."""
    board = view.board
    lines = [f"Turn {view.turn} of 5, {view.phase.value}. Turn order: "
             + ", ".join(SEAT_NAMES[s] for s in view.order) + "."]  # fmt: skip
    for seat in view.order:
        money = view.money[seat]
        purse = "" if money is None else f", {money} pounds"
        behind = view.mercenaries[seat]
        tokens = "" if behind is None else f", {behind} mercenaries"
        aid = ", French Aid used" if view.french_aid_used[seat] else ""
        lines.append(f"  {seat_label(view, seat)}: {view.vp[seat]} VP{purse}{tokens}{aid}")
    for zone in board.zones:
        lines.append(f"{zone.id} {zone.name} ({zone.votes} votes, VP {zone.vp_first}/"
                     f"{zone.vp_second}; next to {', '.join(sorted(zone.land))})")  # fmt: skip
        for icon in board.icons.values():
            if icon.zone != zone.id or icon.kind == "ship":
                continue
            lines.append(f"    {icon.name:<22} {_owner(view, icon.id)}")
        for noble, where in view.noble_zone.items():
            if where == zone.id:
                name = f"{board.nobles[noble].name} ({board.nobles[noble].cp})"
                lines.append(f"    {name:<22} {_owner(view, noble)}")
        for ship, sea in view.ship_sea.items():
            if sea in zone.seas and view.owner[ship] is not None:
                lines.append(f"    {board.icons[ship].name:<22} {_owner(view, ship)} at {sea}")
        if view.calais is not None and view.calais[1] == zone.id:
            lines.append(f"    {'Captain of Calais':<22} {SEAT_NAMES[view.calais[0]]}")
    held = [f"{a.name}: {SEAT_NAMES[h]}" for a in board.awards
            if (h := view.award_holder.get(a.id)) is not None]  # fmt: skip
    if held:
        lines.append("Awards: " + "; ".join(held))
    lines.append("Sea zones (WR-5, a chain; ships sail up to 2): " + ", ".join(board.sea_order))
    return "\n".join(lines)


def _owner(view: PlayerView, card: str) -> str:
    holder = view.owner[card]
    return "-" if holder is None else SEAT_NAMES[holder]


def draw_layout(view: PlayerView) -> str:
    board = view.board
    rows = []
    for number, card in enumerate(view.layout, start=1):
        if card in board.mercenary_cards:
            text = f"Mercenaries ({board.mercenaries_for_turn(view.turn)} this turn)"
        elif card in board.nobles:
            noble = board.nobles[card]
            text = f"{noble.name} (noble, {noble.cp} CP, home {noble.home})"
        else:
            icon = board.icons[card]
            extra = f", income {icon.income}" if icon.income else ""
            text = f"{icon.name} ({icon.kind.replace('_', ' ')} in {icon.zone}{extra})"
        rows.append(f"  {number:>2}. {text}  [{card}]")
    return "Cards laid out:\n" + "\n".join(rows)


def describe_orders(view: PlayerView, orders: Orders) -> str:
    """The plan, its cost, the money left after deployment and, per WR-11, what a
    shortfall would cancel."""
    board = view.board
    parts = []
    if orders.calais_bid:
        parts.append(f"bid {orders.calais_bid} for Calais in {orders.calais_zone}")
    parts += [f"move {board.card_name(n)} to {z}" for n, z in orders.noble_moves.items()]
    parts += [f"sail {board.card_name(s)} to {z}" for s, z in orders.ship_moves.items()]
    parts += [f"{troops(n)} on {board.card_name(c)}" for c, n in orders.troops.items()]
    parts += [f"{mercenaries(n)} on {board.card_name(c)}" for c, n in orders.mercenaries.items()]
    parts += [f"{c} cube on {board.card_name(p)}" for p, c in orders.bribes.items()]
    preview = view.preview(orders)
    lines = [f"{'; '.join(parts) or 'nothing'}.",
             f"Cost {pounds(preview.cost)} of your {preview.money}; "
             f"{preview.left} left after deployment."]  # fmt: skip
    if preview.cancelled:
        cancelled = ", ".join(charge.text for charge in preview.cancelled)
        lines.append(f"Short by {preview.cost - preview.money}: deployment would cancel "
                     f"{cancelled} (WR-11).")  # fmt: skip
    return "\n".join(lines)
