"""Match statistics (Wilson interval, Elo) and the match runner's pairing of deals."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roses.bots.matches import wilson_interval
from roses.bots.roseking.match import (
    MatchConfig,
    cumulative_scores,
    elo_difference,
    format_elo,
    game_seed,
    match_stats,
    play_game,
    play_match,
)
from roses.roseking import Variant
from roses.roseking.record import replay


def test_wilson_interval_matches_the_textbook_value() -> None:
    # 8 of 10: Wilson 95% interval (0.490, 0.943) (Newcombe 1998, method 3)
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)


@given(games=st.integers(1, 500), data=st.data())
def test_wilson_interval_holds_the_observed_rate(games: int, data: st.DataObject) -> None:
    halves = data.draw(st.integers(0, 2 * games))
    low, high = wilson_interval(halves / 2, games)
    assert 0.0 <= low <= halves / 2 / games <= high <= 1.0


def test_elo_difference_from_the_score() -> None:
    assert elo_difference(0.5) == 0.0
    assert elo_difference(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_difference(0.25) == pytest.approx(-400 * math.log10(3))
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf


def test_match_stats_count_draws_as_half_points() -> None:
    stats = match_stats([1.0, 1.0, 0.5, 0.0])
    assert (stats.wins, stats.draws, stats.losses, stats.games) == (2, 1, 1, 4)
    assert stats.score == pytest.approx(2.5 / 4)
    assert stats.low < stats.score < stats.high
    assert stats.elo == pytest.approx(elo_difference(0.625))
    assert stats.elo_low < stats.elo < stats.elo_high


def test_cumulative_scores() -> None:
    assert cumulative_scores([1.0, 0.0, 0.5, 1.0]) == [1.0, 0.5, 0.5, 0.625]


def test_paired_games_share_the_deal_with_seats_swapped() -> None:
    assert game_seed(3, 0) == game_seed(3, 1) != game_seed(3, 2)
    config = MatchConfig("greedy", "random", 2, seed=3, keep_records=True)
    first, second = play_game(config, 0), play_game(config, 1)
    assert (first.a_team, second.a_team) == (0, 1)
    assert first.record is not None and second.record is not None
    assert first.record["start"] == second.record["start"]
    assert first.record["players"] == ["greedy", "random"]
    assert second.record["players"] == ["random", "greedy"]


def test_records_replay_to_the_reported_result() -> None:
    config = MatchConfig("greedy", "random", 2, seed=1, keep_records=True)
    for result in play_match(config):
        assert result.record is not None
        outcome = replay(result.record).outcome()
        assert outcome is not None
        team_a = result.a_team
        expected = 0.5 if outcome.winner is None else float(int(outcome.winner) == team_a)
        assert result.points_a == expected


def test_four_player_match_gives_each_bot_a_team() -> None:
    config = MatchConfig("greedy", "random", 2, variant=Variant.FOUR_PLAYER, keep_records=True)
    results = list(play_match(config))
    assert results[0].record is not None
    assert results[0].record["players"] == ["greedy", "random", "greedy", "random"]


def test_parallel_match_plays_the_same_games() -> None:
    config = MatchConfig("greedy", "random", 4, seed=2)
    serial = sorted((r.index, r.points_a) for r in play_match(config))
    parallel = sorted((r.index, r.points_a) for r in play_match(config, jobs=2))
    assert serial == parallel


def test_format_elo_never_prints_minus_zero() -> None:
    assert [format_elo(v) for v in (-0.0, 190.8, -35.2, math.inf, -math.inf)] == [
        "+0", "+191", "-35", "+inf", "-inf",
    ]  # fmt: skip


def test_a_resumed_match_plays_only_the_missing_games() -> None:
    config = MatchConfig("greedy", "random", 6, seed=4)
    everything = {r.index: r.points_a for r in play_match(config)}
    rest = {r.index: r.points_a for r in play_match(config, skip={0, 1, 4})}
    assert sorted(rest) == [2, 3, 5]
    assert all(everything[index] == points for index, points in rest.items())
