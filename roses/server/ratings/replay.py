"""Every rating rebuilt by replaying the rated games in the order they ended: what migration
0013 did when free-for-all and team games moved to Weng-Lin, and what ``roses ratings
rebuild`` does at any time. Replaying gives the same ratings as the live updates did, so a
second replay changes nothing.

The ratings of a game the server no longer offers (a plug-in taken away) are left as they
are: without its module, its games cannot be replayed.

It reads and writes named columns of the tables (SQLAlchemy Core on one connection, in the
caller's transaction), so that a migration may run it before later columns exist.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import Connection, DateTime, delete, func, insert, select

from roses.games import GAMES as GAMES_OFFERED
from roses.games import game_module

from ..db.models import Game, GameStatus, PlayerRating, RatingChange, Seat, as_utc
from .systems import Standing, rate, system_of
from .updates import rated_key, variant_of

GAMES, SEATS = Game.__table__, Seat.__table__
CHANGES = RatingChange.__table__


def _rated_games(connection: Connection) -> list[Any]:
    """The finished rated games, in the order they were rated (the game's first rating
    change, else the last change of whose turn it was: when it ended), with that time."""
    rated_at = (
        select(CHANGES.c.game_id, func.min(CHANGES.c.at).label("at"))
        .group_by(CHANGES.c.game_id)
        .subquery()
    )
    ended = func.coalesce(rated_at.c.at, GAMES.c.turn_since, type_=DateTime(timezone=True))
    query = (
        select(GAMES.c.id, GAMES.c.game, GAMES.c.players, GAMES.c.result, ended.label("at"))
        .outerjoin(rated_at, rated_at.c.game_id == GAMES.c.id)
        .where(GAMES.c.rated.is_(True), GAMES.c.status == GameStatus.FINISHED.value)
        .where(GAMES.c.game.in_(sorted(GAMES_OFFERED)))
        .order_by(ended, GAMES.c.id)
    )
    return [game for game in connection.execute(query) if game.result is not None]


def rebuild(connection: Connection) -> int:
    """Forget every rating and replay the rated games; the number of games replayed."""
    games = _rated_games(connection)
    seats: dict[int, list[Any]] = defaultdict(list)
    seat_rows = select(SEATS.c.game_id, SEATS.c.seat, SEATS.c.user_id, SEATS.c.bot_name,
                       SEATS.c.bot_strength).order_by(SEATS.c.game_id, SEATS.c.seat)  # fmt: skip
    for seat in connection.execute(seat_rows):
        seats[seat.game_id].append(seat)
    standings: dict[tuple[str, str], dict[str, Standing]] = defaultdict(dict)
    played: dict[tuple[str, str, str], int] = defaultdict(int)
    users: dict[str, int | None] = {}
    changes: list[dict[str, Any]] = []
    for game in games:
        variant = (game.game, variant_of(game.players))
        keys = [rated_key(seat) for seat in seats[game.id]]
        for key, seat in zip(keys, seats[game.id], strict=True):
            if key is not None:
                users[key] = seat.user_id
        after = rate(
            system_of(game.game, game.players),
            standings[variant],
            keys,
            list(game.result["ranks"]),
            game_module(game.game).teams(game.players),
        )
        for key, new in after.items():
            standings[variant][key] = new
            played[(*variant, key)] += 1
            changes.append({"game_id": game.id, "rated": key, "rating": new.rating,
                            "deviation": new.deviation, "at": as_utc(game.at)})  # fmt: skip
    offered = sorted(GAMES_OFFERED)
    replayed = select(GAMES.c.id).where(GAMES.c.game.in_(offered))
    connection.execute(delete(RatingChange).where(RatingChange.game_id.in_(replayed)))
    connection.execute(delete(PlayerRating).where(PlayerRating.game.in_(offered)))
    rows = [
        {"game": name, "variant": variant, "rated": key, "user_id": users[key],
         "rating": new.rating, "deviation": new.deviation, "volatility": new.volatility,
         "mu": new.mu, "sigma": new.sigma, "games": played[name, variant, key]}
        for (name, variant), found in standings.items() for key, new in found.items()
    ]  # fmt: skip
    if rows:
        connection.execute(insert(PlayerRating), rows)
    if changes:
        connection.execute(insert(RatingChange), changes)
    return len(games)
