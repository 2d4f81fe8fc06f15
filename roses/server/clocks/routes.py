"""Claiming a win on time (``TimeoutRule.CLAIM``: two-player correspondence games), and
the server's own look for clocks run out while it runs (``timeouts.checks``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from roses.games import Outcome
from roses.games.base import TimeoutRule

from ..accounts.signed_in import CurrentUser
from ..errors import Conflict, Forbidden
from ..http.schemas import ERROR_ANSWERS, GameId
from ..i18n import _
from ..play.live_games import LiveGame
from ..play.views import game_view
from ..services import services
from .time_control import claimable, server_time
from .timeouts import lost_on_time

router = APIRouter(prefix="/api", responses=ERROR_ANSWERS)


@router.post("/games/{game_id}/claim-timeout", tags=["play"])
async def claim_timeout(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """Claim the win because an opponent's correspondence deadline has passed: the game
    ends at once and that opponent loses on time (rated games are rated as for any loss).
    Only where the game's rule lets the opponents claim (two-player correspondence games;
    a live clock ends the game by itself, and in a team or 3-4 player game a stand-in
    moves for the absent player). 409, naming the deadline, before it has passed; the
    player may also just go on waiting for the move."""

    def outcome(live: LiveGame) -> Outcome:
        seat = live.seat_of(user.id)
        if seat is None:
            raise Forbidden(_("you have no seat in this game"))
        if live.time_control is None:
            raise Conflict(_("this game has no time limit: there is nothing to claim"))
        if live.timeout_rule is not TimeoutRule.CLAIM:
            raise Conflict(
                _(
                    "in this game nobody claims a win on time: a live clock that runs out "
                    "ends the game by itself"
                )
                if live.time_control.live
                else _(
                    "in this game nobody claims a win on time: a stand-in moves for a player "
                    "whose deadline passed"
                )
            )
        now = server_time()
        late, claimers = claimable(
            live.timeout_rule, live.clocks, live.module.teams(live.players), now
        )
        if late is None:
            raise Conflict(_not_yet(live, seat))
        if seat not in claimers:
            raise Conflict(_("your own deadline has passed: only your opponent may claim the win"))
        return lost_on_time(live, late.seat)

    live = await services(request).games.finish(game_id, outcome)
    return JSONResponse(game_view(live, user.id))


def _not_yet(live: LiveGame, seat: int) -> str:
    """Why a claim comes too early: whose deadline is when."""
    waiting = [c for c in live.clocks or [] if c.deadline is not None and c.seat != seat]
    if not waiting:
        return _("no opponent's deadline is running: it is your move")
    first = min(waiting, key=lambda c: c.deadline or server_time())
    assert first.deadline is not None
    when = first.deadline.strftime("%Y-%m-%d %H:%M UTC")
    return _(
        "{seat}'s deadline has not passed yet: you may claim the win once it has, at {when}",
        seat=_(live.seats[first.seat].label),
        when=when,
    )
