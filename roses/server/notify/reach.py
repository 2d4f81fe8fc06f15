"""Reaching a person away from the site: web push to their browsers and a webhook of their
own, for the kinds of news they opted in to on /settings.

News goes through an outbox (``OutboxMessage``): one row per channel and piece of news,
written off the path of a move, sent later by the sender job (``outbox.py``), which
retries with back-off and gives up after ``reach_max_tries``. A row's ``key`` is unique:
a piece of news is recorded at most once per browser (push) or account (webhook), however
many server processes hear of it, so a person hears of a game's turn once.

Where news comes from:

- **turn**: the live games tell ``Reach`` (a ``ChangeListener``) of every change; a seat
  whose turn began with that version is news. It is sent only if the occupant has not seen
  the game at that version meanwhile: their page, while in sight, reports the newest
  version it shows (``{"type": "seen", "version": v}`` on the game's socket, stored as
  ``Seat.seen_version``), and the row waits ``reach_grace_seconds`` before it is sent,
  time for an open page to report. A turn already played (the seat acted since) or a game
  over is not sent either.
- **deadline**: the 80% warning of a correspondence clock (``deadline_warnings.py``),
  unless the person is watching the game then.
- **challenge**: a friend (people/relations.py) invites the person to a new game.
- **tournament**: a tournament's round starts; the tournaments room calls ``tell``.

What a message says: the kind, the game (its number and title) or the tournament, whose
turn it is in words, and a link; never a seat's hand, pile or plan (the facts are taken
from the game's envelope only)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal, get_args

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from ..clocks.time_control import ServerTime
from ..db.models import Base, GameStatus, utcnow
from ..people.relations import are_friends
from ..play.live_games import LiveGame
from ..settings import Settings
from ..workers.periodic import repeated
from . import push

log = logging.getLogger(__name__)

ReachKind = Literal["turn", "deadline", "tournament", "challenge"]
REACH_KINDS: tuple[ReachKind, ...] = get_args(ReachKind)
Channel = Literal["push", "webhook"]


class ReachChoices(Base):
    """What one account wants to hear of away from the site, and its webhook; an account
    without a row hears of nothing."""

    __tablename__ = "reach_choices"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    turn: Mapped[bool] = mapped_column(Boolean, default=False)  # a game became my turn
    deadline: Mapped[bool] = mapped_column(Boolean, default=False)  # my time runs short
    tournament: Mapped[bool] = mapped_column(Boolean, default=False)  # a round starts
    challenge: Mapped[bool] = mapped_column(Boolean, default=False)  # a friend invites me
    webhook_url: Mapped[str | None] = mapped_column(String(500))
    # The key of the webhook's signature (HMAC-SHA256 of the body), shown once when made.
    webhook_secret: Mapped[str | None] = mapped_column(String(64))


class PushSubscription(Base):
    """One browser's push subscription (the Push API's ``PushSubscription.toJSON()``)."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1000), unique=True)
    p256dh_key: Mapped[str] = mapped_column(String(200))  # the browser's public key
    auth_key: Mapped[str] = mapped_column(String(100))  # its authentication secret
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class OutboxMessage(Base):
    """A piece of news to send on one channel; ``done_at`` once sent, skipped or given up
    (``outcome`` says which)."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)  # at most once per news
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    channel: Mapped[str] = mapped_column(String(8))  # a Channel
    subscription_id: Mapped[int | None] = mapped_column(
        ForeignKey("push_subscriptions.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(16))  # a ReachKind
    game_id: Mapped[int | None] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer)
    # A turn's: the game's version when the news was heard; seen at it, or acted after it,
    # the news is old.
    version: Mapped[int | None] = mapped_column(Integer)
    facts: Mapped[dict[str, Any]] = mapped_column(JSON)  # what the message's words name
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    # A sender holds the row until then (another process takes it over only after).
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    done_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    outcome: Mapped[str | None] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


def choices_for(db: Session, user_id: int) -> ReachChoices:
    """The account's row, or a new one (added to ``db``) with every choice off."""
    row = db.get(ReachChoices, user_id)
    if row is None:
        row = ReachChoices(
            user_id=user_id,
            turn=False,
            deadline=False,
            tournament=False,
            challenge=False,
            webhook_url=None,
            webhook_secret=None,
        )
        db.add(row)
    return row


def new_webhook_secret() -> str:
    return secrets.token_hex(32)


@dataclass(frozen=True)
class News:
    """A piece of news for one person. ``subject`` names it among all news of its kind
    (a game's turn: the game and the version that turn began); ``facts`` are what the
    message's words name (plain values from the game's envelope, never its state)."""

    user_id: int
    kind: ReachKind
    subject: str
    facts: dict[str, Any] = field(default_factory=dict)
    game_id: int | None = None
    seat: int | None = None
    version: int | None = None
    heard_at: datetime | None = None  # None: when written to the outbox


def record(db: Session, news: News, due_at: datetime) -> int:
    """The outbox rows of ``news``, one per channel the person chose (each browser of
    theirs, their webhook); none if they did not opt in to its kind, or if recorded
    already. How many rows were added."""
    choices = db.get(ReachChoices, news.user_id)
    if choices is None or not getattr(choices, news.kind):
        return 0
    if news.kind == "challenge":  # only a friend's invitation is news away from the site
        by = news.facts.get("by_id")
        if not isinstance(by, int) or not are_friends(db, news.user_id, by):
            return 0
    targets: list[tuple[str, int | None]] = [
        (f"push:{subscription}", subscription)
        for subscription in db.scalars(
            select(PushSubscription.id).where(PushSubscription.user_id == news.user_id)
        )
    ]
    if choices.webhook_url:
        targets.append((f"webhook:{news.user_id}", None))
    added = 0
    for target, subscription in targets:
        row = OutboxMessage(
            key=f"{target}:{news.kind}:{news.subject}"[:200],
            user_id=news.user_id,
            channel="webhook" if subscription is None else "push",
            subscription_id=subscription,
            kind=news.kind,
            game_id=news.game_id,
            seat=news.seat,
            version=news.version,
            facts=dict(news.facts),
            attempts=0,
            due_at=due_at,
        )
        try:
            with db.begin_nested():
                db.add(row)
        except IntegrityError:  # this news went into the outbox already (another process)
            continue
        added += 1
    return added


def turn_news(live: LiveGame, now: datetime) -> list[News]:
    """The seats of people whose turn began with the game's current version (or with its
    start), as news; and, for a game waiting for players, its invitations."""
    news = []
    if live.status == GameStatus.ACTIVE:
        for seat in live.to_act:
            person = live.seats[seat].user_id
            began = live.since[seat]
            if person is None or (began != live.version and live.actions > 0):
                continue
            news.append(
                News(
                    user_id=person,
                    kind="turn",
                    subject=f"game:{live.id}:turn:{began}",
                    facts={"game": live.module.name, "title": live.module.title},
                    game_id=live.id,
                    seat=seat,
                    version=live.version,
                    heard_at=now,
                )
            )
    elif live.status == GameStatus.WAITING:
        for info in live.seats:
            if info.invited_id is None or info.user_id is not None:
                continue
            by = next((s.player for s in live.seats if s.user_id == live.created_by), None)
            news.append(
                News(
                    user_id=info.invited_id,
                    kind="challenge",
                    subject=f"game:{live.id}",
                    facts={
                        "game": live.module.name,
                        "title": live.module.title,
                        "by": by or "",
                        "by_id": live.created_by,
                    },
                    game_id=live.id,
                    heard_at=now,
                )
            )
    return news


class Reach:
    """Hears of the live games' changes (as a ``ChangeListener``: under the game's lock, so it
    only queues) and writes their news to the outbox in the background."""

    def __init__(self, settings: Settings, sessions: sessionmaker[Session], now: ServerTime):
        self.settings = settings
        self.sessions = sessions
        self.now = now
        # What was heard and is not yet in the outbox; a queue while the server runs
        # (``listening``), made there so that it belongs to the server's event loop.
        self._heard: asyncio.Queue[News] | None = None
        self._vapid: Any = None
        # Who chose news of a turn or of a friend's invitation, the news a game's change
        # brings: a move of anyone else costs nothing here. Read when the server starts and
        # every reach_check_seconds (a choice made in another process counts from then),
        # and at once for a choice made in this process (``chose``).
        self._choosers: set[int] = set()

    def chose(self, user_id: int, turns_or_challenges: bool) -> None:
        """``user_id`` has just chosen (in this process) whether to hear of turns or of
        friends' invitations."""
        if turns_or_challenges:
            self._choosers.add(user_id)
        else:
            self._choosers.discard(user_id)

    def _read_choosers(self) -> set[int]:
        with self.sessions() as db:
            wanted = or_(ReachChoices.turn.is_(True), ReachChoices.challenge.is_(True))
            return set(db.scalars(select(ReachChoices.user_id).where(wanted)))

    async def refresh_choosers(self) -> None:
        """Read again who chose news of turns or invitations (every reach_check_seconds)."""
        self._choosers = await asyncio.to_thread(self._read_choosers)

    async def vapid(self) -> Any:
        """The server's VAPID key (read once: it never changes once made)."""
        if self._vapid is None:
            self._vapid = await asyncio.to_thread(self._read_vapid)
        return self._vapid

    def _read_vapid(self) -> Any:
        with self.sessions.begin() as db:
            return push.vapid_key(db)

    def changed(self, live: LiveGame, *, relayed: bool) -> None:
        # Relayed: the process that made the change heard it. No queue: not running.
        if relayed or self._heard is None or not self._choosers:
            return
        for news in turn_news(live, self.now()):
            if news.user_id in self._choosers:
                self._heard.put_nowait(news)

    def loaded(self, live: LiveGame) -> None:
        pass  # read from the database: nothing new happened

    def write(self, heard: list[News]) -> int:
        grace = timedelta(seconds=self.settings.reach_grace_seconds)
        added = 0
        with self.sessions.begin() as db:
            for news in heard:
                heard_at = news.heard_at or self.now()
                due = heard_at + (grace if news.kind == "turn" else timedelta())
                added += record(db, news, due)
        return added

    async def _write_heard(self, queue: asyncio.Queue[News], heard: list[News]) -> int:
        try:
            return await asyncio.to_thread(self.write, heard)
        except Exception:  # a database hiccup: that news is lost, the next is not
            log.exception("writing %d pieces of news to the outbox failed", len(heard))
            return 0
        finally:
            for _ in heard:
                queue.task_done()

    @staticmethod
    def _take(queue: asyncio.Queue[News]) -> list[News]:
        heard = []
        while not queue.empty():
            heard.append(queue.get_nowait())
        return heard

    async def drain(self) -> int:
        """Write everything heard so far to the outbox (and wait for what the background
        writer is writing); how many rows this call added."""
        queue = self._heard
        if queue is None:
            return 0
        heard = self._take(queue)
        added = await self._write_heard(queue, heard) if heard else 0
        await queue.join()
        return added

    async def _keep_draining(self, queue: asyncio.Queue[News]) -> None:
        while True:
            heard = [await queue.get(), *self._take(queue)]
            await self._write_heard(queue, heard)

    @asynccontextmanager
    async def listening(self) -> AsyncIterator[None]:
        """Writes what is heard to the outbox for as long as the server runs."""
        queue: asyncio.Queue[News] = asyncio.Queue()
        self._heard = queue
        task = asyncio.get_running_loop().create_task(self._keep_draining(queue))
        seconds = self.settings.reach_check_seconds
        try:
            async with repeated(self.refresh_choosers, lambda: seconds, "reading news choices"):
                yield
        finally:
            self._heard = None
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


async def tell(
    reach: Reach,
    user_id: int,
    kind: ReachKind,
    subject: str,
    facts: Mapping[str, Any],
    game_id: int | None = None,
) -> int:
    """Tell a person a piece of news on the channels they chose, once: the public door
    of the other rooms (``services.reach``). ``subject`` names the news among all of its
    kind (a second ``tell`` with the same one adds nothing). For "a tournament round
    starts", the tournaments room calls::

        await tell(services.reach, user_id, "tournament", f"tournament:{t}:round:{n}",
                   {"tournament": name, "round": n, "path": f"/tournaments/{t}"}, game_id)

    (``path``: where a click leads; the game's page when left out and ``game_id`` is
    given). Returns how many outbox rows were added (0: not opted in, or told already)."""
    news = News(user_id, kind, subject, dict(facts), game_id=game_id)
    return await asyncio.to_thread(reach.write, [news])
