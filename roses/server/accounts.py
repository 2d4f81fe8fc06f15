"""Accounts: names with argon2-hashed passwords, guests, and cookie sessions."""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from .errors import Conflict, NotSignedIn
from .models import LoginSession, User, as_utc, utcnow

NAME_PATTERN = re.compile(r"^[A-Za-z0-9_.-]{2,24}$")
NAME_RULE = "2 to 24 letters, digits, '_', '.' or '-'"
SESSION_COOKIE = "roses_session"

_hasher = PasswordHasher()


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def register(db: Session, name: str, password: str) -> User:
    if db.scalar(select(User).where(User.name == name)) is not None:
        raise Conflict(f"the name {name!r} is taken")
    user = User(name=name, password_hash=_hasher.hash(password), is_guest=False)
    db.add(user)
    db.flush()
    return user


def create_guest(db: Session) -> User:
    while True:
        name = f"guest-{secrets.token_hex(3)}"
        if db.scalar(select(User).where(User.name == name)) is None:
            break
    user = User(name=name, password_hash=None, is_guest=True)
    db.add(user)
    db.flush()
    return user


def authenticate(db: Session, name: str, password: str) -> User:
    user = db.scalar(select(User).where(User.name == name))
    if user is None or user.password_hash is None:
        raise NotSignedIn("wrong name or password")
    try:
        _hasher.verify(user.password_hash, password)
    except (VerificationError, InvalidHashError):
        raise NotSignedIn("wrong name or password") from None
    return user


def start_session(db: Session, user: User, days: int) -> str:
    """A new session for ``user``; returns the cookie's token (only its hash is stored)."""
    token = secrets.token_urlsafe(32)
    now = utcnow()
    # Each sign-in sweeps this user's expired sessions, so the table does not only grow.
    db.execute(
        delete(LoginSession).where(LoginSession.user_id == user.id, LoginSession.expires_at < now)
    )
    db.add(
        LoginSession(
            token_hash=_token_hash(token),
            user_id=user.id,
            expires_at=now + timedelta(days=days),
        )
    )
    return token


def end_session(db: Session, token: str) -> None:
    db.execute(delete(LoginSession).where(LoginSession.token_hash == _token_hash(token)))


def user_for_token(db: Session, token: str | None) -> User | None:
    if not token:
        return None
    login = db.get(LoginSession, _token_hash(token))
    if login is None or as_utc(login.expires_at) < utcnow():
        return None
    return db.get(User, login.user_id)


def find_user(db: Session, name: str) -> User | None:
    return db.scalar(select(User).where(User.name == name))
