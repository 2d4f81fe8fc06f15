"""Phase 5: deployment (WR-11): the plans are revealed and paid for, pieces move and troops
are placed."""

from __future__ import annotations

from dataclasses import replace

from ..actions import Orders
from ..payment import Payment, payment
from ..state import GameState
from ..text import Value, troops_and_mercenaries
from .planning import presence


def award_calais(state: GameState) -> None:
    """WR-11: every bid is paid to the bank (a bid never exceeds its bidder's money, WR-10,
    so it is always paid, first); the highest wins, ties by turn order, and the tile goes
    to the zone bid on for this turn."""
    best: tuple[int, int, str] | None = None
    for seat in state.order:
        orders = state.revealed[seat]
        if orders.calais_bid <= 0:
            continue
        state.note("{seat} bids {cost} for Calais.", seat=state.name(seat), cost=orders.calais_bid)
        if best is None or orders.calais_bid > best[1]:
            best = (seat, orders.calais_bid, orders.calais_zone or "")
    if best is not None:
        state.calais = (best[0], best[2])
        state.note(
            "{seat} is Captain of Calais, landing in {zone}.",
            seat=state.name(best[0]),
            zone=state.board.zone[best[2]].name,
        )


def without_absent_attacks(state: GameState, seat: int, orders: Orders) -> Orders:
    """WR-10/WR-11: presence is judged when the troops are placed, after the Captain of
    Calais has landed ("era presente ... durante la fase di Collocamento, quando sono state
    disposte le Truppe"). An attack ordered on the strength of a Calais bid that another
    player won is an illegal order: it is cancelled and costs nothing."""
    present = presence(state, seat, orders)
    if state.calais is not None and state.calais[0] == seat:
        present.add(state.calais[1])
    board = state.board

    def allowed(location: str) -> bool:
        holder = state.owner.get(location)
        return holder in (seat, None) or board.icons[location].zone in present

    absent = sorted(
        {loc for loc in (*orders.troops, *orders.mercenaries) if not allowed(loc)},
        key=list(board.icons).index,
    )
    if not absent:
        return orders
    state.note(
        "{seat} is not present to attack {names}: cancelled at no cost.",
        seat=state.name(seat),
        names=tuple(board.card_name(location) for location in absent),
    )
    return replace(
        orders,
        troops={loc: n for loc, n in orders.troops.items() if loc not in absent},
        mercenaries={loc: n for loc, n in orders.mercenaries.items() if loc not in absent},
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
            sea=state.board.sea_name(sea),
        )


def deploy(state: GameState) -> None:
    """WR-11: reveal, Calais, then in reverse turn order pay, move and place troops. What
    each player pays is settled on the table as it stands when the plans are revealed and
    the Captain of Calais has landed. The troops placed are kept (``troops_placed``) until
    the next reveal, for everyone to see."""
    state.revealed, state.orders = state.orders, {}
    state.troops_placed, state.troops_after_combat = {}, {}
    award_calais(state)
    allowed = {seat: without_absent_attacks(state, seat, state.revealed[seat])
               for seat in state.order}  # fmt: skip
    payments = {
        seat: payment(state, state.players[seat].money, orders) for seat, orders in allowed.items()
    }
    for seat in reversed(state.order):
        orders = allowed[seat]
        bought = pay(state, seat, payments[seat])
        move_pieces(state, seat, orders)
        player = state.players[seat]
        for location in sorted(set(bought) | set(orders.mercenaries)):
            mercenaries = orders.mercenaries.get(location, 0)
            player.mercenaries -= mercenaries
            state.mercenaries_placed += mercenaries
            troops = bought.get(location, 0)
            state.troops_placed.setdefault(location, {})[seat] = troops + mercenaries
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
