"""Glicko-2 as published: the worked example of Glickman's paper (2013)."""

from __future__ import annotations

import pytest

from roses.server.ratings.glicko2 import Rating, Result, rate


def test_the_papers_example() -> None:
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1),
        Result(Rating(1550, 100), 0),
        Result(Rating(1700, 300), 0),
    ]
    after = rate(player, results)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_win_raises_and_a_loss_lowers_equally() -> None:
    winner = rate(Rating(), [Result(Rating(), 1)])
    loser = rate(Rating(), [Result(Rating(), 0)])
    drawn = rate(Rating(), [Result(Rating(), 0.5)])
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rating > 1500 and drawn.rating == pytest.approx(1500)
    assert winner.deviation < 350
