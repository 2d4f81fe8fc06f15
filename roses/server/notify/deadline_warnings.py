"""The warning before a correspondence deadline: once a person has used 80% of the time
for a decision (``clocks.due_warnings``), their open pages say so (a ``deadline`` message
on their lobby socket) and, if they asked for it and do not have the game open right now,
an e-mail goes out. Live clocks are on the player's screen already: no warning for them.
The same warning goes by web push and webhook to whoever chose them (``reach.py``).
A vacation moves the warning's moment with the deadline (``clocks.time_control.pause``), and
``mark_warned`` checks it again: nobody is warned while away."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from ..clocks.time_control import ClockWarning, TimeControl, due_warnings, mark_warned
from ..db.models import Game, Seat, User
from ..i18n import SOURCE_LANGUAGE, _, moment, speaking
from ..play.hub import Hub
from ..play.live_games import GameHeader
from ..services import Services
from ..settings import Settings
from ..workers.periodic import repeated
from . import mail, reach
from .digest import unsubscribe_key
from .notifications import (
    NotificationSettings,
    confirmed_address,
    other_players,
    unsubscribe_token,
)

log = logging.getLogger("roses.server.notify.mail")


@dataclass(frozen=True)
class DeadlineWarning:
    """A warning to give: to whom, about which game, and whether by e-mail too."""

    clock: ClockWarning
    title: str
    others: tuple[str, ...]
    name: str
    language: str
    email: str | None  # None: no e-mail (not asked for, or no confirmed address)


def claim_warning(db: Session, clock: ClockWarning, now: datetime) -> DeadlineWarning | None:
    """The warning to give, recorded as given; None for a live clock or if the decision
    is over meanwhile."""
    game = db.get(Game, clock.game_id)
    user = db.get(User, clock.user_id)
    control = TimeControl.from_json(game.time_control) if game is not None else None
    if game is None or user is None or control is None or control.live:
        return None
    # Another server process may be looking at the same moment: the seat's row is locked
    # (PostgreSQL) and read again, so that only the first one warns.
    warned = db.scalar(
        select(Seat.warned_at)
        .where(Seat.game_id == clock.game_id, Seat.seat == clock.seat)
        .with_for_update()
    )
    if warned is not None or not mark_warned(db, clock, now):
        return None
    header = GameHeader(game)
    choice = db.get(NotificationSettings, user.id)
    wants_mail = choice is not None and choice.deadline_warning
    return DeadlineWarning(
        clock,
        header.module.title,
        other_players(header, clock.seat),
        user.name,
        user.language or SOURCE_LANGUAGE,
        confirmed_address(choice) if wants_mail and choice is not None else None,
    )


def claim_warnings(sessions: sessionmaker[Session], now: datetime) -> list[DeadlineWarning]:
    with sessions() as db:
        due = due_warnings(db, now)
    warnings = []
    for clock in due:
        with sessions.begin() as db:
            warning = claim_warning(db, clock, now)
        if warning is not None:
            warnings.append(warning)
    return warnings


def warning_mail(warning: DeadlineWarning, settings: Settings, key: str) -> mail.Mail:
    """What the e-mail says: the game (its envelope only) and when the time runs out."""
    base = settings.public_url.rstrip("/")
    number = warning.clock.game_id
    unsubscribe = (
        f"{base}/unsubscribe/{unsubscribe_token(key, warning.clock.user_id, 'deadline_warning')}"
    )
    with speaking(warning.language):
        lines = [
            _("Hello {name},", name=warning.name),
            "",
            _(
                "your time to move in {title}, game {number} (with {players}), runs out "
                "at {deadline}.",
                title=warning.title,
                number=number,
                players=", ".join(warning.others),
                deadline=moment(warning.clock.deadline),
            ),
            f"{base}/games/{number}",
            "",
            _("To receive no more of these warnings: {url}", url=unsubscribe),
            _("Your settings: {url}", url=f"{base}/settings"),
        ]
        subject = _("roses: your time in game {number} runs short", number=number)
    return mail.Mail(warning.email or "", subject, "\n".join(lines) + "\n", unsubscribe)


def _watching(hub: Hub, warning: DeadlineWarning) -> bool:
    watchers = hub.game_watchers(warning.clock.game_id)
    return any(watcher.user_id == warning.clock.user_id for watcher in watchers)


async def _tell(app: Services, warning: DeadlineWarning) -> None:
    """The warning by web push and webhook too, for whoever chose them (``reach.py``)."""
    clock = warning.clock
    facts = {"title": warning.title, "deadline": clock.deadline.isoformat()}
    subject = f"game:{clock.game_id}:seat:{clock.seat}:deadline:{clock.deadline.isoformat()}"
    try:
        await reach.tell(app.reach, clock.user_id, "deadline", subject, facts, clock.game_id)
    except Exception:  # the page said it already
        log.exception("the deadline warning to account %s was not queued", clock.user_id)


async def send_warnings(app: Services, now: datetime | None = None) -> int:
    """Warn everyone due at ``now`` (the server's clock); how many e-mails went."""
    settings: Settings = app.settings
    sessions: sessionmaker[Session] = app.sessions
    hub: Hub = app.hub
    now = now or app.now()
    warnings = await asyncio.to_thread(claim_warnings, sessions, now)
    sent = 0
    for warning in warnings:
        hub.notify_lobbies(
            {warning.clock.user_id},
            {
                "type": "deadline",
                "game_id": warning.clock.game_id,
                "deadline": warning.clock.deadline.isoformat(),
            },
        )
        if _watching(hub, warning):
            continue
        await _tell(app, warning)
        if warning.email is None or settings.smtp_url is None:
            continue
        try:
            key = await asyncio.to_thread(unsubscribe_key, sessions)
            message = mail.compose(warning_mail(warning, settings, key), settings.mail_from)
            await mail.send(mail.smtp_server(settings.smtp_url), message)
            sent += 1
        except Exception:  # the page said it already; the e-mail is not tried again
            log.exception("the deadline warning to account %s failed", warning.clock.user_id)
    return sent


@asynccontextmanager
async def deadline_warnings(app: Services) -> AsyncIterator[None]:
    """The periodic look for warnings to give, for as long as the server runs."""
    seconds = lambda: app.settings.warning_check_seconds  # noqa: E731
    async with repeated(lambda: send_warnings(app), seconds, "sending the deadline warnings"):
        yield
