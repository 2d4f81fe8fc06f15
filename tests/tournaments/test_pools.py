"""Pools: tables drawn so that players meet evenly and play each seat evenly."""

from __future__ import annotations

from roses.server.tournaments.formats import FORMATS
from roses.server.tournaments.log import Event, GameFinished, Joined, TournamentConfig, replay


def wotr(players_per_table: int = 4, rounds: int | None = None) -> TournamentConfig:
    points = tuple(float(players_per_table - 1 - place) for place in range(players_per_table))
    return TournamentConfig("pools", "wotr", players_per_table, rounds, points_by_rank=points)


def test_eight_players_sit_at_two_tables_of_four() -> None:
    cfg = wotr()
    events: list[Event] = [Joined(p, f"player {p}", 1500.0) for p in range(8)]
    state = replay(cfg, events)
    assert FORMATS["pools"].rounds_total(state) == 3
    started = FORMATS["pools"].next_round(state)
    assert [len(t.seats) for t in started.tables] == [4, 4] and started.byes == ()
    events.append(started)
    events += [GameFinished(1, t, (0, 1, 2, 3)) for t in range(2)]
    rows = FORMATS["pools"].standings(replay(cfg, events))
    assert [row.points for row in rows] == [3, 3, 2, 2, 1, 1, 0, 0]
