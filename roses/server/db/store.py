"""The database side of games: creating, joining, reading whole, and appending an action.

Plain synchronous functions over one SQLAlchemy session; the live layer calls them off the
event loop. Every change bumps the game's version in the same transaction, guarded by the
version it was based on, so of two processes acting on one game exactly one succeeds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    Connection,
    Dialect,
    Table,
    Text,
    bindparam,
    delete,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Session

from roses.games import GAMES, JSON

from ..errors import Conflict, Forbidden, NotFound
from ..http.json_bounds import too_deep
from ..i18n import _
from .models import ActionRow, Draft, Game, GameStatus, Seat, SeatClock, User, utcnow

_GAMES = cast(Table, Game.__table__)
_ACTIONS = cast(Table, ActionRow.__table__)
_SEATS = cast(Table, Seat.__table__)


@dataclass(frozen=True)
class StoredGame:
    """One consistent reading of a game: its row (with seats) and every action."""

    game: Game
    actions: list[ActionRow]
    drafts: dict[int, JSON]


def read_game(db: Session, game_id: int) -> StoredGame:
    """The game and its log as of one version (read again if it moved on in between)."""
    while True:
        game = db.get(Game, game_id, populate_existing=True)
        if game is None:
            raise NotFound(_("there is no game {id}", id=game_id))
        actions = list(
            db.scalars(
                select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.number)
            )
        )
        drafts = _drafts(db, game_id)
        version = db.scalar(select(Game.version).where(Game.id == game_id))
        if version == game.version:
            return StoredGame(game, actions, drafts)
        db.rollback()  # another process acted between the two reads


def _drafts(db: Session, game_id: int) -> dict[int, JSON]:
    """The seats' drafts; one nested too deep (kept before drafts were bounded) is read as
    text and left out, so that it can break neither this read nor any view."""
    drafts: dict[int, JSON] = {}
    rows = db.execute(select(Draft.seat, Draft.data.cast(Text)).where(Draft.game_id == game_id))
    for seat, text in rows:
        try:
            data = None if text is None else json.loads(text)
        except RecursionError:
            continue
        if not too_deep(data):
            drafts[seat] = data
    return drafts


def claim(db: Session, game: Game, **changes: Any) -> None:
    """Bump ``game``'s version (with ``changes``) if nobody else did since it was read."""
    result = db.execute(
        update(Game)
        .where(Game.id == game.id, Game.version == game.version)
        .values(version=game.version + 1, **changes)
        .execution_options(synchronize_session=False)  # the object is updated just below
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise Conflict(_("someone else changed this game at the same moment; try again"))
    game.version += 1
    for key, value in changes.items():
        setattr(game, key, value)


# -- creating, joining, cancelling ----------------------------------------------------------


# -- playing --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """What one accepted action does to the game's row: written in one transaction."""

    game_id: int
    based_on: int  # the version the action was applied to
    number: int
    seat: int
    action: JSON
    to_act: list[int]
    turn_since: datetime
    status: str
    result: dict[str, JSON] | None
    clocks: tuple[SeatClock, ...] = ()  # the seats' clocks that changed
    clock_due: datetime | None = None


def _advance(db: Session | Connection, game_id: int, based_on: int, **changes: Any) -> None:
    """Bump the version if it is still ``based_on`` (with ``changes``); ``Conflict`` if not."""
    result = db.execute(  # plain SQL, no ORM session work: this is every action's path
        update(_GAMES)
        .where(_GAMES.c.id == game_id, _GAMES.c.version == based_on)
        .values(version=based_on + 1, **changes)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise Conflict(_("another action was accepted at the same moment; reload"))


# Every action's statements, built once: building and keying a statement afresh costs
# more CPU than running it.
_ADVANCE_ACTIVE = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("g_id"), _GAMES.c.version == bindparam("based_on"))
    .values(
        version=bindparam("new_version", type_=_GAMES.c.version.type),
        to_act=bindparam("new_to_act", type_=_GAMES.c.to_act.type),
        turn_since=bindparam("new_turn_since", type_=_GAMES.c.turn_since.type),
        status=bindparam("new_status", type_=_GAMES.c.status.type),
        clock_due=bindparam("new_clock_due", type_=_GAMES.c.clock_due.type),
    )
)
_LOG_ACTION = insert(_ACTIONS)


def append_action(db: Session | Connection, change: Change) -> None:
    """Bump the version if it is still ``based_on`` and log the action; ``Conflict`` if not."""
    append_actions(db, [change])


class _DriverStatement:
    """A statement compiled once for a dialect and run on the driver's own cursor, its
    parameters converted by the columns' own bind processors: every action's path, where
    SQLAlchemy's execution (a context, a result, the parameters' processing per call)
    cost several times the database's own work."""

    def __init__(self, statement: Any, dialect: Dialect, columns: list[str] | None = None):
        compiled = statement.compile(dialect=dialect, column_keys=columns)
        self.sql = compiled.string
        self.positions = list(compiled.positiontup or ()) if compiled.positional else None
        self.processors = {
            name: processor
            for name, bind in compiled.binds.items()
            if (processor := bind.type.dialect_impl(dialect).bind_processor(dialect))
        }

    def parameters(self, values: dict[str, Any]) -> Any:
        for name, processor in self.processors.items():
            values[name] = processor(values[name])
        if self.positions is None:
            return values
        return tuple(values[name] for name in self.positions)


_LOG_COLUMNS = ["game_id", "number", "seat", "action", "version", "created_at"]
_compiled: dict[tuple[str, str], tuple[_DriverStatement, _DriverStatement]] = {}


def _statements(dialect: Dialect) -> tuple[_DriverStatement, _DriverStatement]:
    """The advance of a game that goes on and the log's insert, compiled for ``dialect``."""
    key = (dialect.name, dialect.driver)
    statements = _compiled.get(key)
    if statements is None:
        statements = _compiled[key] = (
            _DriverStatement(_ADVANCE_ACTIVE, dialect),
            _DriverStatement(_LOG_ACTION, dialect, _LOG_COLUMNS),
        )
    return statements


def append_actions(db: Session | Connection, changes: list[Change]) -> None:
    """``append_action`` for each of ``changes`` in turn, the log written in one statement;
    on a connection (the group commit's), the game's advance and the log go straight to the
    driver's cursor when the game goes on (no result, no clock)."""
    if isinstance(db, Connection) and not any(c.result is not None or c.clocks for c in changes):
        _append_on_cursor(db, changes)
        return
    for change in changes:
        if change.result is None:  # the game goes on: its result stays NULL
            advanced = db.execute(
                _ADVANCE_ACTIVE,
                {
                    "g_id": change.game_id,
                    "based_on": change.based_on,
                    "new_version": change.based_on + 1,
                    "new_to_act": change.to_act,
                    "new_turn_since": change.turn_since,
                    "new_status": change.status,
                    "new_clock_due": change.clock_due,
                },
            )
            if advanced.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(_("another action was accepted at the same moment; reload"))
        else:
            _advance(
                db,
                change.game_id,
                change.based_on,
                to_act=change.to_act,
                turn_since=change.turn_since,
                status=change.status,
                result=change.result,
                clock_due=change.clock_due,
            )
        _write_clocks(db, change.game_id, change.clocks)
    now = utcnow()
    db.execute(_LOG_ACTION, [_log_row(change, now) for change in changes])


def _log_row(change: Change, now: datetime) -> dict[str, Any]:
    """The action log's row of ``change``, made at ``now``."""
    return {
        "game_id": change.game_id,
        "number": change.number,
        "seat": change.seat,
        "action": change.action,
        "version": change.based_on + 1,
        "created_at": now,
    }


def _append_on_cursor(connection: Connection, changes: list[Change]) -> None:
    advance, log = _statements(connection.dialect)
    now = utcnow()
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        for change in changes:
            values = {
                "g_id": change.game_id,
                "based_on": change.based_on,
                "new_version": change.based_on + 1,
                "new_to_act": change.to_act,
                "new_turn_since": change.turn_since,
                "new_status": change.status,
                "new_clock_due": change.clock_due,
            }
            cursor.execute(advance.sql, advance.parameters(values))
            if cursor.rowcount != 1:
                raise Conflict(_("another action was accepted at the same moment; reload"))
        rows = [log.parameters(_log_row(change, now)) for change in changes]
        cursor.executemany(log.sql, rows)
    finally:
        cursor.close()


def finish_game(
    db: Session,
    game_id: int,
    based_on: int,
    result: dict[str, JSON],
    clocks: tuple[SeatClock, ...] = (),
) -> None:
    """End a game now with ``result`` (a resignation, a loss on time), if it is still at
    ``based_on``; ``clocks``: its seats' clocks, stopped."""
    _advance(
        db, game_id, based_on, to_act=[], status=GameStatus.FINISHED, result=result, clock_due=None
    )
    _write_clocks(db, game_id, clocks)


def change_clocks(
    db: Session, game_id: int, based_on: int, clocks: tuple[SeatClock, ...],
    clock_due: datetime | None,
) -> None:  # fmt: skip
    """Some seats' clocks changed with no action (a vacation), if the game is still at
    ``based_on``; ``Conflict`` if not."""
    _advance(db, game_id, based_on, clock_due=clock_due)
    _write_clocks(db, game_id, clocks)


def _write_clocks(db: Session | Connection, game_id: int, clocks: tuple[SeatClock, ...]) -> None:
    for clock in clocks:
        db.execute(
            update(_SEATS)
            .where(_SEATS.c.game_id == game_id, _SEATS.c.seat == clock.seat)
            .values(**clock.columns())
        )


def save_draft(db: Session, game_id: int, seat: int, user_id: int, data: JSON) -> None:
    """Keep ``user_id``'s draft for ``seat``; ``Forbidden`` if they no longer sit there (they
    left while the draft was on its way: it must not wait for the seat's next player)."""
    occupant = db.execute(
        select(Seat.user_id).where(Seat.game_id == game_id, Seat.seat == seat).with_for_update()
    ).scalar()
    if occupant != user_id:
        raise Forbidden(_("you have no seat in this game"))
    draft = db.get(Draft, (game_id, seat))
    if draft is None:
        db.add(Draft(game_id=game_id, seat=seat, data=data, updated_at=utcnow()))
    else:
        draft.data = data
        draft.updated_at = utcnow()


def drop_draft(db: Session, game_id: int, seat: int) -> None:
    """A draft belongs to the seat's occupant and goes with them (they left the seat)."""
    db.execute(delete(Draft).where(Draft.game_id == game_id, Draft.seat == seat))


# -- lists ----------------------------------------------------------------------------------


def offered() -> ColumnElement[bool]:
    """The games of a kind this server offers: one whose module is gone (a plug-in taken
    out) stays in the database but is not listed or loaded."""
    return Game.game.in_(sorted(GAMES))


def games_of(db: Session, user: User) -> list[Game]:
    seated = select(Seat.game_id).where(
        or_(Seat.user_id == user.id, Seat.invited_user_id == user.id)
    )
    query = select(Game).where(Game.id.in_(seated), Game.status != GameStatus.CANCELLED, offered())
    return list(db.scalars(query.order_by(Game.id.desc())))


def open_games(db: Session, user: User) -> list[Game]:
    """Waiting games with a seat open to anyone, that this user is not in."""
    free = select(Seat.game_id).where(
        Seat.user_id.is_(None), Seat.bot_name.is_(None), Seat.invited_user_id.is_(None)
    )
    query = select(Game).where(Game.status == GameStatus.WAITING, Game.id.in_(free), offered())
    games = db.scalars(query.order_by(Game.id.desc()).limit(50))
    return [g for g in games if all(s.user_id != user.id for s in g.seats)]


def active_game_ids(db: Session) -> list[int]:
    return list(db.scalars(select(Game.id).where(Game.status == GameStatus.ACTIVE)))
