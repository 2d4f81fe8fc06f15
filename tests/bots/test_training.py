"""The training of the learned evaluation: the board's symmetries and the saved self-play
games (the fit itself needs PyTorch, which roses does not install)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from roses.bots.roseking.evaluation import FEATURE_COUNT, WEIGHTS
from roses.bots.roseking.training import play, symmetries
from roses.bots.roseking.value_net import INPUT_COUNT, MAX_ACTIVE, OWN_STONES
from roses.roseking import Variant


def test_the_eight_symmetries_are_distinct_permutations_of_the_inputs() -> None:
    maps = symmetries()
    assert len(maps) == 8
    assert len({tuple(m) for m in maps}) == 8
    assert list(range(INPUT_COUNT + 1)) in maps  # the identity
    for m in maps:
        assert sorted(m) == list(range(INPUT_COUNT + 1))
        assert m[INPUT_COUNT] == INPUT_COUNT  # the padding stays padding


def test_the_centre_square_is_fixed_by_every_symmetry() -> None:
    centre = OWN_STONES + 40  # e5 (RK-1)
    assert all(m[centre] == centre for m in symmetries())


def test_play_saves_each_position_with_its_labels(tmp_path: Path) -> None:
    play(0, 1, 200, WEIGHTS, Variant.CLASSIC, tmp_path)
    saved = np.load(tmp_path / "games-0.npz")
    positions = len(saved["p"])
    assert positions > 8  # a Rose King game lasts at least 8 plies
    assert saved["idx"].shape == (positions, MAX_ACTIVE)
    assert saved["f"].shape == (positions, FEATURE_COUNT)
    assert set(np.unique(saved["p"])) <= {0.0, 0.5, 1.0}
    assert ((saved["q"] >= 0) & (saved["q"] <= 1)).all()
    assert (saved["g"] == 0).all()
    play(0, 1, 200, WEIGHTS, Variant.CLASSIC, tmp_path)  # a saved block is not played again
    assert len(list(tmp_path.iterdir())) == 1


def test_the_module_runs_as_a_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "roses.bots.roseking.training", "--help"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0
    assert "play" in result.stdout and "train" in result.stdout
