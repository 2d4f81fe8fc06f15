"""Game analysis for people: each decision judged by the game's own analysis
(``roses.games.base.Analysable``), run in worker processes, kept in the database.

Who may see it: anyone signed in once the game is over. While a rated game runs, nobody: the
server cannot tell a spectator from a player's second account or friend, and a rating must
not reward engine help. While a casual game runs, everyone, its players included: nothing
rated is at stake, and refusing a player would only send them to a second account (a guest
is one click), so both sides get the same help openly. Each decision is judged from what its
seat knew when making it, so an analysis of a running game reveals nothing its moves did not;
a game whose seats know what the others do not (``analyses_running_games`` false: Wars of
the Roses' money behind the screens) is analysed by nobody until it is over.

A position a player sets up (or takes from a game: "analyse from here") is analysed the
same way, at once, from the view of its seat to move; closed to anyone playing a rated
game, since the position could be that game's.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy import select

from roses.games import JSON, InvalidInput, game_module
from roses.games.base import Analysable, analysable, position_analysable

from ..accounts.signed_in import CurrentUser
from ..db.models import Game, GameStatus, Seat, User
from ..errors import Conflict, Forbidden, NotFound, ServiceError, Unprocessable, as_sentence
from ..http.schemas import ERROR_ANSWERS, GameId
from ..i18n import N_, _, game_error
from ..play.live_games import LiveGame, LiveGames
from ..play.views import summary
from ..services import services
from ..workers.analysis_runner import stored_results
from ..workers.bot_pool import BotFailed

router = APIRouter(prefix="/api", responses=ERROR_ANSWERS, tags=["analysis"])
GameName = Annotated[str, Path(min_length=1, max_length=24, description="e.g. roseking")]


class Analysis(BaseModel):
    """A game's analysis as far as it has gone."""

    game: dict[str, Any] = Field(description="the game's envelope (who plays, its status)")
    decisions: list[dict[str, Any] | None] = Field(
        description="each decision made so far, in order: the game's analysis of it, or "
        "null while it is not analysed yet (The Rose King: ply, seat, team, move, judgement, "
        "win_before, win_after, best_move, red_win_before, red_win_after, exact, depth; Wars "
        "of the Roses, one per revealed plan: turn, seat, vp_before, made, search, same, "
        "iterations, candidates)"
    )
    running: bool = Field(description="whether the analysis is being made now (poll again)")
    problem: str | None = Field(description="why the last analysis stopped short, if it did")
    seconds: float = Field(description="the search time per decision")


def _analyses_of(live: LiveGame) -> Analysable:
    analyses = analysable(live.module)
    if analyses is None:
        raise NotFound(
            _("there is no analysis for this game: {title} has none", title=_(live.module.title))
        )
    return analyses


def _check_allowed(live: LiveGame, user: User, rated: bool, analyses: Analysable) -> None:
    """``Forbidden`` for everyone while a rated game runs, or any game of a module that
    analyses only finished ones (the module's docstring says why); ``Conflict`` before it
    starts."""
    if live.status == GameStatus.FINISHED:
        return
    if live.status != GameStatus.ACTIVE:
        raise Conflict(_("game {game} was never played: there is nothing to analyse", game=live.id))
    if rated and live.seat_of(user.id) is not None:
        raise Forbidden(
            _("you play in this rated game: its analysis opens to you once the game is over")
        )
    if not analyses.analyses_running_games:
        raise Forbidden(
            _(
                "game {game} is still being played: {title} is analysed only once the game is over",
                game=live.id,
                title=_(live.module.title),
            )
        )
    if rated:
        raise Forbidden(
            _(
                "game {game} is rated and still being played: its analysis opens to everyone "
                "once it is over",
                game=live.id,
            )
        )


async def _inputs(games: LiveGames, live: LiveGame, analyses: Analysable) -> list[Any]:
    """The decisions made so far, read under the game's lock (never a move being written)."""
    locked = await games.locked(live.id)
    try:
        return analyses.analysis_inputs(locked.state)
    finally:
        locked.lock.release()


async def _analysis(request: Request, game_id: int, user: User, start: bool) -> JSONResponse:
    games, runner = services(request).games, services(request).analyses
    live = await games.get(game_id)
    analyses = _analyses_of(live)
    sessions = services(request).sessions

    def read() -> tuple[bool, dict[int, JSON]]:
        with sessions() as db:
            game = db.get(Game, game_id)
            rated = bool(game is not None and game.rated)
        return rated, stored_results(sessions, game_id)

    rated, results = await asyncio.to_thread(read)
    _check_allowed(live, user, rated, analyses)
    inputs = await _inputs(games, live, analyses)
    missing = [number for number in range(len(inputs)) if number not in results]
    if start and missing and not runner.running(game_id):
        services(request).limiter.hit(
            "analyses_per_account", str(user.id), N_("you have asked for many analyses lately")
        )
        runner.start(game_id, live.module.name, inputs, set(results))
    body = Analysis(
        game=summary(live, user.id),
        decisions=[results.get(number) for number in range(len(inputs))],
        running=runner.running(game_id),
        problem=as_sentence(_(problem)) if (problem := runner.problems.get(game_id)) else None,
        seconds=runner.seconds,
    )
    return JSONResponse(body.model_dump(), status_code=202 if start and body.running else 200)


@router.get("/games/{game_id}/analysis", response_model=Analysis)
async def get_analysis(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """The game's analysis as far as it has gone (nothing is started: see POST).

    404 for a game with no analysis; 403 for a player during their own rated game."""
    return await _analysis(request, game_id, user, start=False)


@router.post(
    "/games/{game_id}/analysis",
    response_model=Analysis,
    status_code=202,
    responses={200: {"description": "nothing is left to analyse", "model": Analysis}},
)
async def start_analysis(game_id: GameId, user: CurrentUser, request: Request) -> JSONResponse:
    """Analyse the decisions not analysed yet (202, poll GET for progress); 200 if there are
    none. A fresh analysis counts against the account's rate limit; a cached one is free."""
    return await _analysis(request, game_id, user, start=True)


# -- a position set up by a player ----------------------------------------------------------


class Unavailable(ServiceError):
    """503: the analysis could not be made now (it overran its time or failed)."""

    status = 503


class PositionRequest(BaseModel):
    position: Any = Field(
        description="the position in the game's own form (The Rose King: an RK-23 position, "
        "or a JSON view as GET /api/games/{id} sends it, or its state)"
    )


class PositionAnalysis(BaseModel):
    game: str
    seconds: float = Field(description="the search time it was given")
    analysis: dict[str, Any] = Field(
        description="The Rose King: turn, team, moves (every legal move of the seat to move "
        "with its win probability, best first), depth, exact, nodes"
    )


def _plays_rated(sessions: Any, user: User) -> bool:
    with sessions() as db:
        query = select(Seat.game_id).join(Game, Game.id == Seat.game_id)
        query = query.where(Seat.user_id == user.id, Game.status == GameStatus.ACTIVE, Game.rated)
        return db.scalars(query.limit(1)).first() is not None


@router.post(
    "/analysis/{game}/position",
    response_model=PositionAnalysis,
    responses={503: {"description": "the analysis could not be made now; try again"}},
)
async def analyse_position(
    game: GameName, body: PositionRequest, user: CurrentUser, request: Request
) -> PositionAnalysis:
    """A position set up by a player, analysed from the view of its seat to move (never the
    order of a pile). Closed (403) while the account plays a rated game; 422 for a position
    that is not one."""
    try:
        module = game_module(game)
    except InvalidInput as error:
        raise NotFound(game_error(error)) from None
    analyses = position_analysable(module)
    if analyses is None:
        raise NotFound(_("there is no position analysis for {title}", title=_(module.title)))
    try:
        position = analyses.position_input(body.position)
    except InvalidInput as error:
        raise Unprocessable("position", game_error(error)) from None
    if await asyncio.to_thread(_plays_rated, services(request).sessions, user):
        raise Forbidden(_("you are playing a rated game: analysis opens to you once it is over"))
    services(request).limiter.hit(
        "position_analyses_per_account",
        str(user.id),
        N_("you have asked for many position analyses lately"),
    )
    runner = services(request).analyses
    try:
        result = await runner.analyse_position(module.name, position)
    except TimeoutError:
        raise Unavailable(_("the analysis took too long and was stopped: try again")) from None
    except BotFailed:
        raise Unavailable(_("the analysis failed: try again later")) from None
    return PositionAnalysis(game=module.name, seconds=runner.position_seconds, analysis=result)
