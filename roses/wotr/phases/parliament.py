"""Phase 8: Parliament: zone VP (WR-14), the King (WR-15), then awards and bonuses."""

from __future__ import annotations

from typing import Final

from ..chart import Holdings
from ..state import LANCASTER, YORK, GameState, Table
from .awards import score_awards, score_bonuses

KING_VP: Final = 5


def zone_holdings(state: Table, zone_id: str) -> dict[int, Holdings]:
    """WR-14: each player's CP in a zone: its Locations and bishop, the nobles now in it,
    the ships in its sea zones (home ports included) and Calais if it landed there."""
    board = state.board
    zone = board.zone[zone_id]
    held = {seat: Holdings() for seat in range(state.player_count)}
    for card, icon in board.icons.items():
        holder = state.owner[card]
        if holder is None:
            continue
        if icon.kind == "ship":
            if state.ship_sea[card] in zone.seas:
                held[holder].add_icon("ship", icon.cp)
        elif icon.zone == zone_id:
            held[holder].add_icon(icon.kind, icon.cp)
    for noble, where in state.noble_zone.items():
        holder = state.owner[noble]
        if where == zone_id and holder is not None:
            held[holder].add_noble(board.nobles[noble].cp)
    if state.calais is not None and state.calais[1] == zone_id:
        held[state.calais[0]].add_noble(board.model.calais.cp)
    return held


def ranking(state: Table, held: dict[int, Holdings]) -> list[int]:
    """WR-14: players with CP in the zone, most first; ties by WR-3, then turn order."""
    in_turn_order = [seat for seat in state.order if held[seat].cp > 0]
    # A reversed stable sort keeps fully tied players in turn order.
    return sorted(in_turn_order, key=lambda s: (held[s].cp, held[s].priority()), reverse=True)


def score_zones(state: GameState) -> None:
    """WR-14: zone by zone in WR-1 order, the first and second most CP score the zone's VP."""
    for zone in state.board.zones:
        order = ranking(state, zone_holdings(state, zone.id))
        for seat, vp in zip(order, (zone.vp_first, zone.vp_second), strict=False):
            state.score(seat, "zones", vp, "{zone}: {seat} scores {vp} VP.", zone=zone.name)


def house_zone_winner(state: GameState, held: dict[int, Holdings]) -> str | None:
    """WR-15: the two Lancastrians' CP against the two Yorkists' (ties by WR-3, then the
    house of the player first in turn order); None when nobody is present."""
    totals = {house: Holdings() for house in (LANCASTER, YORK)}
    for seat, holdings in held.items():
        house = state.players[seat].house
        if house is not None:
            totals[house] = totals[house].merge(holdings)
    lancaster, york = totals[LANCASTER], totals[YORK]
    if lancaster.cp == york.cp == 0:
        return None
    keys = {house: (t.cp, t.priority()) for house, t in totals.items()}
    if keys[LANCASTER] != keys[YORK]:
        return LANCASTER if keys[LANCASTER] > keys[YORK] else YORK
    first = next(seat for seat in state.order if held[seat].cp > 0)
    return state.players[first].house


def crown_king(state: GameState) -> None:
    """WR-15 (4 players): the house with more votes crowns its heir; each of its players
    scores 5 VP. The rulebook says nothing of ties; the project's decision
    (docs/wotr-rules-decisions.md): 0 to 0 crowns nobody and pays nothing; any other tie
    keeps the house crowned last, or Lancaster, the reigning house in 1450, if none yet."""
    votes = {LANCASTER: 0, YORK: 0}
    for zone in state.board.zones:
        winner = house_zone_winner(state, zone_holdings(state, zone.id))
        if winner is not None:
            votes[winner] += zone.votes
    if votes[LANCASTER] == votes[YORK] == 0:
        state.crowned.append(None)
        state.note("Votes: Lancaster 0, York 0; nobody is present anywhere, and nobody is crowned.")
        return
    if votes[LANCASTER] != votes[YORK]:
        king = LANCASTER if votes[LANCASTER] > votes[YORK] else YORK
    else:
        king = next((h for h in reversed(state.crowned) if h is not None), LANCASTER)
    state.crowned.append(king)
    state.note(
        "Votes: Lancaster {lancaster}, York {york}; {king} is crowned.",
        lancaster=votes[LANCASTER],
        york=votes[YORK],
        king=king,
    )
    for seat, player in enumerate(state.players):
        if player.house == king:
            state.score(
                seat,
                "king",
                KING_VP,
                "The King: {seat} scores {vp} VP for the house of {king}.",
                king=king,
            )


def hold_parliament(state: GameState) -> None:
    score_zones(state)
    if state.player_count == 4:  # WR-19: no King with 2 or 3 players
        crown_king(state)
    score_awards(state)
    score_bonuses(state)
