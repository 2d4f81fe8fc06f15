"""Self-play data for tuning the evaluation: positions, their features, the final result.

Both seats play the search bot on a small node budget, with a share of random moves so
that the positions cover more than one line of play. Each position is seen from the team
to move, as the evaluation sees it, and labelled with that team's final points (1 win,
0.5 draw, 0 loss). ``fit`` is a logistic regression (Newton's method with a little L2),
so ``tanh(w . f / 2)`` is the fitted ``2 p - 1``: exactly ``evaluation.evaluate``.
``searched_positions`` labels each position instead with the value its own deeper search
found (less noisy than one game's result) and ``fit_values`` fits those.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from roses.roseking import Board, Move, Variant
from roses.roseking.view import PlayerView

from . import kernel
from .evaluation import FEATURE_COUNT, SCRATCH_SIZE, features, new_features
from .search import encode, run


def self_play(
    seed: int,
    variant: Variant,
    explore: float,
    choose: Callable[[PlayerView], Move],
    record: Callable[[PlayerView], None],
) -> list[float]:
    """One game from ``seed``: each position's view goes to ``record`` before its move,
    ``choose``'s or, a share ``explore`` of the time, a random one. Returns each recorded
    position's mover's final points (1 win, 0.5 draw, 0 loss)."""
    rng = random.Random(seed)
    board = Board(variant, seed=seed)
    teams: list[int] = []
    while moves := board.legal_moves():
        view = board.view(board.turn)
        record(view)
        teams.append(board.turn & 1)
        if len(moves) == 1:
            move = moves[0]
        elif rng.random() < explore:
            move = rng.choice(moves)
        else:
            move = choose(view)
        board.push(move)
    outcome = board.outcome()
    assert outcome is not None
    red = 0.5 if outcome.winner is None else 1.0 - int(outcome.winner)
    return [red if team == 0 else 1.0 - red for team in teams]


def game_positions(
    seed: int, weights: tuple[float, ...], nodes: int, explore: float, variant: Variant
) -> tuple[list[list[float]], list[float]]:
    """One self-play game: each position's features and the mover's final points."""
    rows: list[list[float]] = []
    scratch = kernel._new(SCRATCH_SIZE)
    out = new_features()

    def record(view: PlayerView) -> None:
        features(encode(view), 0, scratch, out)
        rows.append([float(x) for x in out[:FEATURE_COUNT]])

    def choose(view: PlayerView) -> Move:
        return run(view, weights=weights, nodes=nodes).best

    return rows, self_play(seed, variant, explore, choose, record)


def searched_positions(
    seed: int, weights: tuple[float, ...], nodes: int, explore: float, variant: Variant
) -> tuple[list[list[float]], list[float]]:
    """One self-play game of the search bot (``nodes`` a move, 3 cards a draw, the table):
    each position's features and the value its search found for the team to move, a
    deeper look than the features alone; a share ``explore`` of the moves is random."""
    rng = random.Random(seed)
    board = Board(variant, seed=seed)
    rows: list[list[float]] = []
    values: list[float] = []
    scratch = kernel._new(SCRATCH_SIZE)
    out = new_features()
    while moves := board.legal_moves():
        view = board.view(board.turn)
        result = run(view, weights=weights, nodes=nodes, sample=3, table=True)
        features(encode(view), 0, scratch, out)
        rows.append([float(x) for x in out[:FEATURE_COUNT]])
        values.append(result.values[0])
        board.push(rng.choice(moves) if rng.random() < explore else result.best)
    return rows, values


def fit_values(x: Any, values: Any, l2: float = 1e-3) -> Any:
    """Weights ``w`` with ``tanh(w . x / 2)`` nearest the searched values: least squares in
    the logit domain (values clipped short of the exact results)."""
    z = 2.0 * np.arctanh(np.clip(values, -0.95, 0.95))
    a = x.T @ x + l2 * len(z) * np.eye(x.shape[1])
    return np.linalg.solve(a, x.T @ z)


def fit(x: Any, y: Any, l2: float = 1e-3, steps: int = 30) -> Any:
    """Logistic regression weights ``w`` with ``P(win) = 1 / (1 + exp(-w . x))``."""
    w = np.zeros(FEATURE_COUNT)
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) + l2 * len(y) * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + l2 * len(y) * np.eye(FEATURE_COUNT)
        w -= np.linalg.solve(hessian, gradient)
    return w


def squared_error(x: Any, values: Any, w: Any) -> float:
    """The mean squared error of ``tanh(w . x / 2)`` against searched values."""
    return float(np.mean((np.tanh(0.5 * (x @ w)) - values) ** 2))


def log_loss(x: Any, y: Any, w: Any) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ w))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
