"""The tournaments' tables (migration 0016): the tournament and its settings, its log (the
events the pure formats replay, ``log.py``), its entrants, its games and the timeouts.

The log is the truth: pairings and results are read back from it, and the tables beside it
are what the server needs to find things quickly. Two unique keys make the server's steps
happen once however many processes try: a round starts once (``tournament_id, round``)
and a game's result is recorded once (``tournament_id, game_id``); a second attempt fails
in its own transaction and changes nothing.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    select,
    update,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..db.models import Base, utcnow
from ..errors import Conflict
from ..i18n import _


class TournamentStatus(StrEnum):
    OPEN = "open"  # taking entries, not started
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"  # too few entrants at the start, or called off


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    format: Mapped[str] = mapped_column(String(16))  # a key of formats.FORMATS
    game: Mapped[str] = mapped_column(String(24))  # a GameModule's name
    players_per_table: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)  # the game's options
    # Every game's time limit (clocks.TimeControl as JSON: live or correspondence).
    time_control: Mapped[dict[str, Any]] = mapped_column(JSON)
    vacation: Mapped[bool] = mapped_column(Boolean)  # a correspondence clock may pause
    rated: Mapped[bool] = mapped_column(Boolean)
    # The pure formats' configuration (log.TournamentConfig as JSON): rounds, late joins,
    # points per rank, the final, the seed.
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Who may enter (entries.Conditions as JSON) and the bots the organiser entered.
    conditions: Mapped[dict[str, Any]] = mapped_column(JSON)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)  # a TournamentStatus
    # Bumped by every change (an entry, a round, a result): what the pages watch, and the
    # guard that lets one process at a time change the tournament.
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentEvent(Base):
    """One event of a tournament's log (``log.py``'s JSON), numbered 0, 1, 2, ...; only ever
    inserted."""

    __tablename__ = "tournament_events"
    __table_args__ = (
        UniqueConstraint("tournament_id", "seq", name="uq_tournament_events_seq"),
        UniqueConstraint("tournament_id", "round", name="uq_tournament_events_round"),
        UniqueConstraint("tournament_id", "game_id", name="uq_tournament_events_game"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(24))
    data: Mapped[Any] = mapped_column(JSON, nullable=False)
    # A round's start names its round, a result its game (else None): each happens once.
    round: Mapped[int | None] = mapped_column(Integer)
    game_id: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Entry(Base):
    """An entrant: a person or one of the game's bots at a strength. Its id is the player's
    number in the log."""

    __tablename__ = "tournament_entries"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id", name="uq_entries_user"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    bot_name: Mapped[str | None] = mapped_column(String(32))
    bot_strength: Mapped[str | None] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(64))  # as the standings show it
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentGame(Base):
    """A game a round of a tournament started, at one of its tables."""

    __tablename__ = "tournament_games"
    __table_args__ = (
        UniqueConstraint("tournament_id", "round", "table", name="uq_tournament_games_table"),
    )

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)
    table: Mapped[int] = mapped_column(Integer)


class TournamentTimeout(Base):
    """A person lost a tournament game on time (``bans.py`` bars them from joining a while)."""

    __tablename__ = "tournament_timeouts"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Busy(Conflict):
    """Someone changed the tournament since it was read (the change is undone: a request
    tries again, a step leaves the work to whoever did it)."""


def claim(db: Session, tournament: Tournament, **changes: Any) -> None:
    """Bump the tournament's version (with ``changes``) if nobody did since it was read:
    of two processes (or requests) changing one tournament at once, the second waits for
    the first's row lock and then finds the version moved on (``Busy``)."""
    result = db.execute(
        update(Tournament)
        .where(Tournament.id == tournament.id, Tournament.version == tournament.version)
        .values(version=tournament.version + 1, **changes)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise Busy(_("someone else changed this tournament at the same moment; try again"))
    tournament.version += 1
    for key, value in changes.items():
        setattr(tournament, key, value)


def hold(db: Session, tournament_id: int) -> bool:
    """Bump the tournament's version first thing in a transaction, whatever it is: its row
    is then this transaction's until it ends (PostgreSQL's row lock; SQLite's one writer),
    so a request reads the tournament as it is and nobody changes it meanwhile. False if
    there is no such tournament."""
    result = db.execute(
        update(Tournament)
        .where(Tournament.id == tournament_id)
        .values(version=Tournament.version + 1)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def events_of(db: Session, tournament_id: int) -> list[TournamentEvent]:
    return list(
        db.scalars(
            select(TournamentEvent)
            .where(TournamentEvent.tournament_id == tournament_id)
            .order_by(TournamentEvent.seq)
        )
    )


def entries_of(db: Session, tournament_id: int) -> list[Entry]:
    return list(
        db.scalars(select(Entry).where(Entry.tournament_id == tournament_id).order_by(Entry.id))
    )


def games_of(db: Session, tournament_id: int) -> list[TournamentGame]:
    return list(
        db.scalars(
            select(TournamentGame)
            .where(TournamentGame.tournament_id == tournament_id)
            .order_by(TournamentGame.round, TournamentGame.table)
        )
    )
