"""Ratings for more than two (Weng-Lin: openskill's Bradley-Terry with full pairing): which
variants it rates, and how one game's ranking moves its players."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roses.games import game_module
from roses.server.ratings.systems import Standing, System, rate, start, system_of
from roses.server.ratings.weng_lin import MODEL, Skill

WENG_LIN = System.WENG_LIN


def test_a_duel_keeps_glicko2_and_every_other_variant_is_weng_lin() -> None:
    assert system_of("roseking", 2) is System.GLICKO2
    assert system_of("wotr", 2) is System.GLICKO2  # two seats, each its own team
    assert system_of("wotr", 3) is WENG_LIN and system_of("wotr", 4) is WENG_LIN
    assert game_module("roseking").teams(4) == (0, 1, 0, 1)  # RK-16: two teams of two
    assert system_of("roseking", 4) is WENG_LIN


def test_a_newcomer_shows_1500_with_350_in_both_systems() -> None:
    for system in System:
        assert (start(system).rating, start(system).deviation) == (1500, 350)
    assert start(WENG_LIN).mu == MODEL.mu and start(WENG_LIN).sigma == MODEL.sigma
    assert Skill(30, 2).shown == pytest.approx(1500 + 42 * (30 - 3 * 2))
    assert Skill(30, 2).shown_deviation == pytest.approx(84)


def test_a_four_player_result_moves_the_winner_up_and_the_last_down() -> None:
    keys = ["user:1", "user:2", "user:3", "user:4"]
    after = rate(WENG_LIN, {}, keys, [0, 1, 2, 3], (0, 1, 2, 3))
    assert set(after) == set(keys)
    first, last = after["user:1"], after["user:4"]
    assert first.mu is not None and last.mu is not None
    assert first.mu > MODEL.mu and first.rating > 1500
    assert last.mu < MODEL.mu and last.rating < 1500
    shown = [after[key].rating for key in keys]
    assert shown == sorted(shown, reverse=True)
    assert all(after[key].volatility is None for key in keys)


def test_a_team_game_moves_both_partners_alike() -> None:
    keys = ["user:1", "user:2", "user:3", "user:4"]  # Red 1, White 1, Red 2, White 2
    before = {"user:3": Standing(1500, 350, mu=MODEL.mu, sigma=MODEL.sigma)}
    after = rate(WENG_LIN, before, keys, [1, 0, 1, 0], (0, 1, 0, 1))
    assert after["user:1"] == after["user:3"] and after["user:2"] == after["user:4"]
    assert after["user:2"].rating > 1500 > after["user:1"].rating
    assert after["user:2"].mu - MODEL.mu == pytest.approx(MODEL.mu - after["user:1"].mu)  # type: ignore[operator]


def test_a_shared_first_place_moves_its_seats_alike() -> None:
    after = rate(WENG_LIN, {}, ["user:1", "user:2", "user:3"], [0, 2, 0], (0, 1, 2))
    assert after["user:1"] == after["user:3"]
    assert after["user:1"].rating > 1500 > after["user:2"].rating


def test_a_bot_in_two_seats_is_rated_once_and_nobody_is_rated_against_only_itself() -> None:
    keys = ["user:1", "bot:random:", "bot:random:", "bot:heuristic:"]
    after = rate(WENG_LIN, {}, keys, [0, 1, 2, 3], (0, 1, 2, 3))
    assert set(after) == {"user:1", "bot:random:", "bot:heuristic:"}
    apart = rate(WENG_LIN, {}, ["a", "b", "c", "d"], [0, 1, 2, 3], (0, 1, 2, 3))
    assert after["bot:random:"].mu == pytest.approx((apart["b"].mu + apart["c"].mu) / 2)  # type: ignore[operator]
    assert rate(WENG_LIN, {}, ["bot:random:"] * 3, [0, 1, 2], (0, 1, 2)) == {}
    assert rate(WENG_LIN, {}, ["user:1", None, None], [0, 1, 2], (0, 1, 2)) == {}


def test_a_seat_nobody_is_rated_for_still_takes_its_place_in_the_ranking() -> None:
    with_seat = rate(WENG_LIN, {}, ["user:1", None, "user:3"], [0, 1, 2], (0, 1, 2))
    without = rate(WENG_LIN, {}, ["user:1", "user:3"], [0, 1], (0, 1))
    assert set(with_seat) == {"user:1", "user:3"}
    assert with_seat["user:1"].mu > without["user:1"].mu  # type: ignore[operator]  # beat two


skills = st.builds(
    Skill, st.floats(min_value=0, max_value=50), st.floats(min_value=0.5, max_value=25 / 3)
)


@st.composite
def games(draw: st.DrawFn) -> tuple[list[int], tuple[int, ...]]:
    """A ranking of 3 or 4 seats, each its own team, or two teams of two."""
    teamed = draw(st.booleans())
    players = 4 if teamed else draw(st.sampled_from([3, 4]))
    teams = (0, 1, 0, 1) if teamed else tuple(range(players))
    team_ranks = draw(st.lists(st.integers(0, 3), min_size=len(set(teams)),
                               max_size=len(set(teams))))  # fmt: skip
    return [team_ranks[team] for team in teams], teams


def _standing(skill: Skill) -> Standing:
    return Standing(skill.shown, skill.shown_deviation, mu=skill.mu, sigma=skill.sigma)


@settings(max_examples=100, deadline=None)
@given(games(), skills)
def test_players_rated_alike_before_change_in_the_order_of_their_ranks(
    game: tuple[list[int], tuple[int, ...]], skill: Skill
) -> None:
    ranks, teams = game
    keys = [f"user:{seat}" for seat in range(len(ranks))]
    after = rate(WENG_LIN, {key: _standing(skill) for key in keys}, keys, ranks, teams)
    moves = [after[key].mu - skill.mu for key in keys]  # type: ignore[operator]
    for a in range(len(keys)):
        for b in range(len(keys)):
            if ranks[a] < ranks[b]:
                assert moves[a] > moves[b]
                assert after[keys[a]].rating > after[keys[b]].rating
            elif ranks[a] == ranks[b]:
                assert moves[a] == pytest.approx(moves[b])
    assert abs(sum(moves)) < 1e-9 * len(keys) + 1e-6  # what one wins, the others lose


@settings(max_examples=100, deadline=None)
@given(games(), st.lists(skills, min_size=4, max_size=4))
def test_a_sole_winner_never_loses_a_sole_last_never_gains_and_the_moves_are_bounded(
    game: tuple[list[int], tuple[int, ...]], before: list[Skill]
) -> None:
    ranks, teams = game
    keys = [f"user:{seat}" for seat in range(len(ranks))]
    after = rate(WENG_LIN, {k: _standing(s) for k, s in zip(keys, before, strict=False)}, keys,
                 ranks, teams)  # fmt: skip
    moves = [after[k].mu - s.mu for k, s in zip(keys, before, strict=False)]  # type: ignore[operator]
    for seat, move in enumerate(moves):  # a draw with a weaker player may cost a shared place
        if ranks.count(ranks[seat]) == teams.count(teams[seat]):  # no other team shares it
            if ranks[seat] == min(ranks):
                assert move >= 0
            if ranks[seat] == max(ranks):
                assert move <= 0
    # Bradley-Terry moves a player's mu by its variance over c_iq (at least sqrt(2) beta)
    # times a term of size at most 1 per other team: the moves are bounded.
    variances = [s.sigma**2 + MODEL.tau**2 for s in before[: len(keys)]]
    others = len(set(teams)) - 1
    assert abs(sum(moves)) <= sum(variances) * others / (2**0.5 * MODEL.beta)
    for key, variance in zip(keys, variances, strict=False):  # never less sure than before
        assert after[key].sigma ** 2 <= variance + 1e-9  # type: ignore[operator]
