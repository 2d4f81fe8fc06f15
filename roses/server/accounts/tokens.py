"""Personal API tokens: what a program (a bot account's, or a person's script) signs in with,
as ``Authorization: Bearer <token>`` on HTTP and on the WebSockets' handshake.

A token is a random secret shown once, when its owner makes it on /settings; only its
sha256 is kept, with a label, its scopes and when it was last used. Its owner revokes it
there. A token reaches only the routes of playing (``TOKEN_TAGS``: the games, the lobby,
the ratings, the bot streams), never the account's own settings, and within them:

- ``read``: what a GET answers (views, lists, profiles, the streams);
- ``play``: also what changes something (create, join, move, resign, ...); it reads too.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy import DateTime, ForeignKey, Integer, String, delete, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..db.models import Base, User, as_utc, utcnow
from ..errors import Conflict, Forbidden, NotFound, NotSignedIn
from ..i18n import _

PREFIX = "roses_"  # tells a token from a session cookie's at a glance (and to scanners)
MAX_TOKENS = 20  # per account
# A token's last use is written at most this often: a bot's every move costs no write.
LAST_USE_STEP = timedelta(minutes=1)
# The route tags a token may be used on (``signed_in``); everything else is the site's.
TOKEN_TAGS = frozenset({"play", "lobby", "ratings", "bots"})


class Scope(StrEnum):
    READ = "read"
    PLAY = "play"


class ApiToken(Base):
    """One personal API token of an account (0018). The secret itself is never kept."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(64))
    scopes: Mapped[str] = mapped_column(String(32))  # space-separated Scope values
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


@dataclass(frozen=True)
class TokenInfo:
    """What its owner's list shows of a token: never the secret, nor its hash."""

    id: int
    label: str
    scopes: list[str]
    created_at: datetime
    last_used_at: datetime | None


@dataclass(frozen=True)
class TokenUser:
    """The account a token signs in, what the token may do, and its hash (its sockets'
    session: revoking it closes them)."""

    user: User
    scopes: frozenset[Scope]
    token_hash: str


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if that is what it is."""
    if not authorization:
        return None
    kind, _space, token = authorization.strip().partition(" ")
    token = token.strip()
    return token if kind.lower() == "bearer" and token else None


def _info(row: ApiToken) -> TokenInfo:
    return TokenInfo(
        id=row.id,
        label=row.label,
        scopes=row.scopes.split(),
        created_at=as_utc(row.created_at),
        last_used_at=None if row.last_used_at is None else as_utc(row.last_used_at),
    )


def tokens_of(db: Session, user_id: int) -> list[TokenInfo]:
    """The account's tokens, newest first."""
    rows = db.scalars(
        select(ApiToken)
        .where(ApiToken.user_id == user_id)
        .order_by(ApiToken.created_at.desc(), ApiToken.id.desc())
    )
    return [_info(row) for row in rows]


def create_token(db: Session, user: User, label: str, scopes: set[Scope]) -> tuple[str, TokenInfo]:
    """A new token for ``user``: the secret (to be shown once) and what its list shows."""
    if user.is_guest:
        raise Conflict(_("guests have no API tokens: register first"))
    count = len(tokens_of(db, user.id))
    if count >= MAX_TOKENS:
        raise Conflict(_("you have {most} API tokens already: revoke one first", most=MAX_TOKENS))
    token = PREFIX + secrets.token_urlsafe(32)
    row = ApiToken(
        user_id=user.id,
        token_hash=hash_token(token),
        label=label,
        scopes=" ".join(sorted(scopes)),
        created_at=utcnow(),
    )
    db.add(row)
    db.flush()
    return token, _info(row)


def revoke_token(db: Session, user_id: int, token_id: int) -> str:
    """Revoke one of the account's tokens; its hash (its sockets are closed)."""
    ended = db.scalar(
        delete(ApiToken)
        .where(ApiToken.id == token_id, ApiToken.user_id == user_id)
        .returning(ApiToken.token_hash)
    )
    if ended is None:
        raise NotFound(_("you have no API token {id}", id=token_id))
    return str(ended)


def token_hashes_of(db: Session, user_id: int) -> list[str]:
    return list(db.scalars(select(ApiToken.token_hash).where(ApiToken.user_id == user_id)))


def user_of_token(db: Session, token: str) -> TokenUser:
    """The account ``token`` signs in (its last use noted); ``NotSignedIn`` if it is unknown
    or revoked."""
    row = db.scalar(select(ApiToken).where(ApiToken.token_hash == hash_token(token)))
    user = None if row is None else db.get(User, row.user_id)
    if row is None or user is None or user.deleted_at is not None:
        raise NotSignedIn(_("this API token is unknown or was revoked"))
    now = utcnow()
    if row.last_used_at is None or as_utc(row.last_used_at) + LAST_USE_STEP <= now:
        row.last_used_at = now
    scopes = frozenset(Scope(scope) for scope in row.scopes.split())
    if Scope.PLAY in scopes:  # what may play may read what it plays
        scopes |= {Scope.READ}
    return TokenUser(user, scopes, row.token_hash)


def check_scope(signed: TokenUser, needed: Scope) -> None:
    """``Forbidden`` with a sentence unless the token has ``needed`` (every token reads)."""
    if needed not in signed.scopes:
        raise read_only()


def read_only() -> Forbidden:
    return Forbidden(
        _(
            "this API token may only read: to play, make a token with the 'play' scope "
            "on the settings page"
        )
    )


def refuse_here() -> Forbidden:
    return Forbidden(_("an API token is not accepted here: this is done on the site, signed in"))
