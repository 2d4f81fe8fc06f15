"""Time limits: a live chess clock per seat, or a correspondence deadline per move.

Where the data lives (migration 0006):

- ``games.time_control`` (JSON): the game's time limit, ``TimeControl.to_json()``:
  ``{"kind": "live", "initial_ms": 300000, "increment_ms": 5000}`` or
  ``{"kind": "correspondence", "days": 3}``; None (NULL) for a game without one. A
  tournament that allows no vacation adds ``"vacation": false`` (read by
  ``lobby/vacation.py`` alone; ``TimeControl`` ignores it).
- ``games.clock_due``: the earliest moment the server must act on the game's clocks by
  itself (a live flag falls, a stand-in moves for an absent seat); NULL when nothing is due
  (no limit, or only the opponents' claim is possible: ``roses/server/workers/timeouts.py``).
- per seat (``seats``): ``time_left_ms`` its time as of ``clock_since`` (when its clock
  last started or stopped); ``deadline`` when its time runs out, set only while its clock
  runs (the seat is in ``games.to_act``); ``warn_at`` the moment 80% of the time it had for
  the current decision is used; ``warned_at`` when the 80% warning for the current decision
  went out (NULL: not yet; cleared whenever the clock starts for a new decision);
  ``paused_from`` to ``paused_until`` its player's vacation (migration 0013,
  ``lobby/vacation.py``): a correspondence clock's pause, never a live one's.

A pause moves a running clock's ``deadline`` and ``warn_at`` by exactly its length (``pause``;
``resume`` gives back the part not taken), so the timeout service and the warnings, which
read only those moments, respect it with no work of their own; the time left stands still
until ``paused_until``, and a decision that starts during the pause counts from its end.

Only a running game's clocks count (``games.status = 'active'``). A clock starts once every
seat is filled (the game starts). Live: each seat has ``initial_ms``; the increment is added
when the seat's clock stops (its decision made). Correspondence: each decision has ``days``
days. Several seats' clocks run at once in simultaneous steps (``to_act``). A take-back
(e.g. a sealed plan unsealed, WR-10) restarts the clock as if it had never stopped, less the
increment it earned, so nobody gains time.

For the 80% warning (notifications): ``due_warnings(db, now)`` lists the (game, seat, user)
to warn, ``mark_warned(db, warning, now)`` records that the warning went out. The time comes
from ``ServerTime`` (``Services.now``), which tests move forward.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from roses.games import GameModule
from roses.games.base import TimeoutRule

from ..db.models import Game, GameStatus, Seat, SeatClock, as_utc, utcnow
from ..i18n import _

Kind = Literal["live", "correspondence"]
DAY_MS = 24 * 3600 * 1000
CORRESPONDENCE_DAYS = (1, 3, 7, 14)
WARN_FRACTION = 0.8


class ServerTime:
    """The server's "now": the real time plus an offset that tests move forward."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return utcnow() + self.offset

    def advance(self, delta: timedelta) -> None:
        self.offset += delta


server_time = ServerTime()  # the server's clock (Services.now): tests move it


@dataclass(frozen=True)
class TimeControl:
    kind: Kind
    initial_ms: int = 0  # live
    increment_ms: int = 0  # live
    days: int = 0  # correspondence

    @property
    def live(self) -> bool:
        return self.kind == "live"

    def per_decision_ms(self) -> int:
        """A correspondence decision's time (a live clock carries its time over instead)."""
        return self.days * DAY_MS

    def to_json(self) -> dict[str, Any]:
        if self.live:
            return {
                "kind": "live",
                "initial_ms": self.initial_ms,
                "increment_ms": self.increment_ms,
            }
        return {"kind": "correspondence", "days": self.days}

    @classmethod
    def from_json(cls, raw: dict[str, Any] | None) -> TimeControl | None:
        if raw is None:
            return None
        if raw["kind"] == "live":
            return cls(
                "live", initial_ms=int(raw["initial_ms"]), increment_ms=int(raw["increment_ms"])
            )
        return cls("correspondence", days=int(raw["days"]))


def live_preset(text: str) -> tuple[float, int]:
    """A live preset "M+S" (minutes, seconds added per move) as numbers; ValueError if not."""
    minutes, _, seconds = text.partition("+")
    parsed = float(minutes), int(seconds)
    if parsed[0] <= 0 or parsed[1] < 0:
        raise ValueError(f"{text!r} is not a clock like 5+5 (minutes + seconds per move)")
    return parsed


def live_control(minutes: float, increment_seconds: int) -> TimeControl:
    return TimeControl(
        "live", initial_ms=round(minutes * 60_000), increment_ms=increment_seconds * 1000
    )


class TimeLimitError(ValueError):
    """A time limit the server does not offer: ``field`` ("clock" or "days") and why."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def chosen_control(
    kind: str, clock: str | None, days: int | None, offered: list[str]
) -> TimeControl | None:
    """The time limit chosen for a new game (a live clock among the ``offered`` presets);
    ``TimeLimitError`` with a sentence naming the choices."""
    if clock is not None and kind != "live":
        raise TimeLimitError(
            "clock", _("a clock (minutes+seconds) goes only with a live time limit")
        )
    if days is not None and kind != "correspondence":
        raise TimeLimitError("days", _("days per move go only with a correspondence time limit"))
    if kind == "live":
        if clock is None or clock not in offered:
            raise TimeLimitError(
                "clock",
                _(
                    "a live clock is one of {clocks} (minutes+seconds per move)",
                    clocks=", ".join(offered),
                ),
            )
        return live_control(*live_preset(clock))
    if kind == "correspondence":
        if days is None or days not in CORRESPONDENCE_DAYS:
            raise TimeLimitError(
                "days", _("a correspondence game gives 1, 3, 7 or 14 days per move")
            )
        return TimeControl("correspondence", days=days)
    return None


def _ms(delta: timedelta) -> int:
    return int(delta / timedelta(milliseconds=1))


def _run(clock: SeatClock, time_left_ms: int, now: datetime, warned: datetime | None) -> SeatClock:
    start = clock.ticks_from(now)  # a clock started during its player's vacation waits for its end
    deadline = start + timedelta(milliseconds=time_left_ms)
    warn_at = start + timedelta(milliseconds=max(0, time_left_ms) * WARN_FRACTION)
    return replace(
        clock, time_left_ms=time_left_ms, since=now, deadline=deadline, warn_at=warn_at,
        warned_at=warned,
    )  # fmt: skip


def _paused_ms(clock: SeatClock, start: datetime, end: datetime) -> int:
    """How much of ``start`` to ``end`` the seat's vacation covers."""
    if clock.paused_from is None or clock.paused_until is None:
        return 0
    overlap = min(end, clock.paused_until) - max(start, clock.paused_from)
    return max(0, _ms(overlap))


def start_clocks(
    control: TimeControl, players: int, to_act: set[int], now: datetime
) -> list[SeatClock]:
    """Every seat's clock as the game starts: the seats it waits for run."""
    first = control.initial_ms if control.live else control.per_decision_ms()
    clocks = [SeatClock(seat, first, now) for seat in range(players)]
    return [_run(c, first, now, None) if c.seat in to_act else c for c in clocks]


def after_action(
    control: TimeControl, clocks: list[SeatClock], actor: int, to_act: set[int], now: datetime
) -> list[SeatClock]:
    """The clocks once ``actor``'s action made the game wait for ``to_act``.

    A seat no longer waited for stops (live: plus the increment); a seat newly waited for
    starts (correspondence: a fresh ``days``). The actor waited for again after acting while
    not waited for took a decision back: its clock goes on as if it had never stopped, less
    the increment it earned, so a take-back never gains time. A seat waited for before and
    after (e.g. RK-19 Light's play, undo; an opponent's pass, RK-11) runs on untouched.
    """
    changed: list[SeatClock] = []
    for clock in clocks:
        waited = clock.seat in to_act
        if clock.running and not waited:
            left = clock.remaining_ms(now)
            if control.live:
                left = max(0, left) + control.increment_ms
            changed.append(
                replace(clock, time_left_ms=left, since=now, deadline=None, warn_at=None)
            )
        elif waited and not clock.running:
            if clock.seat == actor:  # a take-back
                spent = _ms(now - clock.since) - _paused_ms(clock, clock.since, now)
                spent += control.increment_ms if control.live else 0
                changed.append(_run(clock, clock.time_left_ms - spent, now, clock.warned_at))
            else:
                left = clock.time_left_ms if control.live else control.per_decision_ms()
                changed.append(_run(clock, left, now, None))
        else:
            changed.append(clock)
    return changed


def pause(control: TimeControl, clock: SeatClock, now: datetime, until: datetime) -> SeatClock:
    """``clock`` paused from ``now`` to ``until`` (its player's vacation; no other pause of it
    lasts at ``now``). A running clock's deadline and 80% warning move by exactly the pause;
    a stopped one waits for ``until`` when it starts. A live clock is never paused."""
    if control.live or until <= now or clock.paused_at(now):
        return clock
    paused = replace(clock, paused_from=now, paused_until=until)
    if not clock.running:
        return paused
    return _shifted(paused, until - now)


def resume(clock: SeatClock, now: datetime) -> SeatClock:
    """``clock``'s pause ended early at ``now`` (the vacation given back): the deadline
    moves back by the part of the pause not taken, so the time left is what it was."""
    if not clock.paused_at(now) or clock.paused_until is None:
        return clock
    unused = clock.paused_until - now
    resumed = replace(clock, paused_until=now)
    return _shifted(resumed, -unused) if clock.running else resumed


def _shifted(clock: SeatClock, delta: timedelta) -> SeatClock:
    assert clock.deadline is not None
    warn_at = None if clock.warn_at is None else clock.warn_at + delta
    return replace(clock, deadline=clock.deadline + delta, warn_at=warn_at)


def stopped(clocks: list[SeatClock], now: datetime) -> list[SeatClock]:
    """Every clock stopped (the game is over): the time left is kept, nothing runs."""
    return [
        replace(c, time_left_ms=max(0, c.remaining_ms(now)), since=now, deadline=None, warn_at=None)
        if c.running
        else c
        for c in clocks
    ]


def run_out(clocks: list[SeatClock], now: datetime) -> list[SeatClock]:
    """The running clocks whose time is up at ``now``, the earliest first."""
    due = [c for c in clocks if c.deadline is not None and c.deadline <= now]
    return sorted(due, key=lambda c: (c.deadline, c.seat))


def next_deadline(clocks: list[SeatClock]) -> datetime | None:
    return min((c.deadline for c in clocks if c.deadline is not None), default=None)


def clock_due(rule: TimeoutRule | None, clocks: list[SeatClock] | None) -> datetime | None:
    """When the server must act by itself: the first deadline, unless a run-out seat's
    opponents only may claim (``TimeoutRule.CLAIM``) and nothing is due."""
    if rule is None or rule is TimeoutRule.CLAIM or clocks is None:
        return None
    return next_deadline(clocks)


def rule_of(
    module: GameModule[Any, Any], players: int, control: TimeControl | None
) -> TimeoutRule | None:
    return None if control is None else module.timeout_rule(players, control.live)


def start_game_clocks(game: Game, module: GameModule[Any, Any], now: datetime) -> None:
    """The game starts (every seat filled): its clocks start, for the seats it waits for."""
    control = TimeControl.from_json(game.time_control)
    if control is None:
        return
    clocks = start_clocks(control, game.players, set(game.to_act), now)
    for seat, clock in zip(game.seats, clocks, strict=True):
        for column, value in clock.columns().items():
            setattr(seat, column, value)
    game.clock_due = clock_due(rule_of(module, game.players, control), clocks)


def claimable(
    rule: TimeoutRule | None, clocks: list[SeatClock] | None, teams: tuple[int, ...], now: datetime
) -> tuple[SeatClock | None, list[int]]:
    """Under ``TimeoutRule.CLAIM``: the first seat whose deadline passed, and the seats
    that may claim the win from it now (those of every other team)."""
    if rule is not TimeoutRule.CLAIM or clocks is None:
        return None, []
    late = run_out(clocks, now)
    if not late:
        return None, []
    return late[0], [seat for seat, team in enumerate(teams) if team != teams[late[0].seat]]


def seat_clocks(game: Game) -> list[SeatClock] | None:
    """The clocks as stored (None: no time limit, or not started)."""
    if game.time_control is None or any(s.clock_since is None for s in game.seats):
        return None
    return [
        SeatClock(
            seat.seat,
            int(seat.time_left_ms or 0),
            as_utc(seat.clock_since),  # type: ignore[arg-type]  # checked above
            None if seat.deadline is None else as_utc(seat.deadline),
            None if seat.warn_at is None else as_utc(seat.warn_at),
            None if seat.warned_at is None else as_utc(seat.warned_at),
            None if seat.paused_from is None else as_utc(seat.paused_from),
            None if seat.paused_until is None else as_utc(seat.paused_until),
        )
        for seat in game.seats
    ]


# -- the 80% warning (for notifications) ----------------------------------------------------


@dataclass(frozen=True)
class ClockWarning:
    """A person whose used time passed 80% of what they had for the current decision."""

    game_id: int
    seat: int
    user_id: int
    deadline: datetime  # when their time runs out
    clock_since: datetime  # identifies the decision (mark_warned is guarded by it)


def due_warnings(db: Session, now: datetime) -> list[ClockWarning]:
    """Everyone to warn at ``now``: a person's running clock in an active game is past 80%
    of the time it had for this decision, and no warning went out for it yet. Bots are
    never warned. Not filtered by who is looking at the game: the caller knows that."""
    query = (
        select(Seat.game_id, Seat.seat, Seat.user_id, Seat.deadline, Seat.clock_since)
        .join(Game, Game.id == Seat.game_id)
        .where(
            Game.status == GameStatus.ACTIVE,
            Seat.user_id.is_not(None),
            Seat.deadline.is_not(None),
            Seat.warn_at <= now,
            Seat.warned_at.is_(None),
        )
        .order_by(Seat.warn_at)
    )
    return [
        ClockWarning(
            row.game_id, row.seat, row.user_id, as_utc(row.deadline), as_utc(row.clock_since)
        )
        for row in db.execute(query)
    ]


def mark_warned(db: Session, warning: ClockWarning, now: datetime) -> bool:
    """Record that ``warning`` went out; False if that decision is over meanwhile (nothing
    is marked then: the seat's clock has started again or stopped)."""
    result = db.execute(
        update(Seat)
        .where(
            Seat.game_id == warning.game_id,
            Seat.seat == warning.seat,
            Seat.clock_since == warning.clock_since,
            Seat.deadline.is_not(None),
            Seat.warn_at <= now,  # not if a vacation moved the warning on meanwhile
        )
        .values(warned_at=now)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


# -- what clients see -----------------------------------------------------------------------


def clock_json(
    control: TimeControl | None,
    clocks: list[SeatClock] | None,
    now: datetime,
    rule: TimeoutRule | None,
    claimable_by: list[int],
) -> dict[str, Any] | None:
    """The envelope's ``clock``: the time limit, what happens when time runs out, each
    seat's time left as of ``now`` (the snapshot's server time, so a client ticks from it
    without trusting its own clock), which clocks run, the deadlines, and the seats that
    may claim a win on time now."""
    if control is None or rule is None:
        return None
    return {
        **control.to_json(),
        "on_time_out": rule.value,
        "now": now.isoformat(),
        "remaining_ms": None if clocks is None else [max(0, c.remaining_ms(now)) for c in clocks],
        "running": [] if clocks is None else [c.seat for c in clocks if c.running],
        "deadlines": None
        if clocks is None
        else [None if c.deadline is None else c.deadline.isoformat() for c in clocks],
        "claimable_by": claimable_by,
        # Each seat's vacation, while it lasts: its clock stands still until then.
        "paused_until": None
        if clocks is None
        else [
            c.paused_until.isoformat() if c.paused_until and c.paused_at(now) else None
            for c in clocks
        ],
    }
