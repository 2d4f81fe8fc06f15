"""Deleting an account: everything that is the person's goes, their games stay.

What belongs to an account is every row of every table that points at it with ON DELETE
CASCADE (sessions, its name, its chat messages, mutes, ratings, notification settings, and
whatever a later table of that kind holds), plus its rating history. The row of ``users``
itself stays, with no password, under a name kept for deleted accounts: the games it
played keep the seat, shown as a deleted player, and the leaderboards, which list ratings,
no longer list it. An account still seated in an unfinished game is not deleted (its
opponents are owed an end): the person finishes, resigns or cancels first."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from ..db.models import Base, Game, GameStatus, RatingChange, Seat, User, utcnow
from ..errors import Conflict, Forbidden
from ..http.names import DELETED_PREFIX
from ..i18n import _, ngettext
from . import users
from .sessions import end_sessions
from .tokens import token_hashes_of


@dataclass(frozen=True)
class Deleted:
    ended: list[str]  # the token hashes of its sessions and API tokens, for ``sign_outs``
    game_ids: list[int]  # the games that show its (new) name


def _unfinished(db: Session, user_id: int) -> int:
    query = (
        select(func.count(func.distinct(Game.id)))
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.user_id == user_id, Game.status.in_((GameStatus.WAITING, GameStatus.ACTIVE)))
    )
    return int(db.scalar(query) or 0)


def _remove_owned_rows(db: Session, user_id: int) -> None:
    """Every row pointing at the account with ON DELETE CASCADE, in every table."""
    for table in reversed(Base.metadata.sorted_tables):
        for key in table.foreign_keys:
            if key.column.table.name == User.__tablename__ and key.ondelete == "CASCADE":
                db.execute(delete(table).where(key.parent == user_id))


def delete_account(db: Session, user_id: int, password: str) -> Deleted:
    """Delete the account if ``password`` is its own (403) and it sits in no unfinished
    game (409); nothing changes when refused."""
    user = db.get(User, user_id, populate_existing=True)
    if user is None or user.password_hash is None:
        raise Conflict(_("a guest account is not deleted: it ends when you sign out"))
    try:
        users.verify_password(user, password)
    except users.WrongPassword:
        raise Forbidden(_("the password is not right; nothing was deleted")) from None
    unfinished = _unfinished(db, user_id)
    if unfinished:
        raise Conflict(
            ngettext(
                "you still play {n} unfinished game: finish, resign or cancel it first",
                "you still play {n} unfinished games: finish, resign or cancel them first",
                unfinished,
            )
        )
    ended = end_sessions(db, user_id) + token_hashes_of(db, user_id)  # their sockets close
    game_ids = list(db.scalars(select(Seat.game_id).where(Seat.user_id == user_id).distinct()))
    _remove_owned_rows(db, user_id)
    db.execute(delete(RatingChange).where(RatingChange.rated == f"user:{user_id}"))
    user.name = f"{DELETED_PREFIX}{secrets.token_hex(4)}"
    user.password_hash = None
    user.language = None
    user.deleted_at = utcnow()
    return Deleted(ended, game_ids)
