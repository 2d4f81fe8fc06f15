"""Phase 5: deployment (WR-11): the plans are revealed and paid for, pieces move and troops
are placed."""

from __future__ import annotations

from ..actions import Orders
from ..data import CHART_ORDER, BoardData
from ..state import GameState
from .planning import bribe_cost


def _personality_priority(state: GameState, card: str) -> tuple[int, int, int, str]:
    """WR-11: chart order (nobles first, ships last), nobles by rank, then the zone's votes
    (a noble's home zone; a ship's present zone)."""
    board = state.board
    if card in board.nobles:
        noble = board.nobles[card]
        return CHART_ORDER.index("noble"), -noble.cp, -board.zone[noble.home].votes, card
    icon = board.icons[card]
    zone = board.sea_zone[state.ship_sea[card]] if icon.kind == "ship" else icon.zone
    return CHART_ORDER.index(icon.kind), 0, -board.zone[zone].votes, card


def _location_priority(board: BoardData, location: str) -> tuple[int, int, str]:
    icon = board.icons[location]
    return CHART_ORDER.index(icon.kind), -board.zone[icon.zone].votes, location


def award_calais(state: GameState) -> None:
    """WR-11: every bid is paid to the bank; the highest wins, ties by turn order, and the
    tile goes to the zone bid on for this turn."""
    best: tuple[int, int, str] | None = None
    for seat in state.order:
        orders = state.revealed[seat]
        if orders.calais_bid <= 0:
            continue
        state.players[seat].money -= orders.calais_bid
        state.note(f"{state.name(seat)} bids {orders.calais_bid} for Calais.")
        if best is None or orders.calais_bid > best[1]:
            best = (seat, orders.calais_bid, orders.calais_zone or "")
    if best is not None:
        state.calais = (best[0], best[2])
        state.note(f"{state.name(best[0])} is Captain of Calais, landing in {best[2]}.")


def pay(state: GameState, seat: int, orders: Orders) -> dict[str, int]:
    """WR-11: pay white cubes, then black cubes, then troops, each by chart order and votes;
    what the player cannot afford is cancelled. Returns the troops bought per Location."""
    board = state.board
    player = state.players[seat]
    cancelled: list[str] = []
    for colour in ("white", "black"):
        cubes = [card for card, c in orders.bribes.items() if c == colour]
        for card in sorted(cubes, key=lambda card: _personality_priority(state, card)):
            cost = bribe_cost(board, card, colour)
            if cost > player.money:
                cancelled.append(f"{colour} cube on {board.card_name(card)}")
                continue
            player.money -= cost
            if colour == "white":
                state.white_cubes.add(card)
            else:
                state.black_cubes.setdefault(seat, []).append(card)
    bought: dict[str, int] = {}
    unit = board.model.troops.cost
    for location in sorted(orders.troops, key=lambda loc: _location_priority(board, loc)):
        wanted = orders.troops[location]
        count = min(wanted, player.money // unit)
        player.money -= count * unit
        if count:
            bought[location] = count
        if count < wanted:
            cancelled.append(f"{wanted - count} troops on {board.card_name(location)}")
    if cancelled:
        state.note(f"{state.name(seat)} is short of money; cancelled: {', '.join(cancelled)}.")
    return bought


def move_pieces(state: GameState, seat: int, orders: Orders) -> None:
    """WR-11: nobles and ships move (orders were checked on submission, WR-10)."""
    for noble, zone in sorted(orders.noble_moves.items()):
        state.noble_zone[noble] = zone
        state.note(f"{state.name(seat)} moves {state.board.nobles[noble].name} to {zone}.")
    for ship, sea in sorted(orders.ship_moves.items()):
        state.ship_sea[ship] = sea
        state.note(f"{state.name(seat)} sails {state.board.icons[ship].name} to {sea}.")


def deploy(state: GameState) -> None:
    """WR-11: reveal, Calais, then in reverse turn order pay, move and place troops."""
    state.revealed, state.orders = state.orders, {}
    award_calais(state)
    for seat in reversed(state.order):
        orders = state.revealed[seat]
        bought = pay(state, seat, orders)
        move_pieces(state, seat, orders)
        player = state.players[seat]
        for location in sorted(set(bought) | set(orders.mercenaries)):
            mercenaries = orders.mercenaries.get(location, 0)
            player.mercenaries -= mercenaries
            state.mercenaries_placed += mercenaries
            count = bought.get(location, 0) + mercenaries
            if state.owner[location] == seat:
                state.defence[location] = count
                role = "defend"
            else:
                state.attacks.setdefault(location, {})[seat] = count
                role = "attack"
            name = state.board.card_name(location)
            state.note(f"{state.name(seat)} places {count} troops to {role} {name}.")
