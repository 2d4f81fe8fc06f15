"""Clocks x pauses (hypothesis): a vacation pauses a correspondence clock and never a live
one; no clock runs backwards; a paused deadline moves by exactly the time paused, so no
deadline is lost; a pause ends by itself; the allowance is never negative."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from roses.server.clocks.time_control import (
    DAY_MS,
    TimeControl,
    after_action,
    live_control,
    pause,
    resume,
    start_clocks,
    stopped,
)
from roses.server.clocks.vacation import CAP_MS, Allowance, VacationRefused
from roses.server.db.models import SeatClock

T0 = datetime(2026, 1, 1, tzinfo=UTC)
THREE_DAYS = TimeControl("correspondence", days=3)
minutes = st.integers(min_value=0, max_value=60 * 24 * 20)  # up to 20 days, in minutes


def at(minute: int) -> datetime:
    return T0 + timedelta(minutes=minute)


# One step of a two-seat correspondence game's life: time passes, then seat 0 goes on
# vacation for some days, or comes back early, or a seat acts (the turn passes).
steps = st.lists(
    st.tuples(minutes, st.sampled_from(["pause", "resume", "act"]), st.integers(1, 30)),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(steps)
def test_no_clock_runs_backwards_and_no_deadline_is_lost(
    life: list[tuple[int, str, int]],
) -> None:
    now = T0
    clocks = start_clocks(THREE_DAYS, 2, {0}, now)
    to_act = 0
    for wait, what, days in life:
        later = now + timedelta(minutes=wait)
        # While nothing happens, no clock's time left ever grows, and a running one falls
        # by at most the time that passed.
        for clock in clocks:
            before, after = clock.remaining_ms(now), clock.remaining_ms(later)
            assert after <= before
            assert before - after <= (later - now) / timedelta(milliseconds=1)
        now = later
        if what == "act":
            to_act = 1 - to_act
            clocks = after_action(THREE_DAYS, clocks, 1 - to_act, {to_act}, now)
            continue
        before = clocks[0]
        changed = (
            pause(THREE_DAYS, before, now, now + timedelta(days=days))
            if what == "pause"
            else resume(before, now)
        )
        # Pausing or resuming changes nobody's time left at that moment...
        assert changed.remaining_ms(now) == before.remaining_ms(now)
        # ...and moves a running deadline by exactly the pause added or given back.
        if before.deadline is not None and changed.deadline is not None:
            if what == "pause" and not before.paused_at(now):
                assert changed.deadline - before.deadline == timedelta(days=days)
            if what == "resume" and before.paused_at(now):
                assert before.paused_until is not None
                assert before.deadline - changed.deadline == before.paused_until - now
        clocks = [changed, clocks[1]]


@settings(max_examples=200, deadline=None)
@given(minutes, st.integers(1, 30), minutes, minutes)
def test_a_pause_ends_by_itself(start: int, days: int, after: int, more: int) -> None:
    clock = start_clocks(THREE_DAYS, 2, {0}, at(0))[0]
    paused = pause(THREE_DAYS, clock, at(start), at(start) + timedelta(days=days))
    end = at(start) + timedelta(days=days)
    first, second = end + timedelta(minutes=after), end + timedelta(minutes=after + more)
    assert not paused.paused_at(end)
    # Once over, the clock runs again at the speed of time.
    spent = paused.remaining_ms(first) - paused.remaining_ms(second)
    assert spent == more * 60_000
    # While paused, it stands still.
    assert paused.remaining_ms(at(start)) == paused.remaining_ms(end)


@given(minutes, st.integers(1, 30))
def test_a_live_clock_is_never_paused(start: int, days: int) -> None:
    control = live_control(5, 5)
    clock = start_clocks(control, 2, {0}, at(0))[0]
    assert pause(control, clock, at(start), at(start) + timedelta(days=days)) == clock


@given(minutes, st.integers(1, 30), minutes)
def test_a_decision_that_starts_during_a_pause_waits_for_its_end(
    start: int, days: int, during: int
) -> None:
    """The opponent moves while I am away: my three days begin when I come back."""
    clocks = start_clocks(THREE_DAYS, 2, {1}, at(0))
    end = at(start) + timedelta(days=days)
    mine = pause(THREE_DAYS, clocks[0], at(start), end)
    moment = min(at(start + during), end - timedelta(minutes=1))
    after = after_action(THREE_DAYS, [mine, clocks[1]], 1, {0}, moment)
    assert after[0].deadline == end + timedelta(days=3)
    assert after[0].warn_at == end + timedelta(days=3 * 0.8)
    assert after[0].remaining_ms(moment) == 3 * DAY_MS


def test_a_clock_stopped_in_a_pause_keeps_its_time_and_a_finished_game_stops_it() -> None:
    clocks = start_clocks(THREE_DAYS, 2, {0}, at(0))
    mine = pause(THREE_DAYS, clocks[0], at(60), at(60) + timedelta(days=5))
    # I move during my vacation: my clock stops with the time it had when the pause began.
    after = after_action(THREE_DAYS, [mine, clocks[1]], 0, {1}, at(60 * 24))
    assert after[0].time_left_ms == 3 * DAY_MS - 60 * 60_000
    assert stopped([mine], at(600))[0].time_left_ms == 3 * DAY_MS - 60 * 60_000


# -- the allowance ---------------------------------------------------------------------------

moves = st.lists(
    st.tuples(minutes, st.sampled_from(["take", "back"]), st.integers(1, 40)), max_size=15
)


@settings(max_examples=300, deadline=None)
@given(moves)
def test_the_allowance_is_never_negative_nor_above_its_cap(
    history: list[tuple[int, str, int]],
) -> None:
    allowance = Allowance.new_account(T0)
    now = T0
    for wait, what, days in history:
        now += timedelta(minutes=wait)
        if what == "take":
            available = allowance.available_days(now)
            try:
                allowance = allowance.spent(days, now)
            except VacationRefused:
                assert days > available
            else:
                assert days <= available
        else:
            allowance = allowance.refunded(timedelta(days=days), now)
        assert 0 <= allowance.available_ms(now) <= CAP_MS


def test_the_allowance_accrues_thirty_days_a_year_up_to_its_cap() -> None:
    allowance = Allowance.new_account(T0)
    assert allowance.available_days(T0) == 7
    assert allowance.available_days(T0 + timedelta(days=365)) == 30  # 7 + 30, capped
    assert allowance.available_days(T0 + timedelta(days=73)) == 13  # 7 + 30 * 73 / 365 = 13
    assert allowance.spent(7, T0).available_ms(T0) == 0


def test_a_pause_moves_the_80_percent_warning_with_the_deadline() -> None:
    clock = start_clocks(THREE_DAYS, 2, {0}, at(0))[0]
    paused = pause(THREE_DAYS, clock, at(10), at(10) + timedelta(days=4))
    assert clock.warn_at is not None and paused.warn_at is not None
    assert paused.warn_at - clock.warn_at == timedelta(days=4)
    back = resume(paused, at(10) + timedelta(days=1))
    assert back.warn_at == clock.warn_at + timedelta(days=1)
    assert isinstance(back, SeatClock)
