"""Passwords changed: by their owner, who gives the current one, or through a reset link
sent to the account's confirmed e-mail address (``notify/account_mail.py`` sends it).

A reset link is signed with a key every process shares and names the account and a
fingerprint of its password hash as the link was made: setting any password changes the
hash (argon2 salts each one), so a link works once and only once, and every older link
dies with it. It expires after ``RESET_SECONDS``; the time is the server's (``now``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy.orm import Session

from ..db.models import User
from ..errors import Conflict, Forbidden, NotFound
from ..i18n import _
from . import users
from .secrets import keyed_hash, server_secret
from .sessions import end_sessions

RESET_SECRET = "password-reset"
RESET_SECONDS = 3600  # an hour: a link in a mailbox someone else reads later is dead


@dataclass(frozen=True)
class PasswordChanged:
    user: User
    ended: list[str]  # the token hashes of the sessions signed out


def _registered(db: Session, user_id: int) -> User:
    user = db.get(User, user_id, populate_existing=True)
    if user is None or user.password_hash is None or user.deleted_at is not None:
        raise Conflict(_("a guest account has no password: register it first"))
    return user


def change_password(
    db: Session, user_id: int, current: str, new: str, keep: str
) -> PasswordChanged:
    """Set ``new`` if ``current`` is the account's password (403 otherwise, nothing
    changed); every other session is signed out, the one of ``keep`` (a token hash) stays."""
    user = _registered(db, user_id)
    try:
        users.verify_password(user, current)
    except users.WrongPassword:
        raise Forbidden(_("the current password is not right; nothing was changed")) from None
    user.password_hash = users.hash_password(new)
    return PasswordChanged(user, end_sessions(db, user_id, keep=keep))


def _signer(db: Session) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(server_secret(db, RESET_SECRET), salt="password-reset")


def _fingerprint(db: Session, user: User) -> str:
    return keyed_hash(server_secret(db, RESET_SECRET), user.password_hash or "")[:24]


def reset_token(db: Session, user: User) -> str:
    """The token of a reset link for ``user`` (a registered account)."""
    return str(_signer(db).dumps([user.id, _fingerprint(db, user)]))


def _reset_user(db: Session, token: str, now: datetime) -> User:
    try:
        (user_id, fingerprint), made = _signer(db).loads(token, return_timestamp=True)
    except (BadSignature, ValueError, TypeError):
        raise NotFound(_("this reset link is not valid: was it cut short?")) from None
    if (now - made.astimezone(UTC)).total_seconds() > RESET_SECONDS:
        raise NotFound(_("this reset link has expired: ask for a new one"))
    user = db.get(User, user_id, populate_existing=True) if isinstance(user_id, int) else None
    if user is None or user.password_hash is None or _fingerprint(db, user) != fingerprint:
        raise NotFound(
            _("this reset link was used already (or the password changed since): ask for a new one")
        )
    return user


def check_reset_token(db: Session, token: str, now: datetime) -> User:
    """The account a reset link is for, or 404 saying why it no longer works."""
    return _reset_user(db, token, now)


def reset_password(db: Session, token: str, new: str, now: datetime) -> PasswordChanged:
    """Set ``new`` through a reset link (which then never works again); every session of
    the account is signed out."""
    user = _reset_user(db, token, now)
    user.password_hash = users.hash_password(new)
    return PasswordChanged(user, end_sessions(db, user.id))
