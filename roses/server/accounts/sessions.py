"""An account's signed-in browsers: the list its owner sees, and ending some or all of them
(the live layer then closes their sockets in every process: ``sign_outs``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from ..db.models import LoginSession, as_utc, utcnow

# A session is named to its owner by the start of its token's hash: enough to tell them
# apart, and nothing that would sign anyone in.
SESSION_ID_LENGTH = 16


@dataclass(frozen=True)
class SessionInfo:
    id: str
    created_at: datetime
    expires_at: datetime
    user_agent: str | None
    current: bool


def session_id(token_hash: str) -> str:
    return token_hash[:SESSION_ID_LENGTH]


def sessions_of(db: Session, user_id: int, current_hash: str) -> list[SessionInfo]:
    """The account's unexpired sessions, newest first; ``current_hash`` is this browser's."""
    rows = db.scalars(
        select(LoginSession)
        .where(LoginSession.user_id == user_id, LoginSession.expires_at >= utcnow())
        .order_by(LoginSession.created_at.desc())
    )
    return [
        SessionInfo(
            id=session_id(row.token_hash),
            created_at=as_utc(row.created_at),
            expires_at=as_utc(row.expires_at),
            user_agent=row.user_agent,
            current=row.token_hash == current_hash,
        )
        for row in rows
    ]


def end_sessions(
    db: Session, user_id: int, *, keep: str | None = None, only: str | None = None
) -> list[str]:
    """End the account's sessions (all but ``keep``, a token hash; or only the one whose id
    is ``only``); the token hashes ended, for ``sign_outs``."""
    query = delete(LoginSession).where(LoginSession.user_id == user_id)
    if keep is not None:
        query = query.where(LoginSession.token_hash != keep)
    if only is not None:
        query = query.where(LoginSession.token_hash.startswith(only, autoescape=True))
    return list(db.scalars(query.returning(LoginSession.token_hash)))
