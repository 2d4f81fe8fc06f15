"""What each account wants to be told and where: its e-mail address, its opt-ins, the
games waiting for it, and the signed unsubscribe links of its e-mails.

Nothing here reads a game's state: a game waits for a person when that person's seat is
among the seats it waits for (``Game.to_act``, part of every game's public envelope)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal, get_args

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import Boolean, Date, DateTime, ForeignKey, String, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..db.models import Base, Game, GameStatus, Seat, as_utc
from ..db.store import offered
from ..play.live_games import GameHeader

# The e-mails a person opts in to; each carries a link that turns its own opt-in off.
MailKind = Literal["digest", "deadline_warning"]
MAIL_KINDS: tuple[MailKind, ...] = get_args(MailKind)


class NotificationSettings(Base):
    """One account's choices; an account without a row has every choice off."""

    __tablename__ = "notification_settings"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    email: Mapped[str | None] = mapped_column(String(254))
    digest: Mapped[bool] = mapped_column(Boolean, default=False)  # a daily e-mail
    deadline_warning: Mapped[bool] = mapped_column(Boolean, default=False)  # an e-mail
    browser: Mapped[bool] = mapped_column(Boolean, default=False)  # the Notification API
    sound: Mapped[bool] = mapped_column(Boolean, default=False)
    # When its owner opened the link sent to ``email`` (None: not yet, or the address
    # changed since): no e-mail of any kind goes to an address before (0011).
    email_confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The day (UTC) the last digest went out: claimed before sending, so that of several
    # server processes only one sends it.
    digest_sent_on: Mapped[date | None] = mapped_column(Date)


def settings_for(db: Session, user_id: int) -> NotificationSettings:
    """The account's row, or a new one (added to ``db``) with every choice off."""
    row = db.get(NotificationSettings, user_id)
    if row is None:
        row = NotificationSettings(
            user_id=user_id,
            email=None,
            email_confirmed_at=None,
            digest=False,
            deadline_warning=False,
            browser=False,
            sound=False,
        )
        db.add(row)
    return row


def confirmed_address(row: NotificationSettings) -> str | None:
    """Where e-mails to the account may go: its address once its owner confirmed it from
    the link sent there (account_mail.py), else nowhere."""
    return row.email if row.email_confirmed_at is not None else None


@dataclass(frozen=True)
class WaitingGame:
    """A game waiting for one person: what a badge, a notification or an e-mail names."""

    id: int
    game: str
    title: str
    turn_since: datetime
    others: tuple[str, ...]  # the other seats' players (or bots), by name


def other_players(header: GameHeader, seat: int) -> tuple[str, ...]:
    """The other seats' players (or bots) by name, as e-mails name them."""
    others = [s for s in header.seats if s.seat != seat]
    return tuple(s.player or f"{s.bot} bot" for s in others if s.player or s.bot)


def waiting_games(db: Session, user_id: int) -> list[WaitingGame]:
    """The games being played in which the person's seat is to act (its turn, or its plan
    to make), waiting longest first."""
    seated = select(Seat.game_id).where(Seat.user_id == user_id)
    games = db.scalars(
        select(Game).where(Game.id.in_(seated), Game.status == GameStatus.ACTIVE, offered())
    ).all()
    waiting = []
    for game in games:
        header = GameHeader(game)
        seat = header.seat_of(user_id)
        if seat is None or seat not in header.to_act:
            continue
        waiting.append(
            WaitingGame(
                id=game.id,
                game=header.module.name,
                title=header.module.title,
                turn_since=as_utc(game.turn_since),
                others=other_players(header, seat),
            )
        )
    return sorted(waiting, key=lambda game: (game.turn_since, game.id))


def invitations(db: Session, user_id: int) -> list[WaitingGame]:
    """The games not yet started with a seat kept for the person by name, that they have
    neither taken nor declined: waiting for their answer, the oldest first."""
    invited = select(Seat.game_id).where(Seat.invited_user_id == user_id, Seat.user_id.is_(None))
    games = db.scalars(
        select(Game)
        .where(Game.id.in_(invited), Game.status == GameStatus.WAITING, offered())
        .order_by(Game.created_at, Game.id)
    ).all()
    found = []
    for game in games:
        if any(seat.user_id == user_id for seat in game.seats):
            continue  # seated already in another seat of the game
        header = GameHeader(game)
        found.append(
            WaitingGame(
                id=game.id,
                game=header.module.name,
                title=header.module.title,
                turn_since=as_utc(game.created_at),
                others=tuple(seat.user.name for seat in game.seats if seat.user is not None),
            )
        )
    return found


def _unsubscribe_signer(key: str) -> URLSafeSerializer:
    return URLSafeSerializer(key, salt="unsubscribe")


def unsubscribe_token(key: str, user_id: int, kind: MailKind) -> str:
    """A link's token: it names the account and the e-mail, signed so that nobody can make
    one for another account. It never expires: an old e-mail's link still works."""
    return _unsubscribe_signer(key).dumps([user_id, kind])


def read_unsubscribe_token(key: str, token: str) -> tuple[int, MailKind] | None:
    """The account and e-mail kind a token names; None if it was not made here or changed."""
    try:
        user_id, kind = _unsubscribe_signer(key).loads(token)
    except (BadSignature, ValueError, TypeError):
        return None
    if not isinstance(user_id, int) or kind not in MAIL_KINDS:
        return None
    return user_id, kind
