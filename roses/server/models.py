"""The tables. A game is its deal (seed and start position) plus an append-only move list."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200))  # None for guests
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LoginSession(Base):
    """A signed-in browser. Only a hash of the cookie's token is stored."""

    __tablename__ = "login_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    light: Mapped[bool] = mapped_column(Boolean, default=False)  # RK-19
    show_draw_pile: Mapped[bool] = mapped_column(Boolean, default=False)  # RK-20
    # The deal: secret while the game runs (it holds the draw pile's order).
    seed: Mapped[int] = mapped_column(BigInteger)
    start_position: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), index=True)  # waiting, active, finished
    # Bumped by every accepted action: a move applies only against the version it was made on.
    version: Mapped[int] = mapped_column(Integer, default=0)
    turn_seat: Mapped[int | None] = mapped_column(Integer)
    turn_since: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # RK-19 Light: a play shown to its player, not yet part of the game until "End turn".
    pending_move: Mapped[str | None] = mapped_column(String(8))
    result: Mapped[dict[str, object] | None] = mapped_column(JSON)
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

    user: Mapped[User | None] = relationship(foreign_keys=[user_id], lazy="joined")
    invited_user: Mapped[User | None] = relationship(foreign_keys=[invited_user_id], lazy="joined")


class MoveRow(Base):
    """One accepted move (RK-22 notation). Rows are only ever inserted."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("game_id", "ply", name="uq_moves_game_ply"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    ply: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything this server stores is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
