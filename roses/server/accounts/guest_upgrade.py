"""A guest becomes a registered player: the same account (its id, so every game it sits
in) under a name and password of its choosing. Guests are never rated, so its games stay
casual; from now on it may play rated games."""

from __future__ import annotations

from sqlalchemy import delete, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..db.models import Seat, User
from ..errors import Conflict
from ..i18n import _
from . import users


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


def seated_game_ids(db: Session, user_id: int) -> list[int]:
    seated = or_(Seat.user_id == user_id, Seat.invited_user_id == user_id)
    return list(db.scalars(select(Seat.game_id).where(seated).distinct()))
