"""The outbox's sender: every ``reach_check_seconds`` it takes the messages due, sends
each once, and retries a failure with back-off.

Exactly once across server processes: a message is taken by one conditional UPDATE
(``claimed_until``, a lease of a minute) that only one process can win; the winner sends it
and then marks it done, or due again later. A process killed between sending and marking
leaves the lease to run out, and the message is sent again then: the only case of a second
delivery (a webhook receiver sees the same ``X-Roses-Delivery`` twice).

A failure that may pass (no answer, 429, 5xx) is tried again after ``reach_retry_seconds``,
doubled at each try, until ``reach_max_tries``; a push service that says the subscription
is gone (404, 410) ends it; any other refusal gives up at once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from ..db.models import ActionRow, Game, GameStatus, Seat, User
from ..i18n import SOURCE_LANGUAGE, _, moment, speaking
from ..services import Services
from ..settings import Settings
from ..workers.periodic import repeated
from . import push, webhooks
from .reach import OutboxMessage, PushSubscription, ReachChoices

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=1)
BATCH = 100
KEPT = timedelta(days=7)  # a message done is kept this long (its key: no second message)


@dataclass(frozen=True)
class Delivery:
    """A message taken for sending, with all that sending it needs."""

    id: int
    channel: str
    subscription_id: int | None
    target: str  # the push endpoint or the webhook's URL
    keys: tuple[str, str]  # push: the browser's p256dh and auth; webhook: (secret, "")
    payload: dict[str, Any]


def old_news(db: Session, row: OutboxMessage) -> str | None:
    """Why a message is no longer worth sending (its outcome), or None. A turn is old
    once its player saw the game at that version, played it, or the game ended."""
    choices = db.get(ReachChoices, row.user_id)
    if choices is None or not getattr(choices, row.kind):
        return "off"  # opted out meanwhile
    if row.kind != "turn" or row.game_id is None or row.seat is None or row.version is None:
        return None
    game = db.get(Game, row.game_id)
    seat = db.get(Seat, (row.game_id, row.seat))
    if game is None or seat is None or game.status != GameStatus.ACTIVE:
        return "over"
    if seat.user_id != row.user_id:
        return "over"
    if seat.seen_version is not None and seat.seen_version >= row.version:
        return "seen"
    acted = select(ActionRow.id).where(
        ActionRow.game_id == row.game_id,
        ActionRow.seat == row.seat,
        ActionRow.version > row.version,
    )
    if db.scalar(acted.limit(1)) is not None:
        return "acted"
    return None


def sentence(kind: str, facts: dict[str, Any], game_id: int | None) -> str:
    """What the message says, in the current language."""
    if kind == "turn":
        return _("It is your turn in {title}, game {number}.", title=facts["title"], number=game_id)
    if kind == "deadline":
        return _(
            "Your time in {title}, game {number}, runs out at {deadline}.",
            title=facts["title"],
            number=game_id,
            deadline=moment(datetime.fromisoformat(facts["deadline"])),
        )
    if kind == "challenge":
        return _(
            "{name} invites you to {title}, game {number}.",
            name=facts["by"],
            title=facts["title"],
            number=game_id,
        )
    return _(
        "Round {round} of {tournament} starts.",
        round=facts["round"],
        tournament=facts["tournament"],
    )


def payload(row: OutboxMessage, user: User, settings: Settings) -> dict[str, Any]:
    """The message's JSON: the sentence in the person's language and the same as data
    (the kind, the game, whose news it is, a link); plain values only."""
    language = user.language or SOURCE_LANGUAGE
    with speaking(language):
        text = sentence(row.kind, row.facts, row.game_id)
    path = row.facts.get("path") or (f"/games/{row.game_id}" if row.game_id else "/")
    message: dict[str, Any] = {
        "kind": row.kind,
        "text": text,
        "url": settings.public_url.rstrip("/") + path,
        "game_id": row.game_id,
        "game": row.facts.get("game"),
        "title": row.facts.get("title"),
        "player": user.name,  # whose turn (or time, or invitation) it is
        "language": language,
    }
    if row.kind == "tournament":
        message["tournament"] = row.facts.get("tournament")
        message["round"] = row.facts.get("round")
    return message


def _delivery(
    db: Session, row: OutboxMessage, settings: Settings, now: datetime
) -> Delivery | None:
    user = db.get(User, row.user_id)
    if user is None:
        return None
    message = payload(row, user, settings)
    if row.channel == "push":
        subscription = db.get(PushSubscription, row.subscription_id)
        if subscription is None:
            return None
        # The service worker shows ``title`` and ``body``; a click opens ``url``; a game's
        # newer message takes the place of its older one (``tag``).
        tag = f"roses-game-{row.game_id}" if row.game_id else f"roses-{row.kind}"
        data = {**message, "title": "roses", "body": message["text"], "tag": tag}
        keys = (subscription.p256dh_key, subscription.auth_key)
        return Delivery(row.id, row.channel, subscription.id, subscription.endpoint, keys, data)
    choices = db.get(ReachChoices, row.user_id)
    if choices is None or not choices.webhook_url or not choices.webhook_secret:
        return None
    hook = {"content": message["text"], **message, "sent_at": now.isoformat(), "id": row.id}
    return Delivery(
        row.id, row.channel, None, choices.webhook_url, (choices.webhook_secret, ""), hook
    )


def claim_due(sessions: sessionmaker[Session], settings: Settings, now: datetime) -> list[Delivery]:
    """The messages due at ``now``, each taken by this process alone (old news is marked
    done here, unsent); messages done more than a week ago are deleted."""
    free = or_(OutboxMessage.claimed_until.is_(None), OutboxMessage.claimed_until <= now)
    with sessions.begin() as db:
        db.execute(
            delete(OutboxMessage).where(
                OutboxMessage.due_at < now - KEPT, OutboxMessage.done_at.is_not(None)
            )
        )
        due = db.scalars(
            select(OutboxMessage.id)
            .where(OutboxMessage.done_at.is_(None), OutboxMessage.due_at <= now, free)
            .order_by(OutboxMessage.due_at, OutboxMessage.id)
            .limit(BATCH)
        ).all()
    taken = []
    for message_id in due:
        with sessions.begin() as db:
            won = db.execute(
                update(OutboxMessage)
                .where(OutboxMessage.id == message_id, OutboxMessage.done_at.is_(None), free)
                .values(claimed_until=now + LEASE, attempts=OutboxMessage.attempts + 1)
            )
            if won.rowcount != 1:  # type: ignore[attr-defined]
                continue  # another process took it
            row = db.get(OutboxMessage, message_id)
            assert row is not None
            outcome = old_news(db, row)
            delivery = None if outcome is not None else _delivery(db, row, settings, now)
            if delivery is None:
                row.done_at, row.outcome, row.claimed_until = now, outcome or "off", None
                continue
            taken.append(delivery)
    return taken


def settle(
    sessions: sessionmaker[Session],
    settings: Settings,
    delivery: Delivery,
    outcome: str,
    now: datetime,
) -> None:
    """Record how a try went: ``sent``, ``retry`` (due again after a back-off, or given up
    after the last try), ``gone`` (the browser's subscription ended: it is deleted, with
    its messages) or ``refused``."""
    with sessions.begin() as db:
        if outcome == "gone" and delivery.subscription_id is not None:
            gone = delivery.subscription_id
            db.execute(delete(OutboxMessage).where(OutboxMessage.subscription_id == gone))
            db.execute(delete(PushSubscription).where(PushSubscription.id == gone))
            return
        row = db.get(OutboxMessage, delivery.id)
        if row is None:
            return
        row.claimed_until = None
        if outcome == "retry" and row.attempts < settings.reach_max_tries:
            delay = settings.reach_retry_seconds * 2 ** (row.attempts - 1)
            row.due_at = now + timedelta(seconds=delay)
            return
        row.done_at = now
        row.outcome = "gave_up" if outcome == "retry" else outcome


def _passing(status: int | None) -> bool:
    """Whether a failure may pass if tried again later."""
    return status is None or status == 429 or status >= 500


async def deliver(app: Services, delivery: Delivery) -> str:
    """Send one message; its outcome (see ``settle``)."""
    settings = app.settings
    try:
        if delivery.channel == "push":
            vapid = await app.reach.vapid()
            p256dh, auth = delivery.keys
            await push.send(settings, vapid, delivery.target, p256dh, auth, delivery.payload)
        else:
            secret = delivery.keys[0]
            await webhooks.send(settings, delivery.target, secret, delivery.payload, delivery.id)
    except push.PushRefused as refusal:
        if refusal.status in (404, 410):
            return "gone"
        return "retry" if _passing(refusal.status) else "refused"
    except webhooks.HookFailed as failure:
        return "retry" if _passing(failure.status) else "refused"
    return "sent"


async def send_due(app: Services) -> int:
    """Send every message due now (the server's clock); how many went."""
    now = app.now()
    taken = await asyncio.to_thread(claim_due, app.sessions, app.settings, now)
    # All at once: a slow receiver holds up nobody (each try ends within its timeout,
    # well inside the lease).
    outcomes = await asyncio.gather(
        *(deliver(app, delivery) for delivery in taken), return_exceptions=True
    )
    sent = 0
    for delivery, outcome in zip(taken, outcomes, strict=True):
        if isinstance(outcome, BaseException):  # a bug in one message stops no other
            log.error("outbox message %d could not be sent", delivery.id, exc_info=outcome)
            outcome = "retry"
        elif outcome != "sent":
            log.info("outbox message %d: %s", delivery.id, outcome)
        await asyncio.to_thread(settle, app.sessions, app.settings, delivery, outcome, app.now())
        sent += outcome == "sent"
    return sent


@asynccontextmanager
async def sending(app: Services) -> AsyncIterator[None]:
    """The outbox's sender and the writer of the live games' news, for as long as the
    server runs."""
    seconds = lambda: app.settings.reach_check_seconds  # noqa: E731
    async with (
        app.reach.listening(),
        repeated(lambda: send_due(app), seconds, "sending the outbox"),
    ):
        yield
