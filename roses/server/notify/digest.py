"""The daily digest: once a day, an e-mail to each account that asked for one, listing the
games waiting for its move. Nothing waits: no e-mail. The day of the last digest is claimed
in the database before the e-mail goes out, so that of several server processes looking at
the same moment exactly one sends it (and a failed sending gives the day back)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import ColumnElement, or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from ..accounts.secrets import server_secret
from ..db.models import User, utcnow
from ..i18n import SOURCE_LANGUAGE, _, moment, ngettext, speaking
from ..services import Services
from ..settings import Settings
from ..workers.periodic import repeated
from . import mail
from .notifications import (
    NotificationSettings,
    WaitingGame,
    confirmed_address,
    unsubscribe_token,
    waiting_games,
)

log = logging.getLogger("roses.server.notify.mail")
UNSUBSCRIBE_SECRET = "unsubscribe"


@dataclass(frozen=True)
class Digest:
    user_id: int
    name: str
    email: str
    language: str  # the account's language: the e-mail is written in it
    games: list[WaitingGame]
    previous: date | None  # the day of the digest before: given back if this one fails


def _not_sent_on(today: date) -> ColumnElement[bool]:
    sent_on = NotificationSettings.digest_sent_on
    return or_(sent_on.is_(None), sent_on < today)


def _claim(db: Session, user_id: int, today: date) -> Digest | None:
    """This account's digest for ``today``, claimed; None if nothing waits for it, it opted
    out, or another process claimed the day first."""
    choice = db.get(NotificationSettings, user_id, populate_existing=True)
    user = db.get(User, user_id)
    if choice is None or user is None or not choice.digest or not confirmed_address(choice):
        return None
    games = waiting_games(db, user_id)
    if not games:
        return None
    previous = choice.digest_sent_on
    claimed = db.execute(
        update(NotificationSettings)
        .where(NotificationSettings.user_id == user_id, _not_sent_on(today))
        .values(digest_sent_on=today)
        .execution_options(synchronize_session=False)
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        return None
    language = user.language or SOURCE_LANGUAGE
    return Digest(user_id, user.name, confirmed_address(choice) or "", language, games, previous)


def claim_digests(sessions: sessionmaker[Session], now: datetime) -> list[Digest]:
    """The digests due at ``now``: every opted-in account without one today, one short
    transaction each (a row is claimed only by the process whose update changed it)."""
    today = now.date()
    with sessions() as db:
        due = list(
            db.scalars(
                select(NotificationSettings.user_id).where(
                    NotificationSettings.digest.is_(True),
                    NotificationSettings.email.is_not(None),
                    NotificationSettings.email_confirmed_at.is_not(None),
                    _not_sent_on(today),
                )
            )
        )
    digests = []
    for user_id in due:
        with sessions.begin() as db:
            digest = _claim(db, user_id, today)
        if digest is not None:
            digests.append(digest)
    return digests


def _give_back(sessions: sessionmaker[Session], digest: Digest, today: date) -> None:
    with sessions.begin() as db:
        db.execute(
            update(NotificationSettings)
            .where(
                NotificationSettings.user_id == digest.user_id,
                NotificationSettings.digest_sent_on == today,
            )
            .values(digest_sent_on=digest.previous)
        )


def digest_mail(digest: Digest, settings: Settings, key: str) -> mail.Mail:
    """The e-mail: each waiting game with its link; how to stop these e-mails. Only what
    every game's envelope says (title, number, players, since when): never a game's state."""
    with speaking(digest.language):
        return _digest_mail(digest, settings, key)


def _digest_mail(digest: Digest, settings: Settings, key: str) -> mail.Mail:
    base = settings.public_url.rstrip("/")
    count = len(digest.games)
    lines = [
        _("Hello {name},", name=digest.name),
        "",
        ngettext(
            "This game is waiting for your move:", "These games are waiting for your move:", count
        ),
        "",
    ]
    for game in digest.games:
        lines.append(
            _(
                "{title}, game {number} (with {players}): your move since {since}",
                title=game.title,
                number=game.id,
                players=", ".join(game.others),
                since=moment(game.turn_since),
            )
        )
        lines.append(f"{base}/games/{game.id}")
        lines.append("")
    unsubscribe = f"{base}/unsubscribe/{unsubscribe_token(key, digest.user_id, 'digest')}"
    lines += [
        _("You get this e-mail at most once a day, and only when a game waits for you."),
        _("To receive no more of these e-mails: {url}", url=unsubscribe),
        _("Your settings: {url}", url=f"{base}/settings"),
    ]
    subject = ngettext(
        "roses: a game is waiting for your move",
        "roses: {n} games are waiting for your move",
        count,
    )
    return mail.Mail(digest.email, subject, "\n".join(lines) + "\n", unsubscribe)


def unsubscribe_key(sessions: sessionmaker[Session]) -> str:
    """The key that signs unsubscribe links (in a thread)."""
    with sessions.begin() as db:
        return server_secret(db, UNSUBSCRIBE_SECRET)


async def send_digests(app: Services, now: datetime | None = None) -> int:
    """Send the digests due at ``now`` (from ``digest_hour`` on each day); how many went."""
    settings: Settings = app.settings
    now = now or utcnow()
    if settings.smtp_url is None or now.hour < settings.digest_hour:
        return 0
    server = mail.smtp_server(settings.smtp_url)
    sessions: sessionmaker[Session] = app.sessions
    digests = await asyncio.to_thread(claim_digests, sessions, now)
    if not digests:
        return 0
    key = await asyncio.to_thread(unsubscribe_key, sessions)
    sent = 0
    for digest in digests:
        try:
            message = mail.compose(digest_mail(digest, settings, key), settings.mail_from)
            await mail.send(server, message)
            sent += 1
        except Exception:  # the SMTP server refused or is down: try again at the next look
            log.exception("the digest to account %s could not be sent", digest.user_id)
            await asyncio.to_thread(_give_back, sessions, digest, now.date())
    return sent


@asynccontextmanager
async def digests(app: Services) -> AsyncIterator[None]:
    """The periodic digest, for as long as the server runs (when it sends e-mail at all)."""
    if app.settings.smtp_url is None:
        yield
        return
    seconds = lambda: app.settings.digest_check_seconds  # noqa: E731
    async with repeated(lambda: send_digests(app), seconds, "sending the digests"):
        yield
