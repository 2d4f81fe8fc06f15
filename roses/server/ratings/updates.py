"""Ratings per game and variant (its player count), for people and bots: each rated game is
rated when it ends by its variant's system (``systems.py``: Glicko-2 for a duel, Weng-Lin
for a free-for-all or teams), and the new ratings are kept with a point of history each.

A bot is rated per name and strength, so that the strengths form a ladder (a bot without
strengths by its name alone: ``bot:random:``). A bot account (a program playing through the
API) is rated as its account, and listed on the bots' ladder, not the people's.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from roses.games import game_module

from ..db.models import Game, GameStatus, PlayerRating, RatingChange, Seat, User, utcnow
from .systems import Standing, rate, system_of


def variant_of(players: int) -> str:
    return f"{players}p"


def players_of(variant: str) -> int:
    return int(variant.removesuffix("p"))


class SeatLike(Protocol):
    """Who sits in a seat (a ``Seat``, or a row of the seats table when replaying)."""

    @property
    def user_id(self) -> int | None: ...
    @property
    def bot_name(self) -> str | None: ...
    @property
    def bot_strength(self) -> str | None: ...


def rated_key(seat: SeatLike) -> str | None:
    """Who a seat's rating belongs to: a person, or a bot at one strength (or none)."""
    if seat.user_id is not None:
        return f"user:{seat.user_id}"
    if seat.bot_name is not None:
        return f"bot:{seat.bot_name}:{seat.bot_strength or ''}"
    return None


def standing_of(row: PlayerRating) -> Standing:
    return Standing(row.rating, row.deviation, row.volatility, row.mu, row.sigma)


def rate_game(db: Session, game_id: int) -> None:
    """Rate a finished rated game, once (a casual or running game, or one rated already, is
    left alone)."""
    game = db.get(Game, game_id)
    if game is None or not game.rated or game.status != GameStatus.FINISHED or game.result is None:
        return
    if db.scalar(select(RatingChange.game_id).where(RatingChange.game_id == game_id).limit(1)):
        return
    variant = variant_of(game.players)
    keys = [rated_key(seat) for seat in game.seats]
    users = {key: seat.user_id for seat, key in zip(game.seats, keys, strict=True)}
    rows = {
        key: row
        for key in set(keys) - {None}
        if key is not None and (row := db.get(PlayerRating, (game.game, variant, key)))
    }
    after = rate(
        system_of(game.game, game.players),
        {key: standing_of(row) for key, row in rows.items()},
        keys,
        list(game.result["ranks"]),
        game_module(game.game).teams(game.players),
    )
    now = utcnow()
    for key, new in after.items():
        row = rows.get(key) or PlayerRating(
            game=game.game, variant=variant, rated=key, user_id=users[key], games=0
        )
        row.rating, row.deviation = new.rating, new.deviation
        row.volatility, row.mu, row.sigma = new.volatility, new.mu, new.sigma
        row.games += 1
        db.add(row)
        db.add(RatingChange(game_id=game_id, rated=key, rating=new.rating,
                            deviation=new.deviation, at=now))  # fmt: skip


# -- reading --------------------------------------------------------------------------------


def bot_of(key: str) -> tuple[str, str | None]:
    """A bot's name and strength from its rating's key."""
    _, name, strength = key.split(":", 2)
    return name, strength or None


class Ladder(StrEnum):
    """Whose ratings a leaderboard lists: people's, or bots' (the server's own bots and bot
    accounts: ``accounts/bot_accounts.py``), or everyone's."""

    PEOPLE = "people"
    BOTS = "bots"
    ALL = "all"


def leaderboard(
    db: Session, game: str, variant: str, limit: int, ladder: Ladder = Ladder.ALL
) -> list[tuple[PlayerRating, User | None]]:
    """The best ratings first, each with its account (None for one of the server's bots)."""
    query = (
        select(PlayerRating, User)
        .outerjoin(User, User.id == PlayerRating.user_id)
        .where(PlayerRating.game == game, PlayerRating.variant == variant)
        .order_by(PlayerRating.rating.desc(), PlayerRating.rated)
        .limit(limit)
    )
    if ladder is Ladder.PEOPLE:
        query = query.where(PlayerRating.user_id.is_not(None), User.is_bot.is_(False))
    elif ladder is Ladder.BOTS:
        query = query.where(or_(PlayerRating.user_id.is_(None), User.is_bot.is_(True)))
    return [(row, account) for row, account in db.execute(query)]


def ratings_of(db: Session, user: User) -> list[PlayerRating]:
    query = select(PlayerRating).where(PlayerRating.user_id == user.id)
    return list(db.scalars(query.order_by(PlayerRating.game, PlayerRating.variant)))


def history_of(db: Session, user: User) -> list[tuple[RatingChange, str, int]]:
    """Each rated game's new rating, oldest first, with its game and player count."""
    query = (
        select(RatingChange, Game.game, Game.players)
        .join(Game, Game.id == RatingChange.game_id)
        .where(RatingChange.rated == f"user:{user.id}")
        .order_by(RatingChange.at, RatingChange.game_id)
    )
    return [(change, game, players) for change, game, players in db.execute(query)]


def finished_games_of(db: Session, user: User) -> list[tuple[Game, int]]:
    """The user's finished games, each with the user's seat."""
    query = (
        select(Game, Seat.seat)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.user_id == user.id, Game.status == GameStatus.FINISHED)
        .order_by(Game.id)
    )
    return [(game, seat) for game, seat in db.execute(query)]
