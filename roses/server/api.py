"""The HTTP API. Each action is one transaction; live updates follow via ``live``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, BackgroundTasks, Request
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session, sessionmaker

from roses.bots.roseking import available_bots

from . import games, live
from .deps import CurrentUser, Sessions, settings_of
from .errors import Conflict
from .games import FINISHED, LoadedGame
from .models import User
from .schemas import GameId, Join, MoveRequest, NewGame, Versioned
from .views import game_record, game_view, replay_frames, summary_fields

router = APIRouter(prefix="/api")


# -- lobby ---------------------------------------------------------------------------------


@router.get("/bots", tags=["lobby"])
def bots(request: Request) -> dict[str, Any]:
    """The bots a seat can be given, and their strengths (thinking time per move)."""
    return {"bots": available_bots(), "strengths": list(settings_of(request).bot_seconds)}


@router.post("/games", status_code=201, tags=["lobby"])
def create_game(
    body: NewGame, user: CurrentUser, request: Request, sessions: Sessions, tasks: BackgroundTasks
) -> dict[str, Any]:
    strengths = list(settings_of(request).bot_seconds)
    with sessions.begin() as db:
        game = games.create_game(db, user, body, strengths)
        game_id = game.id
    tasks.add_task(live.announce, request.app, game_id)
    return _view(sessions, game_id, user)


@router.get("/games/mine", tags=["lobby"])
def my_games(user: CurrentUser, sessions: Sessions) -> dict[str, Any]:
    """My turn first (waiting longest at the top), then the others; finished games last."""
    with sessions() as db:
        mine = games.games_of(db, user)
        summaries = [summary_fields(game, user.id) for game in mine]
        open_ = [summary_fields(game, user.id) for game in games.open_games(db, user)]
    my_turn = sorted((s for s in summaries if s["your_turn"]), key=lambda s: s["turn_since"])
    others = [s for s in summaries if not s["your_turn"] and s["status"] != FINISHED]
    finished = [s for s in summaries if s["status"] == FINISHED]
    invitations = [s for s in others if s["status"] == games.WAITING and s["you"] is None]
    return {
        "my_turn": my_turn,
        "others": [s for s in others if s not in invitations],
        "invitations": invitations,
        "finished": finished,
        "open": open_,
    }


@router.post("/games/{game_id}/join", tags=["lobby"])
def join(
    game_id: GameId,
    user: CurrentUser,
    request: Request,
    sessions: Sessions,
    tasks: BackgroundTasks,
    body: Join | None = None,
) -> dict[str, Any]:
    """Take a free seat: an open one, or one I am invited to (the body may be left out)."""
    with sessions.begin() as db:
        games.join_game(db, user, game_id, body.seat if body else None)
    tasks.add_task(live.announce, request.app, game_id)
    return _view(sessions, game_id, user)


@router.post("/games/{game_id}/cancel", tags=["lobby"])
def cancel(
    game_id: GameId, user: CurrentUser, request: Request, sessions: Sessions, tasks: BackgroundTasks
) -> dict[str, Any]:
    """Call off a game still waiting for players (only its creator may)."""
    with sessions.begin() as db:
        games.cancel_game(db, user, game_id)
    tasks.add_task(live.announce, request.app, game_id)
    return _view(sessions, game_id, user)


# -- play ----------------------------------------------------------------------------------


def _view(sessions: sessionmaker[Session], game_id: GameId, user: User) -> dict[str, Any]:
    with sessions() as db:
        return game_view(games.load(db, game_id), user.id)


@router.get("/games/{game_id}", tags=["play"])
def get_game(game_id: GameId, user: CurrentUser, sessions: Sessions) -> dict[str, Any]:
    """The game as my seat sees it (a spectator's view if I have no seat)."""
    return _view(sessions, game_id, user)


def _change(
    sessions: Sessions,
    user: CurrentUser,
    request: Request,
    tasks: BackgroundTasks,
    game_id: int,
    change: Callable[[Session], LoadedGame],
) -> dict[str, Any]:
    """Apply ``change`` in one transaction, answer with my view, tell the watchers."""
    with sessions.begin() as db:
        view = game_view(change(db), user.id)
    tasks.add_task(live.announce, request.app, game_id)
    return view


@router.post("/games/{game_id}/moves", tags=["play"])
def move(
    game_id: GameId,
    body: MoveRequest,
    user: CurrentUser,
    request: Request,
    sessions: Sessions,
    tasks: BackgroundTasks,
) -> dict[str, Any]:
    """Play a card (`N2`), a hero with a card (`N2h`) or `draw` (RK-8..RK-10, RK-22).

    409 with the reason for an illegal move or a stale `version`; nothing changes then.
    """
    return _change(
        sessions, user, request, tasks, game_id,
        lambda db: games.play(db, user, game_id, body.move, body.version),
    )  # fmt: skip


@router.post("/games/{game_id}/undo", tags=["play"])
def undo(
    game_id: GameId,
    body: Versioned,
    user: CurrentUser,
    request: Request,
    sessions: Sessions,
    tasks: BackgroundTasks,
) -> dict[str, Any]:
    """Light games (RK-19): take back the play made this turn (never a draw)."""
    return _change(
        sessions, user, request, tasks, game_id,
        lambda db: games.undo(db, user, game_id, body.version),
    )  # fmt: skip


@router.post("/games/{game_id}/end-turn", tags=["play"])
def end_turn(
    game_id: GameId,
    body: Versioned,
    user: CurrentUser,
    request: Request,
    sessions: Sessions,
    tasks: BackgroundTasks,
) -> dict[str, Any]:
    """Light games (RK-19): make the play of this turn final."""
    return _change(
        sessions, user, request, tasks, game_id,
        lambda db: games.end_turn(db, user, game_id, body.version),
    )  # fmt: skip


@router.get("/games/{game_id}/replay", tags=["play"])
def replay(game_id: GameId, user: CurrentUser, sessions: Sessions) -> dict[str, Any]:
    """Every state of the game move by move, as my seat may see each (all, once finished)."""
    with sessions() as db:
        loaded = games.load(db, game_id)
        return {
            "game": summary_fields(loaded.game, user.id),
            "frames": replay_frames(loaded, user.id),
        }


@router.get("/games/{game_id}/record", tags=["play"])
def record(game_id: GameId, user: CurrentUser, sessions: Sessions) -> JSONResponse:
    """The game record (engine format, with the deal): only once the game is over."""
    with sessions() as db:
        loaded = games.load(db, game_id)
        if loaded.game.status != FINISHED:
            raise Conflict(
                "the record holds the draw pile's order: it is ready when the game is over"
            )
        data = game_record(loaded)
    return JSONResponse(
        data,
        headers={"Content-Disposition": f'attachment; filename="rose-king-{game_id}.json"'},
    )
