"""The tables. A game is its deal plus an append-only log of its seats' actions."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(UTC)


class GameStatus(StrEnum):
    """Where a game is in its life; stored as its text."""

    WAITING = "waiting"  # for players to take its seats
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"  # before it started


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200))  # None for guests
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The site's language for this account (i18n.LANGUAGES); None: the browser's (0008).
    language: Mapped[str | None] = mapped_column(String(8), default=None)
    # When its owner deleted it (accounts/deletion.py): the row stays, under a name kept
    # for deleted players, so that the games it played keep their seats (0011).
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    # A program playing through the API (accounts/bot_accounts.py): marked so by its owner,
    # for good; listed as a bot, rated on the bots' ladder (0018).
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)


class LoginSession(Base):
    """A signed-in browser. Only a hash of the cookie's token is stored."""

    __tablename__ = "login_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # What the owner's session list shows of it (0011).
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    user_agent: Mapped[str | None] = mapped_column(String(200), default=None)


class Game(Base):
    """One game of any game the server offers (``roses.games``): its deal plus a log."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(24))  # the GameModule's name
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The deal: secret while the game runs (it fixes the order of every pile).
    seed: Mapped[int] = mapped_column(BigInteger)
    deal: Mapped[Any] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)  # a GameStatus
    # Bumped by every accepted change: a join, a cancel, each action.
    version: Mapped[int] = mapped_column(Integer, default=0)
    to_act: Mapped[list[int]] = mapped_column(JSON, default=list)  # the seats the game waits for
    turn_since: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)  # or casual
    # Its creator lets bot accounts take seats although it is rated and people play (0018).
    bot_accounts: Mapped[bool] = mapped_column(Boolean, default=False)
    # The time limit (clocks.TimeControl as JSON; None: none) and when the server must next
    # act on the clocks (a flag falls, a stand-in moves): see roses/server/clocks/time_control.py.
    time_control: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    clock_due: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    seats: Mapped[list[Seat]] = relationship(
        order_by="Seat.seat", cascade="all, delete-orphan", lazy="selectin"
    )


class Seat(Base):
    __tablename__ = "seats"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    invited_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    bot_name: Mapped[str | None] = mapped_column(String(32))
    bot_strength: Mapped[str | None] = mapped_column(String(16))
    # The seat's clock (roses/server/clocks/time_control.py): its time left as of clock_since
    # (when it last started or stopped); deadline only while it runs; the 80% warning's
    # moment and when that warning went out (cleared whenever the clock starts for a new decision).
    time_left_ms: Mapped[int | None] = mapped_column(BigInteger)
    clock_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    warn_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    warned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The occupant's vacation (a correspondence clock paused): from when until when (0013).
    paused_from: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    paused_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The newest version the occupant's page showed while in sight (the page reports it):
    # no push or webhook about a turn they have seen already (notify/reach.py, 0017).
    seen_version: Mapped[int | None] = mapped_column(Integer)

    user: Mapped[User | None] = relationship(foreign_keys=[user_id], lazy="joined")
    invited_user: Mapped[User | None] = relationship(foreign_keys=[invited_user_id], lazy="joined")


class ActionRow(Base):
    """One accepted action of one seat, in the game's own JSON form. Only ever inserted."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_actions_game_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)  # 0, 1, 2, ... within the game
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[Any] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)  # the game's version this action made
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Draft(Base):
    """A seat's private scratch (e.g. a plan not yet sealed): only that seat ever reads it."""

    __tablename__ = "drafts"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[Any] = mapped_column(JSON, nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything this server stores is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class ChatMessage(Base):
    """A message at a game's table: a player's (read by everyone who may watch the game) or
    a spectator's (read by the spectators, and by the players once the game is over)."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    text: Mapped[str] = mapped_column(String(500))  # empty for a phrase
    # A courtesy phrase's key (``play/courtesy.py``), translated for each reader; or None.
    phrase: Mapped[str | None] = mapped_column(String(24), nullable=True)
    room: Mapped[str] = mapped_column(String(12), default="players", server_default="players")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    user: Mapped[User] = relationship(lazy="joined")


class ChatMute(Base):
    """``user_id`` no longer sees what ``muted_user_id`` writes, at any table."""

    __tablename__ = "chat_mutes"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    muted_user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )


class Follow(Base):
    """``user_id`` follows ``followed_id``; two who follow each other are friends."""

    __tablename__ = "follows"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    followed_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Block(Base):
    """``user_id`` blocked ``blocked_id``: neither sees the other's open games, invites,
    joins, talks or writes to the other (``accounts/blocks.py``)."""

    __tablename__ = "blocks"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PrivateMessage(Base):
    """A short message from one friend to another (``roses/server/people/``)."""

    __tablename__ = "private_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    sender_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    recipient_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    text: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    sender: Mapped[User] = relationship(foreign_keys=[sender_id], lazy="joined")
    recipient: Mapped[User] = relationship(foreign_keys=[recipient_id], lazy="joined")


class RematchVote(Base):
    """A player of a finished game wants to play it again (seats rotated)."""

    __tablename__ = "rematch_votes"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )


class Rematch(Base):
    """The game that a finished game's rematch started (once everyone accepted)."""

    __tablename__ = "rematches"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    new_game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))


class PlayerRating(Base):
    """A person's or a bot's (name and strength) rating in one game and variant: the number
    shown and its deviation, and what its system goes on from (``ratings/systems.py``):
    Glicko-2's volatility for a duel, Weng-Lin's mu and sigma otherwise."""

    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(String(24), primary_key=True)
    variant: Mapped[str] = mapped_column(String(8), primary_key=True)  # "2p", "4p"
    rated: Mapped[str] = mapped_column(String(64), primary_key=True)  # "user:7", "bot:mcts:strong"
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float | None] = mapped_column(Float)
    mu: Mapped[float | None] = mapped_column(Float)
    sigma: Mapped[float | None] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class VacationAllowance(Base):
    """A person's vacation days (roses/server/clocks/vacation.py): ``banked_ms`` as of
    ``banked_at`` (it accrues from then on), and the vacation taken, if any (0013). A
    person without a row has the allowance of a new account, accrued since they joined."""

    __tablename__ = "vacation_allowances"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    banked_ms: Mapped[int] = mapped_column(BigInteger)
    banked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)


class RatingChange(Base):
    """One seat's rating after one rated game: the points of the rating-history plot."""

    __tablename__ = "rating_changes"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    rated: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AnalysisRow(Base):
    """One decision of a game analysed (the game's own JSON), kept so that a second visit
    is instant. A decision once made never changes, so neither does its analysis."""

    __tablename__ = "analyses"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # the decision: 0, 1, ...
    result: Mapped[Any] = mapped_column(JSON)
    seconds: Mapped[float] = mapped_column(Float)  # the search time it was given
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


@dataclass(frozen=True)
class SeatClock:
    """One seat's clock: ``time_left_ms`` as of ``since``; ``deadline`` only while it runs.

    ``paused_from`` to ``paused_until``: its player's vacation. A running clock's deadline
    already includes the pause; its time left stays still until ``paused_until``."""

    seat: int
    time_left_ms: int
    since: datetime
    deadline: datetime | None = None
    warn_at: datetime | None = None
    warned_at: datetime | None = None
    paused_from: datetime | None = None
    paused_until: datetime | None = None

    @property
    def running(self) -> bool:
        return self.deadline is not None

    def paused_at(self, now: datetime) -> bool:
        return (
            self.paused_from is not None
            and self.paused_until is not None
            and self.paused_from <= now < self.paused_until
        )

    def ticks_from(self, now: datetime) -> datetime:
        """When the clock, if it runs, counts down from ``now`` on: the pause's end if paused."""
        return self.paused_until if self.paused_at(now) and self.paused_until else now

    def remaining_ms(self, now: datetime) -> int:
        """Time left at ``now`` (negative once run out)."""
        if self.deadline is None:
            return self.time_left_ms
        return int((self.deadline - self.ticks_from(now)) / timedelta(milliseconds=1))

    def columns(self) -> dict[str, Any]:
        """The seat row's clock columns."""
        return {
            "time_left_ms": self.time_left_ms,
            "clock_since": self.since,
            "deadline": self.deadline,
            "warn_at": self.warn_at,
            "warned_at": self.warned_at,
            "paused_from": self.paused_from,
            "paused_until": self.paused_until,
        }
