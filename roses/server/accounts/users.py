"""Accounts: names with argon2-hashed passwords, guests, and cookie sessions."""

from __future__ import annotations

import functools
import hashlib
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import ForeignKey, String, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..db.models import Base, LoginSession, User, as_utc, utcnow
from ..errors import Conflict, NotFound, NotSignedIn
from ..http.names import GUEST_PREFIX
from ..i18n import _

SESSION_COOKIE = "roses_session"

# argon2id at OWASP's first recommended setting (19 MiB, 2 passes, 1 lane): about 25 ms and
# 19 MiB per hash here. The library's default (64 MiB, 4 lanes) let 48 concurrent wrong
# passwords take the server to 1 GiB; the routes also run at most a few hashes at once.
_hasher = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


class AccountName(Base):
    """An account's name key (see ``name_key``): one account per key, whatever the case or form.

    It lives beside ``User`` rather than in it so that the unique index is the accounts'
    concern alone; a name registered twice at once fails here, in the database."""

    __tablename__ = "account_names"

    key: Mapped[str] = mapped_column(String(96), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), unique=True)


@dataclass(frozen=True)
class EndedSession:
    """A session that signing out ended: the live layer closes its sockets."""

    user_id: int
    token_hash: str


def name_key(name: str) -> str:
    """Names equal under NFKC + casefold (Unicode's identifier caseless match) are one account."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def token_hash(token: str) -> str:
    """The stored form of a session cookie's token (and what ``EndedSession`` names)."""
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


@functools.cache
def _stand_in_hash() -> str:
    """A hash to verify against when the name is unknown, so that both cost the same time."""
    return _hasher.hash(secrets.token_urlsafe(16))


def _add_account(db: Session, user: User) -> User:
    """Insert ``user`` with its name key; a taken name, even by a concurrent request, is 409."""
    try:
        db.add(user)
        db.flush()
        db.add(AccountName(key=name_key(user.name), user_id=user.id))
        db.flush()
    except IntegrityError:  # the caller's transaction rolls back: nothing is kept
        raise Conflict(_("the name '{name}' is taken", name=user.name)) from None
    return user


def register(db: Session, name: str, password: str) -> User:
    """A new account; ``name`` must already be ``normal_name``'s form (the schema sees to it)."""
    return _add_account(db, User(name=name, password_hash=hash_password(password), is_guest=False))


def create_guest(db: Session) -> User:
    while True:
        name = f"{GUEST_PREFIX}{secrets.token_hex(3)}"
        if find_user(db, name) is None:
            break
    return _add_account(db, User(name=name, password_hash=None, is_guest=True))


class WrongPassword(Exception):
    """The password given is not the account's (or it has none)."""


def verify_password(user: User | None, password: str) -> None:
    """WrongPassword unless ``password`` is ``user``'s. Unknown names and guests cost one
    hash too, so that the time taken tells nothing."""
    stored = user.password_hash if user is not None else None
    try:
        _hasher.verify(stored or _stand_in_hash(), password)
    except (VerificationError, InvalidHashError):
        stored = None
    if user is None or stored is None:
        raise WrongPassword
    if _hasher.check_needs_rehash(stored):  # hashes made with older, costlier parameters
        user.password_hash = hash_password(password)


def authenticate(db: Session, name: str, password: str) -> User:
    """The account if the password is right."""
    user = find_user(db, name)
    try:
        verify_password(user, password)
    except WrongPassword:
        raise NotSignedIn(_("wrong name or password")) from None
    assert user is not None
    return user


def start_session(db: Session, user: User, days: int, user_agent: str | None = None) -> str:
    """A new session for ``user`` in the browser ``user_agent`` (what its owner's session
    list shows); returns the cookie's token (only its hash is stored)."""
    token = secrets.token_urlsafe(32)
    now = utcnow()
    # Each sign-in sweeps this user's expired sessions, so the table does not only grow.
    db.execute(
        delete(LoginSession).where(LoginSession.user_id == user.id, LoginSession.expires_at < now)
    )
    db.add(
        LoginSession(
            token_hash=token_hash(token),
            user_id=user.id,
            expires_at=now + timedelta(days=days),
            created_at=now,
            user_agent=user_agent[:200] if user_agent else None,
        )
    )
    return token


def end_session(db: Session, token: str) -> EndedSession | None:
    """Sign out: the session that ended, or None if the token named none."""
    ended = token_hash(token)
    user_id = db.scalar(
        delete(LoginSession).where(LoginSession.token_hash == ended).returning(LoginSession.user_id)
    )
    return None if user_id is None else EndedSession(user_id=user_id, token_hash=ended)


def user_for_token(db: Session, token: str | None) -> User | None:
    if not token:
        return None
    login = db.get(LoginSession, token_hash(token))
    if login is None or as_utc(login.expires_at) < utcnow():
        return None
    return db.get(User, login.user_id)


def find_user(db: Session, name: str) -> User | None:
    """The account of that name, whatever its case or Unicode form."""
    return db.scalar(
        select(User)
        .join(AccountName, AccountName.user_id == User.id)
        .where(AccountName.key == name_key(name))
    )


def other_person(db: Session, user: User, name: str, yourself: str) -> User:
    """The account named ``name``: NotFound if there is none, Conflict with the sentence
    ``yourself`` (translated already) if it is ``user``'s own."""
    other = find_user(db, name)
    if other is None:
        raise NotFound(_("there is no player named '{name}'", name=name))
    if other.id == user.id:
        raise Conflict(yourself)
    return other
