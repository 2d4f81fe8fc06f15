"""A what-if copy of the game built from one player's view: the public table with each
seat's money filled in (the viewer's own, the others' inferred from the public log), on
which the engine's reveal can resolve any combination of plans."""

from __future__ import annotations

from dataclasses import replace

from roses.wotr.state import GameState, Phase, PlayerState
from roses.wotr.view import PlayerView


def table_of(view: PlayerView, money: tuple[int, ...]) -> GameState:
    """The game as ``view`` shows it during Planning, with ``money`` behind the screens.
    The deck's order is unknown and left empty: the reveal never draws. The copy is quiet
    (no log): only a search uses it."""
    players = [
        PlayerState(
            money=money[seat],
            vp=view.vp[seat],
            # Behind another planner's screen (WR-20): taken as none kept.
            mercenaries=view.mercenaries[seat] or 0,
            french_aid_used=view.french_aid_used[seat],
            house=view.houses[seat],
            vp_by_source=dict(view.vp_by_source[seat]),
        )
        for seat in range(view.players)
    ]
    return GameState(
        board=view.board,
        players=players,
        order=list(view.order),
        deck=[],
        turn=view.turn,
        phase=Phase.PLANNING,
        owner=dict(view.owner),
        noble_zone=dict(view.noble_zone),
        ship_sea=dict(view.ship_sea),
        returned=list(view.returned),
        award_holder=dict(view.award_holder),
        crowned=list(view.crowned),
        mercenary_supply=view.mercenary_supply,
        quiet=True,
    )


def seat_view(view: PlayerView, seat: int, money: tuple[int, ...]) -> PlayerView:
    """What ``seat`` would see now if ``money`` were everyone's money: the table is public,
    so only the viewer and the screens differ."""
    return replace(view, viewer=seat, money=money, my_orders=None, french_aid_offer=0)


def view_of(view: PlayerView, state: GameState, seat: int) -> PlayerView:
    """What ``seat`` would see of the what-if ``state`` during the draft (WR-7): the table
    as it now stands in ``state``, and the cards left to pick."""
    return replace(
        view,
        viewer=seat,
        owner=dict(state.owner),
        noble_zone=dict(state.noble_zone),
        layout=tuple(state.layout),
        picks=tuple(state.picks[state.pick_index :]),
        mercenaries=tuple(player.mercenaries for player in state.players),
        mercenary_supply=state.mercenary_supply,
        award_holder=dict(state.award_holder),
        my_orders=None,
    )
