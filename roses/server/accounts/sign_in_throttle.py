"""Failed sign-ins are throttled so that a stranger cannot lock an owner out.

Every source has its own counts: an address (all names tried from it), a name from one
address, and a browser that has signed in to the name before (its device cookie, signed by
the server, lists the accounts it signed in to). The name alone is slowed down too, against
guessing from many addresses at once, but only for sources the name has never seen: its
owner, from an address they signed in from before or in a browser they signed in with,
does not feel it. docs/configuration.md states the policy.

- a browser that signed in to the account before: ``login_failures_per_device`` alone;
- an address the account signed in from before: ``login_failures_per_address`` and
  ``login_failures_per_account_address``;
- anyone else: those two, and ``login_failures_per_account``.

Known addresses are kept as keyed hashes (``sign_in_addresses``), never as addresses.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..db.models import Base, User, utcnow
from ..i18n import N_
from ..settings import Window
from .secrets import keyed_hash, server_secret

DEVICE_COOKIE = "roses_device"
DEVICE_SECRET = "sign-in-devices"
DEVICE_DAYS = 400  # browsers keep a cookie at most about this long
DEVICE_ACCOUNTS = 8  # a shared browser remembers this many accounts, the latest


class SignInAddress(Base):
    """An address an account signed in from (its keyed hash), and when last."""

    __tablename__ = "sign_in_addresses"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    address_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    last_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


@dataclass(frozen=True)
class Device:
    """A browser, by the signed cookie it carries: its id and the accounts it signed in to."""

    id: str
    accounts: tuple[int, ...]


@dataclass(frozen=True)
class Limit:
    window: Window
    key: str
    message: str


def _signer(db: Session) -> URLSafeSerializer:
    return URLSafeSerializer(server_secret(db, DEVICE_SECRET), salt="device")


def read_device(db: Session, cookie: str | None) -> Device | None:
    """The browser a device cookie names; None if it has none, or one not made here."""
    if not cookie:
        return None
    try:
        device_id, accounts = _signer(db).loads(cookie)
    except (BadSignature, ValueError, TypeError):
        return None
    if not isinstance(device_id, str) or not isinstance(accounts, list):
        return None
    return Device(device_id, tuple(a for a in accounts if isinstance(a, int)))


def device_cookie(db: Session, device: Device | None, user_id: int) -> str:
    """The device cookie after ``user_id`` signed in on this browser."""
    device_id = device.id if device else secrets.token_urlsafe(12)
    earlier = [a for a in (device.accounts if device else ()) if a != user_id]
    return str(_signer(db).dumps([device_id, [*earlier, user_id][-DEVICE_ACCOUNTS:]]))


def _address_key(db: Session, address: str) -> str:
    return keyed_hash(server_secret(db, DEVICE_SECRET), address)


def known_address(db: Session, user_id: int, address: str) -> bool:
    key = _address_key(db, address)
    return db.get(SignInAddress, (user_id, key)) is not None


def remember_address(db: Session, user_id: int, address: str) -> None:
    """``user_id`` signed in from ``address``: it is a known source from now on."""
    key = _address_key(db, address)
    row = db.get(SignInAddress, (user_id, key))
    if row is None:
        db.add(SignInAddress(user_id=user_id, address_key=key, last_at=utcnow()))
    else:
        row.last_at = utcnow()


def limits_for(
    db: Session, user: User | None, name_key: str, address: str, device: Device | None
) -> list[Limit]:
    """The windows a sign-in to ``name_key`` from this source is checked against (and its
    failure counted in)."""
    if user is not None and device is not None and user.id in device.accounts:
        return [
            Limit(
                "login_failures_per_device",
                f"{name_key}|{device.id}",
                N_("too many failed sign-ins to this name in this browser"),
            )
        ]
    limits = [
        Limit(
            "login_failures_per_address", address, N_("too many failed sign-ins from your address")
        ),
        Limit(
            "login_failures_per_account_address",
            f"{name_key}|{address}",
            N_("too many failed sign-ins to this name from your address"),
        ),
    ]
    if user is None or not known_address(db, user.id, address):
        limits.append(
            Limit(
                "login_failures_per_account",
                name_key,
                N_("too many failed sign-ins to this name from unknown places"),
            )
        )
    return limits
