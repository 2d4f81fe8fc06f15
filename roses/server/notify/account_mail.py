"""The e-mails of an account's own keeping: the link that confirms an address, and the link
that resets a forgotten password. Each is sent because its owner asked, once; neither is
an opt-in, so neither has an unsubscribe link.

An address is used for nothing (digests, warnings, reset links) until its owner opens the
confirmation link sent there: the link is signed and names the account and the address,
so it confirms only that address, and only while it is still the account's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..accounts.passwords import RESET_SECONDS, reset_token
from ..accounts.secrets import server_secret
from ..accounts.users import find_user
from ..db.models import User
from ..errors import NotFound
from ..i18n import SOURCE_LANGUAGE, _, ngettext, speaking
from ..settings import Settings
from . import mail
from .notifications import NotificationSettings

CONFIRM_SECRET = "email-confirmation"
CONFIRM_SECONDS = 2 * 86400


@dataclass(frozen=True)
class Recipient:
    """An account to write to: its name, its address and its language."""

    user_id: int
    name: str
    email: str
    language: str


def _confirm_signer(db: Session) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(server_secret(db, CONFIRM_SECRET), salt="confirm-email")


def confirmation_token(db: Session, user_id: int, email: str) -> str:
    return str(_confirm_signer(db).dumps([user_id, email]))


def confirm_address(db: Session, token: str, now: datetime) -> str:
    """Confirm the address a link names (404 saying why it cannot); the address."""
    try:
        (user_id, email), made = _confirm_signer(db).loads(token, return_timestamp=True)
    except (BadSignature, ValueError, TypeError):
        raise NotFound(_("this confirmation link is not valid: was it cut short?")) from None
    if (now - made.astimezone(UTC)).total_seconds() > CONFIRM_SECONDS:
        raise NotFound(_("this confirmation link has expired: send a new one from your settings"))
    row = db.get(NotificationSettings, user_id) if isinstance(user_id, int) else None
    if row is None or row.email != email:
        raise NotFound(_("this link is for an address that is no longer on the account"))
    if row.email_confirmed_at is None:
        row.email_confirmed_at = now
    return str(email)


def recipient(user: User, email: str) -> Recipient:
    return Recipient(user.id, user.name, email, user.language or SOURCE_LANGUAGE)


def reset_recipients(db: Session, account: str) -> list[Recipient]:
    """The registered accounts a reset request names (by name, or by confirmed address),
    each with its confirmed address: none if nothing matches, which the caller never says."""
    if "@" in account:
        try:
            address = mail.normal_address(account)
        except ValueError:
            return []
        rows = db.execute(
            select(User, NotificationSettings.email)
            .join(NotificationSettings, NotificationSettings.user_id == User.id)
            .where(
                NotificationSettings.email == address,
                NotificationSettings.email_confirmed_at.is_not(None),
            )
        ).all()
        found = [(user, email) for user, email in rows]
    else:
        user = find_user(db, account)
        row = None if user is None else db.get(NotificationSettings, user.id)
        confirmed = row is not None and row.email_confirmed_at is not None
        found = [(user, row.email)] if user is not None and row is not None and confirmed else []
    return [
        recipient(user, email)
        for user, email in found
        if email is not None and user.password_hash is not None
    ]


def confirmation_mail(to: Recipient, token: str, settings: Settings) -> mail.Mail:
    url = f"{settings.public_url.rstrip('/')}/confirm-email/{token}"
    with speaking(to.language):
        lines = [
            _("Hello {name},", name=to.name),
            "",
            _("to receive the e-mails you chose at roses at this address, confirm it:"),
            url,
            "",
            _("Until then no e-mail goes to this address. If you did not ask for this, ignore it."),
        ]
        subject = _("roses: confirm your e-mail address")
    return mail.Mail(to.email, subject, "\n".join(lines) + "\n")


def reset_mail(to: Recipient, token: str, settings: Settings) -> mail.Mail:
    url = f"{settings.public_url.rstrip('/')}/reset-password/{token}"
    with speaking(to.language):
        lines = [
            _("Hello {name},", name=to.name),
            "",
            _("to choose a new password for your account at roses, open this link:"),
            url,
            "",
            ngettext(
                "It works once, within {n} minute. If you did not ask for it, ignore "
                "this e-mail: your password stays as it is.",
                "It works once, within {n} minutes. If you did not ask for it, ignore "
                "this e-mail: your password stays as it is.",
                RESET_SECONDS // 60,
            ),
        ]
        subject = _("roses: choose a new password")
    return mail.Mail(to.email, subject, "\n".join(lines) + "\n")


def reset_mail_for(db: Session, to: Recipient, settings: Settings) -> mail.Mail:
    user = db.get(User, to.user_id)
    assert user is not None
    return reset_mail(to, reset_token(db, user), settings)
