"""Keys every server process shares (made by the first that needs one): what signs the
links of e-mails (unsubscribing, resetting a password, confirming an address), the
device cookie of the sign-in throttle, and the VAPID key of web push (notify/push.py)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable

from sqlalchemy import String, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..db.models import Base


class ServerSecret(Base):
    """A key every server process shares (made by the first that needs it)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


def random_key() -> str:
    return secrets.token_urlsafe(48)


def server_secret(db: Session, name: str, make: Callable[[], str] = random_key) -> str:
    """The shared secret ``name``, made once by ``make`` (at most 128 characters; the first
    process to insert it wins)."""
    stored = db.get(ServerSecret, name)
    if stored is not None:
        return stored.value
    try:
        with db.begin_nested():
            db.add(ServerSecret(name=name, value=make()))
    except IntegrityError:  # another process made it at the same moment: use theirs
        pass
    value = db.scalar(select(ServerSecret.value).where(ServerSecret.name == name))
    assert value is not None
    return value


def keyed_hash(key: str, text: str) -> str:
    """``text`` kept only as a keyed hash (HMAC-SHA256): an address, say, that the server
    must recognise but need not know."""
    return hmac.new(key.encode(), text.encode(), hashlib.sha256).hexdigest()
