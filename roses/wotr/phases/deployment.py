"""Phase 5: deployment (WR-11): the plans are revealed and paid for, pieces move and troops
are placed."""

from __future__ import annotations

from ..actions import Orders
from ..payment import Payment, payment
from ..state import GameState
from ..text import Value, troops_and_mercenaries


def award_calais(state: GameState, payments: dict[int, Payment]) -> None:
    """WR-11: every bid is paid to the bank; the highest wins, ties by turn order, and the
    tile goes to the zone bid on for this turn."""
    best: tuple[int, int, str] | None = None
    for seat in state.order:
        bid = next((c for c in payments[seat].paid if c.kind == "calais"), None)
        if bid is None:
            continue
        state.note("{seat} bids {cost} for Calais.", seat=state.name(seat), cost=bid.cost)
        if best is None or bid.cost > best[1]:
            best = (seat, bid.cost, bid.name)
    if best is not None:
        state.calais = (best[0], best[2])
        state.note(
            "{seat} is Captain of Calais, landing in {zone}.",
            seat=state.name(best[0]),
            zone=state.board.zone[best[2]].name,
        )


def pay(state: GameState, seat: int, bill: Payment) -> dict[str, int]:
    """WR-11: the player pays what they can (``payment`` decides it) and the cubes go on the
    Personalities; returns the troops bought per Location."""
    state.players[seat].money -= bill.spent
    bought: dict[str, int] = {}
    for charge in bill.paid:
        if charge.kind == "white":
            state.white_cubes.add(charge.card or "")
        elif charge.kind == "black":
            state.black_cubes.setdefault(seat, []).append(charge.card or "")
        elif charge.kind == "troops":
            bought[charge.card or ""] = charge.count
    if bill.cancelled:
        state.note(
            "{seat} is short of money; cancelled: {cancelled}.",
            seat=state.name(seat),
            cancelled=tuple(charge.phrase for charge in bill.cancelled),
        )
    return bought


def move_pieces(state: GameState, seat: int, orders: Orders) -> None:
    """WR-11: nobles and ships move (orders were checked on submission, WR-10)."""
    for noble, zone in sorted(orders.noble_moves.items()):
        state.noble_zone[noble] = zone
        state.note(
            "{seat} moves {noble} to {zone}.",
            seat=state.name(seat),
            noble=state.board.nobles[noble].name,
            zone=state.board.zone[zone].name,
        )
    for ship, sea in sorted(orders.ship_moves.items()):
        state.ship_sea[ship] = sea
        state.note(
            "{seat} sails {ship} to {sea}.",
            seat=state.name(seat),
            ship=state.board.icons[ship].name,
            sea=sea,
        )


def deploy(state: GameState) -> None:
    """WR-11: reveal, Calais, then in reverse turn order pay, move and place troops. What
    each player pays is settled on the table as it stands when the plans are revealed."""
    state.revealed, state.orders = state.orders, {}
    payments = {
        seat: payment(state, state.players[seat].money, orders)
        for seat, orders in state.revealed.items()
    }
    award_calais(state, payments)
    for seat in reversed(state.order):
        orders = state.revealed[seat]
        bought = pay(state, seat, payments[seat])
        move_pieces(state, seat, orders)
        player = state.players[seat]
        for location in sorted(set(bought) | set(orders.mercenaries)):
            mercenaries = orders.mercenaries.get(location, 0)
            player.mercenaries -= mercenaries
            state.mercenaries_placed += mercenaries
            troops = bought.get(location, 0)
            placed: dict[str, Value] = {
                "seat": state.name(seat),
                "placed": troops_and_mercenaries(troops, mercenaries),
                "name": state.board.card_name(location),
            }
            if state.owner[location] == seat:
                state.defence[location] = troops + mercenaries
                state.note("{seat} places {placed} to defend {name}.", **placed)
            else:
                state.attacks.setdefault(location, {})[seat] = troops + mercenaries
                state.note("{seat} places {placed} to attack {name}.", **placed)
