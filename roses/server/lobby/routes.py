"""The lobby: the catalogue of games, creating, joining, cancelling, leaving and declining
games, my games, rematches, and the games being played now (for spectators). Games that have
not started change in one transaction followed by the usual announcement."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from roses.games import GAMES, bots_described, bots_offered

from ..accounts import quotas
from ..accounts.blocks import estranged_ids
from ..accounts.signed_in import CurrentUser
from ..clocks import time_control
from ..clocks.vacation import CAP_DAYS, DAYS_PER_YEAR
from ..db import store
from ..db.models import Game, GameStatus, User
from ..db.store import offered
from ..errors import Unprocessable
from ..http.schemas import (
    ERROR_ANSWERS,
    GameId,
    Join,
    NewGame,
    NowPlaying,
    RematchOffer,
)
from ..play import notes
from ..play.live_games import GameHeader
from ..play.service import announce_and_view, in_transaction, read_db, view_response
from ..play.views import summary
from ..services import Sessions, services
from . import creating, leaving, rematch, vacation
from .expiry import expired_first

router = APIRouter(prefix="/api", responses=ERROR_ANSWERS)


PAGE_SIZE = 30


@router.get("/catalog", tags=["lobby"])
def catalog(request: Request) -> dict[str, Any]:
    """Every game on offer: its title, player counts, options, seat names, bots and their
    strengths, and whether it has a tutorial (the pages name no game of their own)."""
    return {
        "games": [
            {
                "name": module.name,
                "title": module.title,
                "player_counts": list(module.player_counts),
                "options": [option.to_json() for option in module.option_fields],
                "seat_labels": {str(n): module.seat_labels(n, {}) for n in module.player_counts},
                "bots": {name: list(strengths) for name, strengths in bots_offered(module).items()},
                "bot_list": bots_described(module),  # weakest first, each in words
                "tutorial": module.tutorial() is not None,
            }
            for module in GAMES.values()
        ],
        "strength_seconds": services(request).settings.bot_seconds,
        "live_clocks": services(request).settings.live_clocks,
        "correspondence_days": list(time_control.CORRESPONDENCE_DAYS),
    }


@router.post(
    "/games", status_code=201, tags=["lobby"], dependencies=[Depends(quotas.new_game_allowed)]
)
async def create_game(body: NewGame, user: CurrentUser, request: Request) -> JSONResponse:
    limit = body.time_limit
    try:
        control = time_control.chosen_control(
            limit.kind, limit.clock, limit.days, services(request).settings.live_clocks
        )
    except time_control.TimeLimitError as error:
        raise Unprocessable(f"time_limit.{error.field}", str(error)) from None

    def create(db: Session) -> int:
        return creating.create_game(db, user, body, control).id

    game_id = await in_transaction(request, create)
    games = services(request).games
    await games.changed_elsewhere(game_id)
    return view_response(await games.get(game_id), user.id, 201)


@router.get("/games/mine", tags=["lobby"], dependencies=[Depends(expired_first)])
async def my_games(user: CurrentUser, sessions: Sessions) -> dict[str, Any]:
    """My turn first (waiting longest at the top), then the others; finished games last.
    Neither open games nor invitations of players I blocked or who blocked me are listed."""

    def read() -> tuple[list[Game], list[Game]]:
        with sessions() as db:
            parted = estranged_ids(db, user.id)
            mine = [game for game in store.games_of(db, user) if not _unwanted(game, user, parted)]
            return mine, [game for game in store.open_games(db, user) if not _met(game, parted)]

    mine, open_ = await asyncio.to_thread(read)
    summaries = [summary(GameHeader(game), user.id) for game in mine]
    my_turn = sorted((s for s in summaries if s["your_turn"]), key=lambda s: s["turn_since"])
    others = [s for s in summaries if not s["your_turn"] and s["status"] != GameStatus.FINISHED]
    invitations = [s for s in others if s["status"] == GameStatus.WAITING and s["you"] is None]
    return {
        "my_turn": my_turn,
        "others": [s for s in others if s not in invitations],
        "invitations": invitations,
        "finished": [s for s in summaries if s["status"] == GameStatus.FINISHED],
        "open": [summary(GameHeader(game), user.id) for game in open_],
    }


def _unwanted(game: Game, user: User, parted: set[int]) -> bool:
    """An invitation to a game not yet joined, from a player parted from ``user``."""
    joined = any(seat.user_id == user.id for seat in game.seats)
    return game.status == GameStatus.WAITING and not joined and game.created_by in parted


def _met(game: Game, people: set[int]) -> bool:
    """Whether any of ``people`` created the game or sits (or is invited) there."""
    return game.created_by in people or any(
        seat.user_id in people or seat.invited_user_id in people for seat in game.seats
    )


@router.post("/games/{game_id}/join", tags=["lobby"], dependencies=[Depends(quotas.join_allowed)])
async def join(
    game_id: GameId, user: CurrentUser, request: Request, body: Join | None = None
) -> JSONResponse:
    """Take a free seat: an open one, or one I am invited to (the body may be left out)."""
    await in_transaction(
        request, lambda db: creating.join_game(db, user, game_id, body.seat if body else None)
    )
    return await announce_and_view(request, game_id, user)


@router.post("/games/{game_id}/cancel", tags=["lobby"])
async def cancel(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """Call off a game still waiting for players (only its creator may)."""
    await in_transaction(request, lambda db: creating.cancel_game(db, user, game_id))
    return await announce_and_view(request, game_id, user)


@router.post("/games/{game_id}/leave", tags=["lobby"])
async def leave(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """Abandon a game that has not started: give up the seat I took. In a public game the
    seat becomes open to anyone; in a private game (every player invited by name) the game
    is cancelled. Its creator cancels it instead (POST .../cancel)."""
    await in_transaction(request, lambda db: leaving.leave_game(db, user, game_id))
    return await announce_and_view(request, game_id, user)


@router.post("/games/{game_id}/decline", tags=["lobby"])
async def decline(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """Decline my invitation to a game that has not started. In a public game (one with a
    seat open to anyone) the seat becomes open to anyone; in a private game (every player
    invited by name) the game is cancelled, since its creator chose the table, and may
    invite someone else in a new game."""
    await in_transaction(request, lambda db: leaving.decline_invitation(db, user, game_id))
    return await announce_and_view(request, game_id, user)


@router.get("/games/{game_id}/rematch", tags=["play"])
async def rematch_offer(game_id: GameId, user: CurrentUser, request: Request) -> RematchOffer:
    """Who has offered or accepted a rematch of this game, whom it waits for, and the new
    game (``rematch``) once everyone accepted."""
    return RematchOffer(**await read_db(request, lambda db: rematch.read(db, game_id)))


@router.post("/games/{game_id}/rematch", tags=["play"])
async def rematch_vote(game_id: GameId, user: CurrentUser, request: Request) -> RematchOffer:
    """Offer a rematch of a finished game, or accept the offer: once every player has
    (bots accept at once), a new game with the same options starts with the seats rotated
    by one (two players: swapped). Everyone watching the game is sent
    ``{"type": "rematch", "game_id": n, "rematch": <this answer>}``. The new game counts
    against the game quotas as a created one does (429 with a sentence)."""
    limiter = services(request).limiter
    vote: rematch.Vote = await in_transaction(
        request, lambda db: rematch.vote(db, limiter, user, game_id)
    )
    if vote.counted:
        games = services(request).games
        await games.changed_elsewhere(game_id)  # the vote bumped its version
        if vote.started is not None:
            await games.changed_elsewhere(vote.started)  # its players' lobbies, its bots
        note = {"type": "rematch", "game_id": game_id, "rematch": vote.offer}
        await notes.tell(services(request), game_id, note)
    return RematchOffer(**vote.offer)


@router.get("/now-playing", tags=["lobby"], dependencies=[Depends(expired_first)])
async def now_playing(
    user: CurrentUser,
    request: Request,
    page: int = Query(1, ge=1, le=10_000, description="1 for the latest games"),
) -> NowPlaying:
    """Games being played now, the latest turn first, a page at a time: their envelopes
    only (who plays, whose turn); open one to watch it as a spectator."""

    def read(db: Session) -> tuple[list[Game], int]:
        query = select(Game).where(Game.status == GameStatus.ACTIVE, offered())
        total = db.scalar(select(func.count()).select_from(query.subquery())) or 0
        rows = db.scalars(
            query.order_by(Game.turn_since.desc(), Game.id.desc())
            .offset((page - 1) * PAGE_SIZE)
            .limit(PAGE_SIZE)
        )
        return list(rows), total

    games, total = await read_db(request, read)
    return NowPlaying(
        games=[summary(GameHeader(game), user.id) for game in games],
        page=page,
        pages=max(1, -(-total // PAGE_SIZE)),
    )


# -- vacations ------------------------------------------------------------------------------


class VacationRequest(BaseModel):
    days: int = Field(description="whole days, 1 to 30, at most the days available")


class VacationOut(BaseModel):
    available_days: int = Field(description="whole vacation days that may be taken now")
    max_days: int = Field(description="the longest vacation")
    days_per_year: int = Field(description="the allowance accrues this many days a year")
    cap_days: int = Field(description="and never beyond this many")
    started_at: str | None = Field(description="the vacation under way: since (ISO 8601, UTC)")
    until: str | None = Field(description="and until; None: not on vacation now")


def _vacation_out(state: vacation.VacationState) -> VacationOut:
    return VacationOut(
        available_days=state.available_days,
        max_days=state.max_days,
        days_per_year=DAYS_PER_YEAR,
        cap_days=CAP_DAYS,
        started_at=None if state.started_at is None else state.started_at.isoformat(),
        until=None if state.until is None else state.until.isoformat(),
    )


@router.get("/vacation", tags=["vacation"], response_model=VacationOut)
async def my_vacation(user: CurrentUser, request: Request) -> VacationOut:
    """My vacation days available now, and my vacation under way, if any."""
    now = services(request).now()
    return _vacation_out(await read_db(request, lambda db: vacation.state_of(db, user, now)))


@router.post("/vacation", tags=["vacation"], response_model=VacationOut)
async def take_vacation(body: VacationRequest, user: CurrentUser, request: Request) -> VacationOut:
    """Go on vacation for ``days`` from now: the clocks of my correspondence games pause
    (opponents see it) and the vacation ends by itself. Refused while I play a live game."""
    app = services(request)
    now = app.now()
    state, games = await in_transaction(
        request, lambda db: vacation.start(db, user, body.days, now)
    )
    await vacation.apply(app.games, user.id, games, now, state.until)
    return _vacation_out(state)


@router.delete("/vacation", tags=["vacation"], response_model=VacationOut)
async def end_vacation(user: CurrentUser, request: Request) -> VacationOut:
    """Come back early: my clocks run again and the days not taken come back."""
    app = services(request)
    now = app.now()
    state, games = await in_transaction(request, lambda db: vacation.end(db, user, now))
    await vacation.apply(app.games, user.id, games, now, None)
    return _vacation_out(state)
