"""A guest becomes a registered player: the same account (its id, so every game it sits
in) under a name and password of its choosing. Guests are never rated, so its games stay
casual; from now on it may play rated games."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import delete, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..accounts.signed_in import CurrentUser
from ..db.models import Seat, User
from ..errors import Conflict
from ..http.schemas import ERROR_ANSWERS, Registration
from ..i18n import _
from ..play.live_games import LiveGames
from ..services import Sessions, services
from . import users
from .routes import _user_json

router = APIRouter(prefix="/api", responses=ERROR_ANSWERS)


def upgrade_guest(db: Session, user_id: int, name: str, password: str) -> User:
    """The guest ``user_id`` under ``name`` with ``password``; ``Conflict`` if it is no
    guest or the name is taken (the caller's transaction then rolls back: nothing changes)."""
    user = db.get(User, user_id, populate_existing=True)
    if user is None or not user.is_guest:
        raise Conflict(_("this account is registered already; only a guest account can be"))
    db.execute(delete(users.AccountName).where(users.AccountName.user_id == user_id))
    user.name = name
    user.password_hash = users.hash_password(password)
    user.is_guest = False
    try:
        db.flush()
        db.add(users.AccountName(key=users.name_key(name), user_id=user_id))
        db.flush()
    except IntegrityError:
        raise Conflict(_("the name '{name}' is taken", name=name)) from None
    return user


def _game_ids(db: Session, user_id: int) -> list[int]:
    seated = or_(Seat.user_id == user_id, Seat.invited_user_id == user_id)
    return list(db.scalars(select(Seat.game_id).where(seated).distinct()))


@router.post("/accounts/upgrade", tags=["accounts"])
async def upgrade(
    body: Registration, user: CurrentUser, request: Request, sessions: Sessions
) -> dict[str, Any]:
    """Turn my guest account into a registered one with this name and password: every game
    I play stays mine, and I stay signed in. 409 if I am registered already or the name is
    taken (nothing changes then)."""
    if not user.is_guest:  # refused before any hashing
        raise Conflict(_("this account is registered already; only a guest account can be"))

    def change() -> tuple[User, list[int]]:
        with sessions.begin() as db:
            upgraded = upgrade_guest(db, user.id, body.name, body.password)
            return upgraded, _game_ids(db, user.id)

    upgraded, game_ids = await services(request).limiter.hashing(change)
    # This process's copies: who this cookie is, and the names games show (read again).
    token = request.cookies[users.SESSION_COOKIE]
    services(request).signed_in.put(users.token_hash(token), upgraded)
    games: LiveGames = services(request).games
    for game_id in game_ids:
        games.evict(game_id)
    return _user_json(upgraded)  # as GET /api/me answers
