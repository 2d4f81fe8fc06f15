"""Ratings and profiles: the leaderboard of each game and variant, and a page per player
(ratings, their history, games played and won, recent games as envelopes: no game state)."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from pydantic import AfterValidator, BaseModel, Field
from sqlalchemy.orm import Session

from roses.games import InvalidInput, game_module

from ..accounts.signed_in import CurrentUser
from ..accounts.users import find_user
from ..db import store
from ..db.models import as_utc
from ..errors import NotFound, Unprocessable
from ..http.schemas import ERROR_ANSWERS, storable_text
from ..i18n import _, game_error
from ..play.live_games import GameHeader
from ..play.views import summary
from ..services import services
from . import history as records
from . import updates
from .systems import System, system_of

router = APIRouter(prefix="/api", responses=ERROR_ANSWERS, tags=["ratings"])
RECENT_GAMES = 10

GameName = Annotated[str, Path(min_length=1, max_length=24, description="e.g. roseking, wotr")]
Variant = Annotated[
    str, Path(pattern=r"^[1-8]p$", description="the player count: 2p, 4p (Rose King teams)")
]
PlayerName = Annotated[
    str,
    Path(min_length=1, max_length=64, description="a player's name"),
    AfterValidator(storable_text),
]


class RatedPlayer(BaseModel):
    player: str | None = Field(description="the account, or None for one of the server's bots")
    bot_account: bool = Field(description="the account is a program's (a bot account)")
    bot: str | None = Field(description="the server's bot's name (rated per strength)")
    strength: str | None
    rating: float = Field(description="the number shown: 1500 at first (see `system`)")
    deviation: float = Field(description="how unsure the rating is: 350 at first")
    games: int = Field(description="rated games played")


SYSTEM = Field(
    description="the rating system: `glicko2` for a duel, `openskill` (Weng-Lin, "
    "Bradley-Terry) for a free-for-all or teams, shown as 1500 + 42 (mu - 3 sigma), "
    "with 42 sigma as its deviation"
)


class Leaderboard(BaseModel):
    game: str
    title: str
    variant: str
    ladder: updates.Ladder = Field(
        description="people, bots (the server's and bot accounts), or all"
    )
    system: System = SYSTEM
    players: list[RatedPlayer] = Field(description="the best rating first (at most 100)")


class HistoryPoint(BaseModel):
    game_id: int
    rating: float
    deviation: float
    at: str = Field(description="when the game ended, ISO 8601 in UTC")


class GameRating(BaseModel):
    game: str
    variant: str
    system: System = SYSTEM
    rating: float
    deviation: float
    games: int
    history: list[HistoryPoint] = Field(description="the rating after each rated game")


def _rate(won: int, played: int) -> float:
    return round(won / played, 4) if played else 0.0


class SeatRecord(BaseModel):
    seat: str = Field(description="the colour or seat, e.g. Red, White 2")
    played: int
    won: int
    win_rate: float = Field(description="won / played, 0 to 1")


class GameRecord(BaseModel):
    game: str
    variant: str
    played: int
    won: int = Field(description="games finished first (a team's win counts for both)")
    win_rate: float = Field(description="won / played, 0 to 1")
    seats: list[SeatRecord]


class Profile(BaseModel):
    name: str
    guest: bool = Field(description="guests are never rated")
    bot: bool = Field(description="a bot account: a program playing through the API")
    ratings: list[GameRating]
    record: list[GameRecord] = Field(description="finished games, per game and variant")
    recent: list[dict[str, Any]] = Field(description="the latest games' envelopes (no state)")


def _check_variant(game: str, variant: str) -> str:
    try:
        module = game_module(game)
    except InvalidInput as error:
        raise NotFound(game_error(error)) from None
    counts = [updates.variant_of(n) for n in module.player_counts]
    if variant not in counts:
        raise NotFound(
            _(
                "{game} has no variant '{variant}' (choose from {choices})",
                game=_(module.title),
                variant=variant,
                choices=", ".join(counts),
            )
        )
    return module.title


async def _read(request: Request, reading: Any) -> Any:
    def run() -> Any:
        with services(request).sessions() as db:
            return reading(db)

    return await asyncio.to_thread(run)


@router.get("/ratings/{game}/{variant}", response_model=Leaderboard)
async def leaderboard(
    game: GameName,
    variant: Variant,
    user: CurrentUser,
    request: Request,
    limit: int = Query(100, ge=1, le=100, description="how many players"),
    ladder: updates.Ladder = Query(
        updates.Ladder.ALL,
        description="people: people only; bots: the server's bots (per strength) and bot "
        "accounts; all: everyone",
    ),
) -> Leaderboard:
    """The leaderboard of one game and variant: people and bots (per strength) by rating."""
    title = _check_variant(game, variant)
    rows = await _read(request, lambda db: updates.leaderboard(db, game, variant, limit, ladder))
    players = []
    for row, account in rows:
        bot, strength = (None, None) if account is not None else updates.bot_of(row.rated)
        players.append(
            RatedPlayer(
                player=None if account is None else account.name,
                bot_account=account is not None and account.is_bot,
                bot=bot,
                strength=strength,
                rating=row.rating,
                deviation=row.deviation,
                games=row.games,
            )
        )
    system = system_of(game, updates.players_of(variant))
    return Leaderboard(
        game=game, title=title, variant=variant, ladder=ladder, system=system, players=players
    )


@router.get("/players/{name}", response_model=Profile)
async def profile(name: PlayerName, user: CurrentUser, request: Request) -> Profile:
    """A player's page: rating with its deviation per game and variant, the rating history,
    games played and won per game and per colour, and recent games (envelopes only)."""

    def read(db: Session) -> Profile:
        player = find_user(db, name)
        if player is None:
            raise NotFound(_("there is no player named '{name}'", name=name))
        history: dict[tuple[str, str], list[HistoryPoint]] = defaultdict(list)
        for change, game, players in updates.history_of(db, player):
            point = HistoryPoint(
                game_id=change.game_id,
                rating=change.rating,
                deviation=change.deviation,
                at=as_utc(change.at).isoformat(),
            )
            history[game, updates.variant_of(players)].append(point)
        rated = [
            GameRating(
                game=row.game,
                variant=row.variant,
                system=system_of(row.game, updates.players_of(row.variant)),
                rating=row.rating,
                deviation=row.deviation,
                games=row.games,
                history=history[row.game, row.variant],
            )
            for row in updates.ratings_of(db, player)
        ]
        recent = [
            summary(GameHeader(g), user.id) for g in store.games_of(db, player)[:RECENT_GAMES]
        ]
        return Profile(
            name=player.name,
            guest=player.is_guest,
            bot=player.is_bot,
            ratings=rated,
            record=_record(db, player),
            recent=recent,
        )

    return await _read(request, read)  # type: ignore[no-any-return]


class Opponent(BaseModel):
    seat: str = Field(description="their colour or seat")
    player: str | None = Field(description="the person (None: a bot or an empty seat)")
    bot: str | None


class PlayedGame(BaseModel):
    id: int
    game: str
    title: str
    variant: str = Field(description="the player count: 2p, 4p")
    seat: str = Field(description="the player's colour or seat")
    opponents: list[Opponent] = Field(description="everyone else at the table, by seat")
    result: Literal["won", "lost", "drawn", "playing"] = Field(
        description="for this player: won (with their team), lost, drawn, or still playing"
    )
    rated: bool = Field(description="rated, or casual")
    date: str = Field(description="the last move's moment, ISO 8601 in UTC")


class History(BaseModel):
    name: str
    games: list[PlayedGame] = Field(description="newest first, ``per_page`` a page (20)")
    page: int
    pages: int
    total: int = Field(description="games that pass the filters")


@router.get("/players/{name}/games", response_model=History)
async def games_of(
    name: PlayerName,
    user: CurrentUser,
    request: Request,
    game: str | None = Query(None, max_length=24, description="one game: roseking, wotr"),
    variant: str | None = Query(None, pattern=r"^[1-8]p$", description="2p, 4p"),
    result: Literal["won", "lost", "drawn", "playing"] | None = Query(None),
    rated: bool | None = Query(None, description="true: rated only; false: casual only"),
    page: int = Query(1, ge=1, le=10_000),
    per_page: int = Query(records.PAGE_SIZE, ge=1, le=100),
) -> History:
    """A player's games that started, newest first: opponents, result, rated or casual,
    date, game and variant; filtered and paged. Envelopes only: nothing of a game's state."""
    if game is not None:
        try:
            game_module(game)
        except InvalidInput as error:
            raise Unprocessable("game", game_error(error)) from None
    filters = records.Filters(game, variant, result, rated)

    def read(db: Session) -> History:
        player = find_user(db, name)
        if player is None:
            raise NotFound(_("there is no player named '{name}'", name=name))
        every = records.played_games(db, player, filters)
        chosen, pages = records.page_of(every, page, per_page)
        return History(
            name=player.name,
            games=[
                PlayedGame(
                    **{k: v for k, v in vars(g).items() if k not in ("opponents", "date")},
                    opponents=[Opponent(**vars(o)) for o in g.opponents],
                    date=g.date.isoformat(),
                )
                for g in chosen
            ],
            page=page,
            pages=pages,
            total=len(every),
        )

    return await _read(request, read)  # type: ignore[no-any-return]


def _record(db: Session, player: Any) -> list[GameRecord]:
    played: dict[tuple[str, str], dict[str, list[int]]] = defaultdict(dict)
    for game, seat in updates.finished_games_of(db, player):
        label = game_module(game.game).seat_labels(game.players, game.options)[seat]
        won = int(game.result is not None and game.result["ranks"][seat] == 0)
        tally = played[game.game, updates.variant_of(game.players)].setdefault(label, [0, 0])
        tally[0] += 1
        tally[1] += won
    rows = []
    for (name, variant), seats in played.items():
        total, won = sum(t[0] for t in seats.values()), sum(t[1] for t in seats.values())
        rows.append(
            GameRecord(
                game=name,
                variant=variant,
                played=total,
                won=won,
                win_rate=_rate(won, total),
                seats=[
                    SeatRecord(seat=label, played=t[0], won=t[1], win_rate=_rate(t[1], t[0]))
                    for label, t in seats.items()
                ],
            )
        )
    return rows
