"""A player's history: their games (being played or finished) with the opponents, the
result for them, rated or casual, the date, the game and variant; filtered and paged.
Only envelopes are read (who sat where, the ranks once over): never a deal or a state."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from roses.games import game_module

from ..db.models import ActionRow, Game, GameStatus, Seat, User, as_utc
from ..db.store import offered

Result = Literal["won", "lost", "drawn", "playing"]
RESULTS: tuple[Result, ...] = ("won", "lost", "drawn", "playing")
PAGE_SIZE = 20


@dataclass(frozen=True)
class Filters:
    game: str | None = None
    variant: str | None = None  # "2p", "4p"
    result: Result | None = None
    rated: bool | None = None


@dataclass(frozen=True)
class Opponent:
    seat: str
    player: str | None
    bot: str | None


@dataclass(frozen=True)
class PlayedGame:
    id: int
    game: str
    title: str
    variant: str
    seat: str
    opponents: tuple[Opponent, ...]
    result: Result
    rated: bool
    date: datetime  # the last move's moment (the start's if none yet)


def result_for(game: Game, seat: int) -> Result:
    """What the game came to for ``seat``: first alone or with its team (won), every seat
    ranked alike (drawn), or behind (lost)."""
    if game.status != GameStatus.FINISHED or game.result is None:
        return "playing"
    ranks: list[int] = game.result["ranks"]
    if len(set(ranks)) == 1:
        return "drawn"
    return "won" if ranks[seat] == min(ranks) else "lost"


def played_games(db: Session, player: User, filters: Filters) -> list[PlayedGame]:
    """Every game ``player`` sat in that started, newest first, as the filters choose."""
    last_move = (
        select(ActionRow.game_id, func.max(ActionRow.created_at).label("at"))
        .group_by(ActionRow.game_id)
        .subquery()
    )
    query = (
        select(Game, Seat.seat, last_move.c.at)
        .join(Seat, Seat.game_id == Game.id)
        .outerjoin(last_move, last_move.c.game_id == Game.id)
        .where(
            Seat.user_id == player.id,
            Game.status.in_([GameStatus.ACTIVE, GameStatus.FINISHED]),
            offered(),
        )
        .order_by(Game.id.desc())
    )
    if filters.game is not None:
        query = query.where(Game.game == filters.game)
    if filters.variant is not None:
        query = query.where(Game.players == int(filters.variant.rstrip("p")))
    if filters.rated is not None:
        query = query.where(Game.rated == filters.rated)
    games = []
    for game, seat, at in db.execute(query):
        result = result_for(game, seat)
        if filters.result is not None and result != filters.result:
            continue
        module = game_module(game.game)
        labels = module.seat_labels(game.players, game.options)
        opponents = tuple(
            Opponent(labels[s.seat], s.user.name if s.user else None, s.bot_name)
            for s in game.seats
            if s.seat != seat
        )
        games.append(
            PlayedGame(
                id=game.id,
                game=game.game,
                title=module.title,
                variant=f"{game.players}p",
                seat=labels[seat],
                opponents=opponents,
                result=result,
                rated=game.rated,
                date=as_utc(at if at is not None else game.created_at),
            )
        )
    return games


def page_of(
    games: list[PlayedGame], page: int, size: int = PAGE_SIZE
) -> tuple[list[PlayedGame], int]:
    """The ``page``-th page (from 1) of ``size`` games and how many pages there are (at
    least 1)."""
    pages = max(1, -(-len(games) // size))
    return games[(page - 1) * size : page * size], pages
