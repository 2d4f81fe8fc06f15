"""Phase 4: planning (WR-10). Orders are checked when submitted; a plan may cost more than
the player's money, and then deployment's shortfall order decides what is bought (WR-11).
"""

from __future__ import annotations

from ..actions import Orders
from ..data import BoardData
from ..errors import IllegalActionError
from ..state import BRIBE_CUBES, Table
from ..text import Value, pounds

MAX_SHIP_MOVE = 2  # WR-5


def bribe_cost(board: BoardData, card: str, colour: str) -> int:
    """WR-10: a black cube costs 2 x the noble's CP or the bishop's or ship's income; white 1 x."""
    base = board.nobles[card].cp if card in board.nobles else board.icons[card].income
    return base * (2 if colour == "black" else 1)


def ship_destinations(board: BoardData, sea: str) -> list[str]:
    """WR-5: the sea zones a ship in ``sea`` may sail to (up to 2 along the chain)."""
    return [
        other for other in board.sea_order if 0 < board.sea_distance(sea, other) <= MAX_SHIP_MOVE
    ]


def presence(table: Table, seat: int, orders: Orders) -> set[str]:
    """WR-10: zones where ``seat`` may attack: an own Location, bishop or noble there, or a
    noble moving this turn (present in both zones). Ships never give presence."""
    board = table.board
    zones = {
        board.icons[card].zone
        for card, holder in table.owner.items()
        if holder == seat and card in board.icons and board.icons[card].kind != "ship"
    }
    zones |= {zone for noble, zone in table.noble_zone.items() if table.owner[noble] == seat}
    zones |= {zone for noble, zone in orders.noble_moves.items() if table.owner.get(noble) == seat}
    return zones


def presence_if_captain(table: Table, seat: int, orders: Orders) -> set[str]:
    """WR-10/WR-11: where ``seat`` may order an attack: ``presence`` and the zone of its own
    Calais bid, since the Captain's cylinder lands there before troops are placed. An attack
    that only the Captain makes possible is cancelled at deployment, at no cost, if another
    player wins Calais (``deployment.attacks_without_presence``)."""
    zones = presence(table, seat, orders)
    if orders.calais_bid > 0 and orders.calais_zone in table.board.model.calais.zones:
        zones.add(orders.calais_zone)
    return zones


def check_orders(
    table: Table, seat: int, money: int, mercenaries: int, orders: Orders
) -> list[IllegalActionError]:
    """Every fault in ``orders`` for ``seat`` (empty when they are legal), each naming its
    field, e.g. ``troops.windsor``."""
    board = table.board
    faults: list[IllegalActionError] = []

    def bad(field: str, message: str, **params: Value) -> None:
        faults.append(IllegalActionError(field, message, **params))

    calais = board.model.calais
    if orders.calais_bid < 0:
        bad("calais.bid", "must not be negative")
    elif orders.calais_bid > money:
        bad(
            "calais.bid",
            "bids {bid} but you have {money}",
            bid=orders.calais_bid,
            money=pounds(money),
        )
    if orders.calais_bid and orders.calais_zone not in calais.zones:
        names = tuple(board.zone[zone].name for zone in calais.zones)
        bad("calais.zone", "must be one of {zones} (WR-10)", zones=names)

    for noble, zone in orders.noble_moves.items():
        field = f"noble_moves.{noble}"
        if noble not in board.nobles:
            bad(field, "no such noble")
        elif table.owner[noble] != seat:
            bad(field, "{name} is not yours", name=board.nobles[noble].name)
        elif zone not in board.zone:
            bad(field, "no such zone '{zone}'", zone=zone)
        elif zone == table.noble_zone[noble]:
            zone_name = board.zone[zone].name
            bad(field, "{name} is already in {zone}", name=board.nobles[noble].name, zone=zone_name)
        elif zone not in board.zone[table.noble_zone[noble]].land:
            bad(
                field,
                "{zone} is not adjacent to {home} (WR-5)",
                zone=board.zone[zone].name,
                home=board.zone[table.noble_zone[noble]].name,
            )

    for ship, sea in orders.ship_moves.items():
        field = f"ship_moves.{ship}"
        if ship not in board.icons or board.icons[ship].kind != "ship":
            bad(field, "no such ship")
        elif table.owner[ship] != seat:
            bad(field, "{name} is not yours", name=board.icons[ship].name)
        elif sea not in board.sea_zone:
            bad(field, "no such sea zone '{sea}'", sea=sea)
        elif sea == table.ship_sea[ship]:
            ship_name = board.icons[ship].name
            bad(field, "{name} is already in {sea}", name=ship_name, sea=board.sea_name(sea))
        elif board.sea_distance(sea, table.ship_sea[ship]) > MAX_SHIP_MOVE:
            bad(
                field,
                "{sea} is more than {most} sea zones away (WR-5)",
                sea=board.sea_name(sea),
                most=MAX_SHIP_MOVE,
            )

    present = presence_if_captain(table, seat, orders)
    for group in ("troops", "mercenaries"):
        placed: dict[str, int] = getattr(orders, group)
        for location, count in placed.items():
            field = f"{group}.{location}"
            if location not in board.icons or not board.icons[location].is_location:
                bad(field, "is not a Location (troops go on castles, towns and ports)")
            elif count < 1:
                bad(field, "{count}: place at least 1 or leave it out", count=count)
            elif table.owner[location] is None:
                bad(field, "is neutral and cannot be attacked (WR-10)")
            elif table.owner[location] != seat and board.icons[location].zone not in present:
                zone = board.zone[board.icons[location].zone].name
                bad(field, "you are not present in {zone} to attack it (WR-10)", zone=zone)
    limits = board.model.troops
    if sum(orders.troops.values()) > limits.per_player:
        bad(
            "troops",
            "{count} troops, more than {most}",
            count=sum(orders.troops.values()),
            most=limits.per_player,
        )
    if sum(orders.mercenaries.values()) > mercenaries:
        bad(
            "mercenaries",
            "{count} placed, you hold {held}",
            count=sum(orders.mercenaries.values()),
            held=mercenaries,
        )

    for card, colour in orders.bribes.items():
        field = f"bribes.{card}"
        if not board.is_personality(card):
            bad(field, "is not a Personality (nobles, bishops, ships)")
        elif table.owner[card] is None:
            bad(field, "belongs to nobody and cannot be bribed")
        elif colour == "white" and table.owner[card] != seat:
            bad(field, "a white cube goes only on your own Personality")
        elif colour == "black" and table.owner[card] == seat:
            bad(field, "a black cube goes only on an opponent's Personality")
    for colour in ("white", "black"):
        used = sum(1 for c in orders.bribes.values() if c == colour)
        if used > BRIBE_CUBES:
            bad(
                "bribes",
                "{count} {colour} cubes, you have {held}",
                count=used,
                colour=colour,
                held=BRIBE_CUBES,
            )
    return faults
