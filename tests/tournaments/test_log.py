"""The log: JSON round trips, replay's checks, and the same log giving the same pairings
and standings in every format."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roses.server.tournaments.formats import FORMATS
from roses.server.tournaments.log import (
    Event,
    Forfeited,
    GameFinished,
    Joined,
    LogError,
    RoundStarted,
    Table,
    TournamentConfig,
    TournamentLog,
    Withdrew,
    event_from_json,
    replay,
)

CONFIGS = {
    "swiss": TournamentConfig("swiss", "roseking", rounds=3, late_join_until_round=2),
    "pools": TournamentConfig(
        "pools",
        "wotr",
        4,
        3,
        points_by_rank=(3.0, 2.0, 1.0, 0.0),
        min_players_per_table=3,
        late_join_until_round=2,
        final=True,
    ),
    "arena": TournamentConfig("arena", "roseking", points_by_rank=(2.0, 0.0), ends_at=100.0),
}


def run(name: str, players: int, seed: int) -> tuple[TournamentConfig, list[Event]]:
    """A whole tournament of the format with random results, a withdrawal and a late
    entrant; every pairing from the format."""
    base = CONFIGS[name]
    cfg = TournamentConfig.from_json({**base.to_json(), "seed": seed})
    rng = random.Random(seed)
    events: list[Event] = [
        Joined(p, f"p{p}", rng.uniform(1200, 2200), p % 3 == 0) for p in range(players)
    ]
    fmt = FORMATS[name]
    for step in range(6):
        state = replay(cfg, events)
        if step == 1:
            events.append(Withdrew(rng.choice(state.active)))
            if state.may_join:
                events.append(Joined(99, "late", 1500.0))
            state = replay(cfg, events)
        if fmt.continuous:
            waiting = [p for p in state.active if p not in state.playing()]
            tables = fmt.pair_waiting(state, waiting, now=10.0 * step)
            if not tables:
                continue
            started = RoundStarted(state.rounds_started + 1, tables)
        else:
            if fmt.finished(state, 0.0):
                break
            started = fmt.next_round(state)
        events.append(started)
        for number, table in enumerate(started.tables):
            if rng.random() < 0.1:
                events.append(Forfeited(started.round, number, (table.seats[-1],)))
            else:
                ranks = [rng.randrange(len(table.seats)) for _ in table.seats]
                events.append(GameFinished(started.round, number, tuple(ranks)))
    return cfg, events


@settings(max_examples=12, deadline=None)
@given(
    name=st.sampled_from(sorted(CONFIGS)), players=st.integers(5, 10), seed=st.integers(0, 10**6)
)
def test_replaying_the_log_gives_the_same_pairings_and_standings(
    name: str, players: int, seed: int
) -> None:
    cfg, events = run(name, players, seed)
    log = TournamentLog(cfg, tuple(events))
    again = TournamentLog.from_json(json.loads(json.dumps(log.to_json())))
    assert again == log
    fmt = FORMATS[name]
    for index, event in enumerate(events):
        if isinstance(event, RoundStarted):
            before = replay(cfg, events[:index])
            if fmt.continuous:
                waiting = [p for p in before.active if p not in before.playing()]
                assert fmt.pair_waiting(before, waiting, now=0.0) == event.tables
            else:
                assert fmt.next_round(before) == event
    assert fmt.standings(again.replay()) == fmt.standings(log.replay())
    rows = fmt.standings(log.replay())
    assert sorted(row.player for row in rows) == sorted(log.replay().entrants)
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)


def test_every_event_and_the_config_round_trip() -> None:
    events: list[Event] = [
        Joined(1, "Ann", 1500.5, True),
        Withdrew(1),
        RoundStarted(2, (Table((3, 4)), Table((5, 6, 7))), (8,)),
        GameFinished(2, 1, (0, 2, 1)),
        Forfeited(2, 0, (4,)),
    ]
    for event in events:
        assert event_from_json(json.loads(json.dumps(event.to_json()))) == event
    for cfg in CONFIGS.values():
        assert TournamentConfig.from_json(json.loads(json.dumps(cfg.to_json()))) == cfg


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([Joined(1, "a", 1.0), Joined(1, "a", 1.0)], "event 1 \\(joined\\): player 1 has already"),
        ([Withdrew(3)], "player 3 is not in the tournament"),
        ([Joined(1, "a", 1.0), RoundStarted(2, ())], "round 2 where round 1 comes next"),
        ([Joined(1, "a", 1.0), RoundStarted(1, (Table((1, 1)),))], "placed twice"),
        ([Joined(1, "a", 1.0), RoundStarted(1, (Table((1, 2)),))], "player 2 is not in"),
        ([GameFinished(1, 0, (0, 1))], "round 1 has no table 0"),
        (
            [Joined(1, "a", 1.0), Joined(2, "b", 1.0), RoundStarted(1, (Table((1, 2)),)),
             GameFinished(1, 0, (0, 1)), GameFinished(1, 0, (0, 1))],
            "has already finished",
        ),
        (
            [Joined(1, "a", 1.0), Joined(2, "b", 1.0), RoundStarted(1, (Table((1, 2)),)),
             GameFinished(1, 0, (0,))],
            "1 ranks for 2 seats",
        ),
        (
            [Joined(1, "a", 1.0), Joined(2, "b", 1.0), RoundStarted(1, (Table((1, 2)),)),
             RoundStarted(2, ())],
            "round 2 starts before round 1 ended",
        ),
    ],
)  # fmt: skip
def test_a_bad_log_says_what_and_where(events: list[Event], message: str) -> None:
    with pytest.raises(LogError, match=message):
        replay(CONFIGS["swiss"], events)


def test_a_bad_config_is_refused() -> None:
    with pytest.raises(LogError, match="points_by_rank has 2 entries for tables of 4"):
        TournamentConfig("pools", "wotr", 4)
    with pytest.raises(LogError, match="unknown tournament format"):
        TournamentConfig.from_json({"format": "knockout", "game": "wotr"})
    with pytest.raises(LogError, match="unknown tournament event type"):
        event_from_json({"type": "exploded"})
    with pytest.raises(LogError, match="a joined event with a missing or wrong field"):
        event_from_json({"type": "joined", "player": "seven"})
    with pytest.raises(LogError, match="a tournament config with a missing or wrong field"):
        TournamentConfig.from_json({"format": "swiss"})


def test_ties_share_the_points_of_their_places() -> None:
    cfg = CONFIGS["pools"]
    events: list[Event] = [
        *(Joined(p, f"p{p}", 1500.0) for p in range(4)),
        RoundStarted(1, (Table((0, 1, 2, 3)),)),
        GameFinished(1, 0, (0, 0, 2, 3)),  # two first: (3 + 2) / 2 each
    ]
    points = replay(cfg, events).base_points()
    assert points == {0: 2.5, 1: 2.5, 2: 1.0, 3: 0.0}
