"""Self-play data for the evaluation's fits: positions labelled by results or by search."""

from __future__ import annotations

import numpy as np
import pytest

from roses.bots.roseking.evaluation import FEATURE_COUNT, HAND_MADE
from roses.bots.roseking.selfplay import (
    fit,
    fit_values,
    game_positions,
    searched_positions,
    squared_error,
)
from roses.roseking import Variant


def test_fit_values_recovers_the_weights_behind_the_values() -> None:
    """Values made by ``tanh(w . x / 2)`` (inside the clip) give back ``w``."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(500, FEATURE_COUNT)) * 0.3
    w = rng.normal(size=FEATURE_COUNT)
    values = np.tanh(0.5 * (x @ w))
    assert np.abs(values).max() < 0.95
    fitted = fit_values(x, values, l2=0.0)
    assert fitted == pytest.approx(w, abs=1e-9)
    assert squared_error(x, values, fitted) == pytest.approx(0.0, abs=1e-18)


def test_searched_positions_label_every_decision_with_its_search_value() -> None:
    rows, values = searched_positions(4, HAND_MADE, 300, 0.1, Variant.CLASSIC)
    assert len(rows) == len(values) > 40
    assert all(len(row) == FEATURE_COUNT for row in rows)
    assert all(-1.0 <= v <= 1.0 for v in values)
    # the last decisions are searched to the end: exact results
    assert values[-1] in (-1.0, 0.0, 1.0)


def test_result_labels_fit_a_logistic_model() -> None:
    rows, labels = game_positions(4, HAND_MADE, 300, 0.1, Variant.CLASSIC)
    assert set(labels) <= {0.0, 0.5, 1.0}
    weights = fit(np.array(rows), np.array(labels))
    assert weights.shape == (FEATURE_COUNT,) and np.isfinite(weights).all()
