"""One's data to take away: the account, its settings, sessions, games, chat and ratings,
as JSON. A game appears by its envelope only (who sat where, when, rated or not, and the
result once over): never its deal, a hand or a plan, which the game's own pages show to
whom they may."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import Table, select
from sqlalchemy.orm import Session

from ..db.models import (
    Base,
    ChatMessage,
    ChatMute,
    Game,
    GameStatus,
    LoginSession,
    PlayerRating,
    RatingChange,
    Seat,
    User,
    as_utc,
)
from .sessions import session_id
from .sign_in_throttle import SignInAddress
from .users import AccountName

# Tables shown in their own part of the download (or, for the name key and the known
# addresses, not at all: they are hashes and keys that tell nobody anything).
_SHOWN_APART = {
    table.__tablename__
    for table in (LoginSession, AccountName, ChatMessage, ChatMute, PlayerRating, SignInAddress)
}
# Columns that are secrets or keys, whatever table holds them.
_SECRET_WORDS = ("hash", "key", "token", "secret", "password")


def _value(value: Any) -> Any:
    if isinstance(value, datetime):
        return as_utc(value).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return value


def _other_records(db: Session, user_id: int) -> dict[str, list[dict[str, Any]]]:
    """Rows of every other table that belongs to the account (settings and the like): by
    its owner column, ``user_id``, never by another column that names the account (a row
    that another person keeps about this one, such as who muted whom, is theirs)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for table in Base.metadata.sorted_tables:
        if table.name in _SHOWN_APART or not isinstance(table, Table):
            continue
        for key in table.foreign_keys:
            if key.column.table.name != User.__tablename__ or key.parent.name != "user_id":
                continue
            shown = [
                column
                for column in table.columns
                if column is not key.parent
                and not any(word in column.name for word in _SECRET_WORDS)
            ]
            rows = db.execute(select(*shown).where(key.parent == user_id)).mappings()
            found.setdefault(table.name, []).extend(
                {name: _value(value) for name, value in row.items()} for row in rows
            )
    return {name: rows for name, rows in found.items() if rows}


def _seat_json(seat: Seat) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "player": seat.user.name if seat.user else None,
        "bot": seat.bot_name,
        "invited": seat.invited_user.name if seat.invited_user and not seat.user else None,
    }


def _games(db: Session, user_id: int) -> list[dict[str, Any]]:
    seated = select(Seat.game_id).where(Seat.user_id == user_id)
    games = db.scalars(select(Game).where(Game.id.in_(seated)).order_by(Game.id))
    return [
        {
            "id": game.id,
            "game": game.game,
            "status": game.status,
            "rated": game.rated,
            "created_at": _value(game.created_at),
            "my_seats": [seat.seat for seat in game.seats if seat.user_id == user_id],
            "seats": [_seat_json(seat) for seat in game.seats],
            "result": game.result if game.status == GameStatus.FINISHED else None,
        }
        for game in games
    ]


def account_data(db: Session, user: User, current_hash: str) -> dict[str, Any]:
    """Everything the server keeps of ``user``, as JSON."""
    chat = db.scalars(
        select(ChatMessage).where(ChatMessage.user_id == user.id).order_by(ChatMessage.id)
    )
    muted = db.scalars(
        select(User.name)
        .join(ChatMute, ChatMute.muted_user_id == User.id)
        .where(ChatMute.user_id == user.id)
    )
    sessions = db.scalars(select(LoginSession).where(LoginSession.user_id == user.id))
    ratings = db.scalars(select(PlayerRating).where(PlayerRating.user_id == user.id))
    history = db.scalars(
        select(RatingChange)
        .where(RatingChange.rated == f"user:{user.id}")
        .order_by(RatingChange.at)
    )
    return {
        "account": {
            "id": user.id,
            "name": user.name,
            "guest": user.is_guest,
            "bot": user.is_bot,
            "created_at": _value(user.created_at),
        },
        "settings": {"language": user.language, **_other_records(db, user.id)},
        "sessions": [
            {
                "id": session_id(row.token_hash),
                "created_at": _value(row.created_at),
                "expires_at": _value(row.expires_at),
                "browser": row.user_agent,
                "current": row.token_hash == current_hash,
            }
            for row in sessions
        ],
        "games": _games(db, user.id),
        "chat": [
            {"game_id": row.game_id, "text": row.text, "at": _value(row.created_at)} for row in chat
        ],
        "muted": list(muted),
        "ratings": [
            {
                "game": row.game,
                "variant": row.variant,
                "rating": row.rating,
                "deviation": row.deviation,
                "games": row.games,
            }
            for row in ratings
        ],
        "rating_history": [
            {"game_id": row.game_id, "rating": row.rating, "at": _value(row.at)} for row in history
        ],
    }
