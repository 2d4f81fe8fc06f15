"""The games API, for every game in ``roses.games``. Each action goes through the game's
writer (``LiveGames``): one at a time, one transaction, then live updates."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session

from roses.games import GAMES, JSON, bots_offered

from ..clocks import time_control
from ..db import store
from ..db.models import Game, User
from ..db.store import FINISHED, WAITING
from ..errors import Conflict, Forbidden, Unprocessable
from ..http import quotas
from ..http.deps import CurrentUser, Sessions, settings_of
from ..http.schemas import (
    ERROR_ANSWERS,
    DraftRequest,
    GameId,
    Join,
    MoveRequest,
    NewGame,
    Versioned,
)
from ..i18n import _
from ..lobby.expiry import expired_first
from .live_games import GameHeader, LiveGame, LiveGames
from .views import game_view, summary

router = APIRouter(prefix="/api", responses=ERROR_ANSWERS)


def _games(request: Request) -> LiveGames:
    return request.app.state.games  # type: ignore[no-any-return]


# -- the catalogue --------------------------------------------------------------------------


@router.get("/catalog", tags=["lobby"])
def catalog(request: Request) -> dict[str, Any]:
    """Every game on offer: player counts, options, seat names, bots and their strengths."""
    return {
        "games": [
            {
                "name": module.name,
                "title": module.title,
                "player_counts": list(module.player_counts),
                "options": [option.to_json() for option in module.option_fields],
                "seat_labels": {str(n): module.seat_labels(n, {}) for n in module.player_counts},
                "bots": {name: list(strengths) for name, strengths in bots_offered(module).items()},
            }
            for module in GAMES.values()
        ],
        "strength_seconds": settings_of(request).bot_seconds,
        "live_clocks": settings_of(request).live_clocks,
        "correspondence_days": list(time_control.CORRESPONDENCE_DAYS),
    }


# -- the lobby ------------------------------------------------------------------------------


@router.post(
    "/games", status_code=201, tags=["lobby"], dependencies=[Depends(quotas.new_game_allowed)]
)
async def create_game(body: NewGame, user: CurrentUser, request: Request) -> JSONResponse:
    limit = body.time_limit
    try:
        control = time_control.chosen_control(
            limit.kind, limit.clock, limit.days, settings_of(request).live_clocks
        )
    except time_control.TimeLimitError as error:
        raise Unprocessable(f"time_limit.{error.field}", str(error)) from None

    def create(db: Session) -> int:
        return store.create_game(db, user, body, control).id

    game_id = await _in_transaction(request, create)
    games = _games(request)
    await games.changed_elsewhere(game_id)
    return _view_response(await games.get(game_id), user.id, 201)


@router.get("/games/mine", tags=["lobby"], dependencies=[Depends(expired_first)])
async def my_games(user: CurrentUser, sessions: Sessions) -> dict[str, Any]:
    """My turn first (waiting longest at the top), then the others; finished games last."""

    def read() -> tuple[list[Game], list[Game]]:
        with sessions() as db:
            return store.games_of(db, user), store.open_games(db, user)

    mine, open_ = await asyncio.to_thread(read)
    summaries = [summary(GameHeader(game), user.id) for game in mine]
    my_turn = sorted((s for s in summaries if s["your_turn"]), key=lambda s: s["turn_since"])
    others = [s for s in summaries if not s["your_turn"] and s["status"] != FINISHED]
    invitations = [s for s in others if s["status"] == WAITING and s["you"] is None]
    return {
        "my_turn": my_turn,
        "others": [s for s in others if s not in invitations],
        "invitations": invitations,
        "finished": [s for s in summaries if s["status"] == FINISHED],
        "open": [summary(GameHeader(game), user.id) for game in open_],
    }


@router.post("/games/{game_id}/join", tags=["lobby"], dependencies=[Depends(quotas.join_allowed)])
async def join(
    game_id: GameId, user: CurrentUser, request: Request, body: Join | None = None
) -> JSONResponse:
    """Take a free seat: an open one, or one I am invited to (the body may be left out)."""
    await _in_transaction(
        request, lambda db: store.join_game(db, user, game_id, body.seat if body else None)
    )
    return await _announce_and_view(request, game_id, user)


@router.post("/games/{game_id}/cancel", tags=["lobby"])
async def cancel(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """Call off a game still waiting for players (only its creator may)."""
    await _in_transaction(request, lambda db: store.cancel_game(db, user, game_id))
    return await _announce_and_view(request, game_id, user)


async def _in_transaction(request: Request, change: Callable[[Session], Any]) -> Any:
    def run() -> Any:
        with request.app.state.sessions.begin() as db:
            return change(db)

    return await asyncio.to_thread(run)


async def _announce_and_view(request: Request, game_id: int, user: User) -> JSONResponse:
    """After a change made outside the game's writer: read it again, tell the watchers."""
    games = _games(request)
    await games.changed_elsewhere(game_id)
    return _view_response(await games.get(game_id), user.id)


def _view_response(live: LiveGame, user_id: int, status: int = 200) -> JSONResponse:
    # Views are JSON-ready already: answer them without FastAPI's generic encoding pass.
    return JSONResponse(game_view(live, user_id), status_code=status)


# -- playing --------------------------------------------------------------------------------


@router.get("/games/{game_id}", tags=["play"])
async def get_game(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """The game as my seat sees it (a spectator's view if I have no seat)."""
    return _view_response(await _games(request).get(game_id), user.id)


@router.get("/games/{game_id}/materials", tags=["play"])
async def materials(game_id: GameId, user: CurrentUser, request: Request) -> dict[str, Any]:
    """The public components the page draws with (a map, card texts); they never change."""
    live = await _games(request).get(game_id)
    return live.module.materials(live.players, live.options)


async def _act(
    request: Request, user: User, game_id: int, action: JSON, version: int
) -> JSONResponse:
    def my_seat(live: LiveGame) -> int:
        seat = live.seat_of(user.id)
        if seat is None:
            raise Forbidden(_("you have no seat in this game"))
        return seat

    live = await _games(request).act(game_id, my_seat, action, version)
    return _view_response(live, user.id)


@router.post("/games/{game_id}/moves", tags=["play"])
async def move(
    game_id: GameId, body: MoveRequest, user: CurrentUser, request: Request
) -> JSONResponse:
    """Make my seat's decision: The Rose King a card (`N2`), a hero with a card (`N2h`) or
    `draw` (RK-8..RK-10, RK-22); Wars of the Roses an object (a pick, French Aid, orders).

    409 with the reason for an illegal action or a stale `version`; nothing changes then.
    """
    return await _act(request, user, game_id, body.move, body.version)


@router.post("/games/{game_id}/undo", tags=["play"])
async def undo(
    game_id: GameId, body: Versioned, user: CurrentUser, request: Request
) -> JSONResponse:
    """Take back the play made this turn (The Rose King Light games, RK-19; never a draw)."""
    return await _act(request, user, game_id, "undo", body.version)


@router.post("/games/{game_id}/end-turn", tags=["play"])
async def end_turn(
    game_id: GameId, body: Versioned, user: CurrentUser, request: Request
) -> JSONResponse:
    """Make the play of this turn final (The Rose King Light games, RK-19)."""
    return await _act(request, user, game_id, "end-turn", body.version)


@router.put("/games/{game_id}/draft", status_code=204, tags=["play"])
async def save_draft(
    game_id: GameId, body: DraftRequest, user: CurrentUser, request: Request
) -> Response:
    """Keep my seat's private draft (e.g. a plan not yet sealed). Nobody else ever sees it,
    nor when or how often it changes: it does not change the game's version."""
    size = len(json.dumps(body.draft))
    if size > settings_of(request).draft_bytes:
        raise Unprocessable(
            "draft",
            _(
                "the draft is {size} bytes; at most {most} are kept",
                size=size,
                most=settings_of(request).draft_bytes,
            ),
        )
    await _games(request).save_draft(game_id, user.id, body.draft)
    return Response(status_code=204)


@router.get("/games/{game_id}/replay", tags=["play"])
async def replay(game_id: GameId, user: CurrentUser, request: Request) -> dict[str, Any]:
    """Every state of the game action by action, as my seat may see each (all, once over)."""
    live = await _games(request).get(game_id)
    seat = None if live.status == FINISHED else live.seat_of(user.id)
    return {"game": summary(live, user.id), "frames": live.module.replay(live.played(), seat)}


@router.get("/games/{game_id}/record", tags=["play"])
async def record(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """The game record (the engine's format, with the deal): only once the game is over."""
    live = await _games(request).get(game_id)
    if live.status != FINISHED:
        raise Conflict(_("the record holds the deal's secrets: it is ready when the game is over"))
    names = [seat.player or f"bot:{seat.bot}" for seat in live.seats]
    return JSONResponse(
        live.module.record(live.played(), names),
        headers={
            "Content-Disposition": f'attachment; filename="{live.module.name}-{game_id}.json"'
        },
    )
