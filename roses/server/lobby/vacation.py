"""Vacations: a person pauses the clocks of their correspondence games for some days.

The allowance and its accrual are ``clocks/vacation.py``; a seat's pause is clock arithmetic
(``clocks/time_control.py``: ``pause``, ``resume``). Here: the rules of taking one (not a
guest's, not while a live game of theirs is being played, one at a time, within the
allowance), its bookkeeping in ``vacation_allowances``, and its application to each
correspondence game being played, through that game's writer (``LiveGames.change_clocks``),
so that its opponents see the pause at once. A vacation ends by itself at its end (the
seats' pauses end then with no work from the server); its owner may end it early, and gets
back the days not taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from babel.dates import format_datetime
from sqlalchemy import select
from sqlalchemy.orm import Session

from roses.games import game_module

from ..clocks.time_control import (
    TimeControl,
    clock_due,
    pause,
    resume,
    rule_of,
    seat_clocks,
)
from ..clocks.vacation import MAX_DAYS, Allowance, VacationRefused
from ..db.models import Game, GameStatus, Seat, SeatClock, User, VacationAllowance, as_utc
from ..errors import Conflict, Forbidden, Unprocessable
from ..i18n import _, current, date_locale, ngettext
from ..play.live_games import LiveGame, LiveGames


@dataclass(frozen=True)
class VacationState:
    """What a person's settings page shows: days available now, the vacation under way."""

    available_days: int
    max_days: int
    started_at: datetime | None
    until: datetime | None  # None: not on vacation now


def _row(db: Session, user: User) -> VacationAllowance | None:
    return db.get(VacationAllowance, user.id)


def _allowance(user: User, row: VacationAllowance | None) -> Allowance:
    if row is None:
        return Allowance.new_account(as_utc(user.created_at))
    return Allowance(row.banked_ms, as_utc(row.banked_at))


def on_vacation_until(row: VacationAllowance | None, now: datetime) -> datetime | None:
    if row is None or row.until is None or as_utc(row.until) <= now:
        return None
    return as_utc(row.until)


def state_of(db: Session, user: User, now: datetime) -> VacationState:
    row = _row(db, user)
    until = on_vacation_until(row, now)
    started = as_utc(row.started_at) if until is not None and row and row.started_at else None
    return VacationState(_allowance(user, row).available_days(now), MAX_DAYS, started, until)


def spoken_date(moment: datetime) -> str:
    """A moment in the reader's language (Babel), in UTC as the server keeps it."""
    return (
        format_datetime(moment, format="medium", tzinfo=UTC, locale=date_locale(current())) + " UTC"
    )


def vacation_allowed(game: Game) -> bool:
    """Whether a vacation may pause the game's clocks: not in a game whose time limit says
    ``"vacation": false`` (a tournament's that allows none)."""
    return (game.time_control or {}).get("vacation", True) is not False


def _correspondence_seats(db: Session, user: User) -> list[tuple[Game, int]]:
    query = (
        select(Game, Seat.seat)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.user_id == user.id, Game.status == GameStatus.ACTIVE)
        .order_by(Game.id)
    )
    return [(game, seat) for game, seat in db.execute(query) if vacation_allowed(game)]


def start(db: Session, user: User, days: int, now: datetime) -> tuple[VacationState, list[int]]:
    """Take a vacation of ``days`` from ``now`` (in a transaction): the new state and the
    correspondence games whose clocks it pauses. A sentence (403, 409, 422) if refused."""
    if user.is_guest:
        raise Forbidden(_("a guest has no vacation days: register to keep your account first"))
    if not 1 <= days <= MAX_DAYS:
        longest = ngettext("a vacation lasts 1 day", "a vacation lasts 1 to {n} days", MAX_DAYS)
        raise Unprocessable("days", longest)
    row = db.get(VacationAllowance, user.id, with_for_update=True)
    until = on_vacation_until(row, now)
    if until is not None:
        raise Conflict(
            _("you are on vacation until {date}: come back first", date=spoken_date(until))
        )
    paused: list[int] = []
    for game, _seat in _correspondence_seats(db, user):
        control = TimeControl.from_json(game.time_control)
        if control is not None and control.live:
            raise Conflict(
                _(
                    "a vacation pauses correspondence clocks only, never a live game's: "
                    "finish your live game {number} first",
                    number=game.id,
                )
            )
        if control is not None:
            paused.append(game.id)
    allowance = _allowance(user, row)
    try:
        spent = allowance.spent(days, now)
    except VacationRefused:
        available = allowance.available_days(now)
        raise Unprocessable(
            "days",
            ngettext(
                "you have {n} vacation day left",
                "you have {n} vacation days left",
                available,
            ),
        ) from None
    if row is None:
        row = VacationAllowance(user_id=user.id)
        db.add(row)
    row.banked_ms, row.banked_at = spent.banked_ms, spent.banked_at
    row.started_at, row.until = now, now + timedelta(days=days)
    return state_of(db, user, now), paused


def end(db: Session, user: User, now: datetime) -> tuple[VacationState, list[int]]:
    """End the vacation under way at ``now``; the days not taken come back. 409 if none."""
    row = db.get(VacationAllowance, user.id, with_for_update=True)
    until = on_vacation_until(row, now)
    if row is None or until is None:
        raise Conflict(_("you are not on vacation"))
    back = _allowance(user, row).refunded(until - now, now)
    row.banked_ms, row.banked_at, row.until = back.banked_ms, back.banked_at, now
    games = [game.id for game, _seat in _correspondence_seats(db, user)]
    return state_of(db, user, now), games


async def apply(games: LiveGames, user_id: int, game_ids: list[int], now: datetime,
                until: datetime | None) -> None:  # fmt: skip
    """Pause (``until``) or resume (None) ``user_id``'s clocks in each game, by its writer."""

    def change(live: LiveGame) -> list[SeatClock]:
        assert live.clocks is not None and live.time_control is not None
        control = live.time_control
        return [
            c
            if live.seats[c.seat].user_id != user_id
            else resume(c, now)
            if until is None
            else pause(control, c, now, until)
            for c in live.clocks
        ]

    for game_id in game_ids:
        try:
            await games.change_clocks(game_id, change)
        except Conflict:  # another process changed the game meanwhile: read it again, once
            await games.change_clocks(game_id, change)


def pause_starting(db: Session, game: Game) -> None:
    """A correspondence game that just started (in this transaction, before anyone sees
    it): the clock of each player on vacation starts paused until their vacation's end."""
    control = TimeControl.from_json(game.time_control)
    clocks = seat_clocks(game)
    if control is None or control.live or clocks is None or game.status != GameStatus.ACTIVE:
        return
    if not vacation_allowed(game):
        return
    now = clocks[0].since  # the moment the clocks started
    for seat, clock in zip(game.seats, clocks, strict=True):
        row = None if seat.user_id is None else db.get(VacationAllowance, seat.user_id)
        until = on_vacation_until(row, now)
        if until is not None:
            clocks[seat.seat] = pause(control, clock, now, until)
            for column, value in clocks[seat.seat].columns().items():
                setattr(seat, column, value)
    game.clock_due = clock_due(rule_of(game_module(game.game), game.players, control), clocks)
