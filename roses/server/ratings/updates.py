"""Ratings: Glicko-2 per game and variant (its player count), for people and bots.

A bot is rated per name and strength, so that the strengths form a ladder (a bot without
strengths by its name alone: ``bot:random:``). When a rated
game is over, each seat's game is rated as one Glicko-2 rating period holding a result
against every seat of another team (a win, a draw or a loss by the ranks), everyone as
rated before the game: the usual way to rate a free-for-all, and each player against each
opponent in a team game.
"""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select
from sqlalchemy.orm import Session

from roses.games import game_module

from ..db.models import Game, GameStatus, PlayerRating, RatingChange, Seat, User, utcnow
from . import glicko2


def variant_of(players: int) -> str:
    return f"{players}p"


def rated_key(seat: Seat) -> str | None:
    """Who a seat's rating belongs to: a person, or a bot at one strength (or none)."""
    if seat.user_id is not None:
        return f"user:{seat.user_id}"
    if seat.bot_name is not None:
        return f"bot:{seat.bot_name}:{seat.bot_strength or ''}"
    return None


def scores(ranks: list[int], teams: tuple[int, ...]) -> list[list[tuple[int, float]]]:
    """Per seat, (opponent seat, score) for each seat of another team: 1 won, 0.5 drawn."""
    return [
        [
            (
                other,
                1.0 if ranks[seat] < ranks[other] else 0.5 if ranks[seat] == ranks[other] else 0.0,
            )
            for other in range(len(ranks))
            if teams[other] != teams[seat]
        ]
        for seat in range(len(ranks))
    ]


def _current(db: Session, game: Game, seat: Seat, key: str) -> PlayerRating:
    variant = variant_of(game.players)
    row = db.get(PlayerRating, (game.game, variant, key))
    if row is None:
        start = glicko2.Rating()
        row = PlayerRating(
            game=game.game,
            variant=variant,
            rated=key,
            user_id=seat.user_id,
            rating=start.rating,
            deviation=start.deviation,
            volatility=start.volatility,
            games=0,
        )
        db.add(row)
    return row


def rate_game(db: Session, game_id: int) -> None:
    """Rate a finished rated game, once (a casual or running game, or one rated already, is
    left alone)."""
    game = db.get(Game, game_id)
    if game is None or not game.rated or game.status != GameStatus.FINISHED or game.result is None:
        return
    if db.scalar(select(RatingChange.game_id).where(RatingChange.game_id == game_id).limit(1)):
        return
    keys = [rated_key(seat) for seat in game.seats]
    rows = {
        key: _current(db, game, seat, key)
        for seat, key in zip(game.seats, keys, strict=True)
        if key is not None
    }
    before = {
        key: glicko2.Rating(row.rating, row.deviation, row.volatility) for key, row in rows.items()
    }
    results: dict[str, list[glicko2.Result]] = defaultdict(list)
    teams = game_module(game.game).teams(game.players)
    for seat, opponents in enumerate(scores(list(game.result["ranks"]), teams)):
        mine = keys[seat]
        for other, score in opponents:
            theirs = keys[other]
            if mine is not None and theirs is not None and theirs != mine:
                results[mine].append(glicko2.Result(before[theirs], score))
    now = utcnow()
    for key, played in results.items():
        after = glicko2.rate(before[key], played)
        row = rows[key]
        row.rating, row.deviation, row.volatility = after.rating, after.deviation, after.volatility
        row.games += 1
        db.add(RatingChange(game_id=game_id, rated=key, rating=after.rating,
                            deviation=after.deviation, at=now))  # fmt: skip


# -- reading --------------------------------------------------------------------------------


def bot_of(key: str) -> tuple[str, str | None]:
    """A bot's name and strength from its rating's key."""
    _, name, strength = key.split(":", 2)
    return name, strength or None


def leaderboard(
    db: Session, game: str, variant: str, limit: int
) -> list[tuple[PlayerRating, str | None]]:
    """The best ratings first, each with its person's name (None for a bot)."""
    query = (
        select(PlayerRating, User.name)
        .outerjoin(User, User.id == PlayerRating.user_id)
        .where(PlayerRating.game == game, PlayerRating.variant == variant)
        .order_by(PlayerRating.rating.desc(), PlayerRating.rated)
        .limit(limit)
    )
    return [(row, name) for row, name in db.execute(query)]


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
