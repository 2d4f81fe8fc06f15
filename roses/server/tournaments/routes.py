"""Tournaments over HTTP: the list, creating one (its organiser), one tournament with its
pairings and standings, entering and withdrawing, and the pages. The server starts rounds
by itself (``scheduler.py``); the lobby socket hears of every change
(``{"type": "tournament", "tournament_id", "version"}``)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator
from sqlalchemy.orm import Session

from roses.games import GameModule, InvalidInput, bots_offered, game_module

from ..accounts.signed_in import CurrentUser
from ..accounts.users import find_user
from ..clocks import time_control
from ..db.models import User
from ..errors import Unprocessable
from ..http.pages import page
from ..http.schemas import ERROR_ANSWERS, PlayerName, TimeLimit
from ..i18n import N_, _, game_error
from ..services import services
from . import entries
from .entries import Conditions
from .log import TournamentConfig
from .store import Tournament, TournamentStatus
from .views import listing, tournament_view

router = APIRouter(responses=ERROR_ANSWERS)

TournamentId = Annotated[int, Path(ge=1, le=2**31 - 1, description="a tournament's number")]

LONGEST_WAIT = timedelta(days=90)  # how far ahead a tournament may be set
MOST_BOTS = 16


class BotEntrant(BaseModel):
    model_config = ConfigDict(extra="forbid")

    bot: str = Field(max_length=32, description="a bot of the game (GET /api/catalog)")
    strength: str | None = Field(
        default=None,
        max_length=16,
        description="one of its strengths (its middle one if not given)",
    )


class EntryConditions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    min_rating: int | None = Field(default=None, ge=0, le=4000)
    max_rating: int | None = Field(default=None, ge=0, le=4000)
    min_games: int = Field(default=0, ge=0, le=1000, description="finished games of the game")
    friends_only: bool = Field(default=False, description="only the organiser's friends")
    invited: list[PlayerName] | None = Field(
        default=None, max_length=64, description="by invitation: these players only"
    )


class NewTournament(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=80)
    format: Literal["swiss", "pools", "arena"] = Field(
        description="swiss (two players a table), pools (round-robin tables of 3 or 4) or "
        "arena (pairs free players until its end)"
    )
    game: str = Field(max_length=24, description="a game from GET /api/catalog")
    players: int = Field(default=2, ge=2, le=8, description="players per table")
    options: dict[str, bool] = Field(default_factory=dict, max_length=16)
    time_limit: TimeLimit = Field(description="a live clock or correspondence days per move")
    vacation: bool = Field(default=True, description="correspondence: a vacation pauses clocks")
    rated: bool = False
    rounds: int | None = Field(
        default=None, ge=1, le=30, description="Swiss: its rounds; pools: None for a full design"
    )
    late_join_until_round: int = Field(
        default=1, ge=1, le=30, description="players may join until this round starts"
    )
    final: bool = Field(default=False, description="pools: a final among the best")
    points: list[float] | None = Field(
        default=None,
        max_length=8,
        description="pools: the points of the first, second, ... at a table (default: "
        "3, 2, 1, 0 at tables of four); a Swiss scores a win 1, an arena 2",
    )
    smaller_tables: bool = Field(
        default=True,
        description="pools: when the numbers do not fill the tables, seat one fewer at some "
        "(if the game is played by one fewer) rather than leave players out",
    )
    starts_at: datetime = Field(description="when the first round starts (with its time zone)")
    minutes: int | None = Field(default=None, ge=5, le=24 * 60, description="arena: how long")
    conditions: EntryConditions = Field(default_factory=EntryConditions)
    bots: list[BotEntrant] = Field(default_factory=list, max_length=MOST_BOTS)

    @model_validator(mode="after")
    def _consistent(self) -> NewTournament:
        if self.starts_at.tzinfo is None:
            raise ValueError(_("a start time needs its time zone"))
        if (self.minutes is None) == (self.format == "arena"):
            raise ValueError(_("an arena, and only an arena, lasts a number of minutes"))
        low, high = self.conditions.min_rating, self.conditions.max_rating
        if low is not None and high is not None and low > high:
            raise ValueError(_("the lowest rating is above the highest"))
        if self.points is not None:
            if self.format != "pools" or len(self.points) != self.players:
                raise ValueError(_("points per place go with pools, one for each seat"))
            if any(p < 0 or p > 100 for p in self.points) or self.points != sorted(
                self.points, reverse=True
            ):
                raise ValueError(_("points per place run from 100 down to 0, never up"))
        return self


def _points(body: NewTournament) -> tuple[float, ...]:
    """Points per rank: a win 1 in a Swiss, 2 in an arena; at a pool's table of n, the
    organiser's, or n-1 for the first down to 0 for the last."""
    if body.format == "arena":
        return (2.0, 0.0)
    if body.format == "swiss":
        return (1.0, 0.0)
    if body.points is not None:
        return tuple(body.points)
    return tuple(float(body.players - 1 - rank) for rank in range(body.players))


def _check_table(module: GameModule[Any, Any], body: NewTournament) -> int | None:
    """The table size is the game's and the format's; the smallest table a pool may seat."""
    if body.players not in module.player_counts:
        raise Unprocessable(
            "players",
            _(
                "a table of {game} seats {counts}",
                game=module.title,
                counts=", ".join(str(n) for n in module.player_counts),
            ),
        )
    if body.format in ("swiss", "arena") and body.players != 2:
        raise Unprocessable("players", _("a Swiss or an arena seats two players a table"))
    if body.format == "pools" and body.players < 3:
        raise Unprocessable("players", _("a pool seats three or four players a table"))
    if body.format == "pools" and body.smaller_tables and body.players - 1 in module.player_counts:
        return body.players - 1  # when the numbers do not divide, some tables seat one fewer
    return None


def _teams(module: GameModule[Any, Any], players: int) -> tuple[int, ...]:
    """A team game's team of each seat, for the pools to spread partners; () otherwise."""
    teams = tuple(module.teams(players))
    return teams if len(set(teams)) < players else ()


def _check_bots(module: GameModule[Any, Any], bots: list[BotEntrant]) -> list[BotEntrant]:
    offered = bots_offered(module)
    checked = []
    for index, entrant in enumerate(bots):
        if entrant.bot not in offered:
            raise Unprocessable(
                f"bots.{index}.bot",
                _(
                    "unknown bot '{bot}' (choose from: {choices})",
                    bot=entrant.bot,
                    choices=", ".join(sorted(offered)),
                ),
            )
        strengths = offered[entrant.bot]
        strength = entrant.strength
        if strengths and strength is None:
            strength = strengths[len(strengths) // 2]
        if strength is not None and strength not in strengths:
            raise Unprocessable(
                f"bots.{index}.strength",
                _(
                    "unknown strength '{strength}' (choose from: {choices})",
                    strength=strength,
                    choices=", ".join(strengths) or "-",
                ),
            )
        checked.append(BotEntrant(bot=entrant.bot, strength=strength))
    return checked


def create(db: Session, user: User, body: NewTournament, now: datetime, clocks: list[str]) -> int:
    """Check everything, then store the tournament and enter its bots; its id."""
    if user.is_guest:
        raise Unprocessable("name", _("guests cannot organise tournaments: register first"))
    try:
        module = game_module(body.game)
    except InvalidInput as error:
        raise Unprocessable("game", game_error(error)) from None
    smallest = _check_table(module, body)
    try:
        options = module.parse_options(body.players, body.options)
    except InvalidInput as error:
        raise Unprocessable("options", game_error(error)) from None
    limit = body.time_limit
    if limit.kind == "none":
        raise Unprocessable(
            "time_limit.kind", _("a tournament is played with a live clock or by correspondence")
        )
    try:
        control = time_control.chosen_control(limit.kind, limit.clock, limit.days, clocks)
    except time_control.TimeLimitError as error:
        raise Unprocessable(f"time_limit.{error.field}", str(error)) from None
    assert control is not None
    starts_at = body.starts_at.astimezone(UTC)
    if starts_at < now - timedelta(minutes=1) or starts_at > now + LONGEST_WAIT:
        raise Unprocessable("starts_at", _("a tournament starts between now and 90 days ahead"))
    bots = _check_bots(module, body.bots)
    invited = None
    if body.conditions.invited is not None:
        invited = []
        for name in body.conditions.invited:
            person = find_user(db, name)
            if person is None:
                raise Unprocessable(
                    "conditions.invited",
                    _("there is no player named '{name}' to invite", name=name),
                )
            invited.append(person.id)
    tournament = Tournament(
        name=body.name.strip() or body.game,
        format=body.format,
        game=module.name,
        players_per_table=body.players,
        options=options,
        time_control=control.to_json(),
        vacation=body.vacation and not control.live,
        rated=body.rated,
        config={},
        conditions=Conditions(
            body.conditions.min_rating,
            body.conditions.max_rating,
            body.conditions.min_games,
            body.conditions.friends_only,
            None if invited is None else tuple(invited),
        ).to_json(),
        starts_at=starts_at,
        status=TournamentStatus.OPEN,
        version=0,
        created_by=user.id,
    )
    db.add(tournament)
    db.flush()
    ends_at = None if body.minutes is None else starts_at + timedelta(minutes=body.minutes)
    tournament.config = TournamentConfig(
        format=body.format,
        game=module.name,
        players_per_table=body.players,
        rounds=body.rounds,
        late_join_until_round=body.late_join_until_round,
        points_by_rank=_points(body),
        final=body.final,
        seed=tournament.id,  # every lot drawn from it: the same log, the same pairings
        min_players_per_table=smallest,
        ends_at=None if ends_at is None else ends_at.timestamp(),
        teams=_teams(module, body.players),
    ).to_json()
    for entrant in bots:
        entries.enter_bot(db, tournament, entrant.bot, entrant.strength)
    return tournament.id


async def _in_transaction(request: Request, change: Any) -> Any:
    def run() -> Any:
        with services(request).sessions.begin() as db:
            return change(db)

    return await asyncio.to_thread(run)


async def _read(request: Request, reading: Any) -> Any:
    def run() -> Any:
        with services(request).sessions() as db:
            return reading(db)

    return await asyncio.to_thread(run)


async def _answer(request: Request, tournament_id: int, user: User) -> dict[str, Any]:
    app = services(request)
    return dict(
        await _read(
            request,
            lambda db: tournament_view(db, entries.find(db, tournament_id), user, app.now()),
        )
    )


async def _changed(request: Request, tournament_id: int, user: User) -> dict[str, Any]:
    """After a change: the lobbies told, the scheduler woken (a late entrant may be paired)."""
    answer = await _answer(request, tournament_id, user)
    tournaments = services(request).tournaments
    tournaments.tell(tournament_id, int(answer["version"]))
    tournaments.wake()
    return answer


@router.get("/api/tournaments", tags=["tournaments"])
async def tournaments_list(user: CurrentUser, request: Request) -> dict[str, Any]:
    """Open tournaments (soonest first), running ones, and the latest finished."""
    return dict(await _read(request, listing))


@router.post("/api/tournaments", status_code=201, tags=["tournaments"])
async def create_tournament(
    body: NewTournament, user: CurrentUser, request: Request
) -> dict[str, Any]:
    app = services(request)
    tournament_id = await _in_transaction(
        request, lambda db: create(db, user, body, app.now(), app.settings.live_clocks)
    )
    return await _changed(request, tournament_id, user)


@router.get("/api/tournaments/{tournament_id}", tags=["tournaments"])
async def tournament(
    tournament_id: TournamentId, user: CurrentUser, request: Request
) -> dict[str, Any]:
    """Settings, entrants, pairings round by round (each table's game and ranks), and the
    standings with their tie-breaks."""
    return await _answer(request, tournament_id, user)


@router.post("/api/tournaments/{tournament_id}/join", tags=["tournaments"])
async def join(tournament_id: TournamentId, user: CurrentUser, request: Request) -> dict[str, Any]:
    app = services(request)
    await _in_transaction(
        request, lambda db: entries.enter(db, entries.held(db, tournament_id), user, app.now())
    )
    return await _changed(request, tournament_id, user)


@router.post("/api/tournaments/{tournament_id}/withdraw", tags=["tournaments"])
async def withdraw(
    tournament_id: TournamentId, user: CurrentUser, request: Request
) -> dict[str, Any]:
    await _in_transaction(
        request, lambda db: entries.withdraw(db, entries.held(db, tournament_id), user)
    )
    return await _changed(request, tournament_id, user)


@router.post("/api/tournaments/{tournament_id}/start", tags=["tournaments"])
async def start(tournament_id: TournamentId, user: CurrentUser, request: Request) -> dict[str, Any]:
    """The organiser starts the tournament now, before its start time."""
    app = services(request)
    await _in_transaction(
        request,
        lambda db: entries.start_now(db, entries.held(db, tournament_id), user, app.now()),
    )
    return await _changed(request, tournament_id, user)


@router.get("/tournaments", include_in_schema=False)
def tournaments_page() -> HTMLResponse:
    return page("tournaments", "tournaments", N_("Tournaments — roses"))


@router.get("/tournaments/{tournament_id}", include_in_schema=False)
def tournament_page(tournament_id: TournamentId) -> HTMLResponse:
    return page("tournament", "tournaments", N_("Tournament — roses"))
