"""The arena: free players paired at once by rank, never twice in a row; streaks."""

from __future__ import annotations

from roses.server.tournaments import arena
from roses.server.tournaments.formats import FORMATS
from roses.server.tournaments.log import (
    Event,
    GameFinished,
    Joined,
    RoundStarted,
    Table,
    TournamentConfig,
    replay,
)

CONFIG = TournamentConfig("arena", "roseking", points_by_rank=(2.0, 0.0), seed=4, ends_at=1000.0)
FORMAT = FORMATS["arena"]


def joined(count: int) -> list[Event]:
    return [Joined(p, f"player {p}", 2000.0 - 10 * p) for p in range(1, count + 1)]


def test_the_first_pairs_are_neighbours_by_rating() -> None:
    state = replay(CONFIG, joined(6))
    tables = FORMAT.pair_waiting(state, [6, 5, 4, 3, 2, 1], now=0.0)
    assert {tuple(sorted(t.seats)) for t in tables} == {(1, 2), (3, 4), (5, 6)}


def test_never_the_same_opponent_twice_in_a_row() -> None:
    events = [*joined(3), RoundStarted(1, (Table((1, 2)),)), GameFinished(1, 0, (0, 1))]
    state = replay(CONFIG, events)
    # 3 is at no table; 1 and 2 come back: 1 must not meet 2 again.
    tables = FORMAT.pair_waiting(state, [1, 2], now=10.0)
    assert tables == ()
    tables = FORMAT.pair_waiting(state, [1, 2, 3], now=10.0)
    assert len(tables) == 1 and 3 in tables[0].seats
    (table,) = tables
    events += [RoundStarted(2, (table,)), GameFinished(2, 0, (0, 1))]
    # After a game with someone else, 1 and 2 may meet again.
    state = replay(CONFIG, events)
    left_out = ({1, 2, 3} - set(table.seats)).pop()
    again = FORMAT.pair_waiting(state, [left_out, *table.seats], now=20.0)
    assert all(left_out in t.seats for t in again) and again


def test_busy_withdrawn_and_late_players_are_not_paired() -> None:
    events = [*joined(4), RoundStarted(1, (Table((1, 2)),))]
    state = replay(CONFIG, events)
    assert FORMAT.pair_waiting(state, [1, 2, 3, 4], now=0.0) == (Table((3, 4)),)
    assert FORMAT.pair_waiting(state, [3, 4], now=1000.0) == ()  # the arena has ended


def test_win_two_draw_one_and_the_streak_doubles() -> None:
    # Player 1: win, win, draw (streak: 2 + 2 + 2), then win (no streak any more: 2).
    events: list[Event] = [*joined(5)]
    results = [((1, 2), (0, 1)), ((1, 3), (0, 1)), ((1, 4), (0, 0)), ((1, 5), (0, 1))]
    for number, (seats, ranks) in enumerate(results, 1):
        events += [RoundStarted(number, (Table(seats),)), GameFinished(number, 0, ranks)]
    state = replay(CONFIG, events)
    points, streak = arena.scores(state)
    assert points[1] == 2 + 2 + 2 + 2
    assert points[4] == 1 and points[2] == 0
    assert streak[1] == 1 and arena.on_streak(state) == set()
    events += [RoundStarted(5, (Table((2, 1)),)), GameFinished(5, 0, (1, 0))]
    events += [RoundStarted(6, (Table((1, 3)),)), GameFinished(6, 0, (0, 1))]
    state = replay(CONFIG, events)
    assert arena.on_streak(state) == {1}
    assert arena.scores(state)[0][1] == 8 + 2 + 4  # the third win in a row counts double
    rows = FORMAT.standings(state)
    assert rows[0].player == 1 and rows[0].wins == 5 and rows[0].draws == 1
    assert rows[0].tie_breaks[0][0] == "performance"


def test_the_first_seat_goes_to_who_had_it_least() -> None:
    events = [*joined(4), RoundStarted(1, (Table((1, 2)), Table((3, 4))))]
    events += [GameFinished(1, 0, (0, 1)), GameFinished(1, 1, (1, 0))]
    state = replay(CONFIG, events)
    # 1 and 4 won (1 ranked first on performance), 2 and 3 lost: 1 meets 4, 2 meets 3;
    # 4 and 2 have not moved first yet.
    tables = FORMAT.pair_waiting(state, [1, 2, 3, 4], now=5.0)
    assert tables == (Table((4, 1)), Table((2, 3)))
    assert FORMAT.rounds_total(state) is None
    assert not FORMAT.finished(state, 5.0) and FORMAT.finished(state, 1000.0)
