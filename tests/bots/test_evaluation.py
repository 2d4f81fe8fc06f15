"""The evaluation's features on small positions whose values can be counted by hand."""

from __future__ import annotations

import math

import pytest

from roses.bots.roseking import kernel
from roses.bots.roseking.evaluation import (
    FEATURE_COUNT,
    FEATURE_NAMES,
    HAND_MADE,
    SCRATCH_SIZE,
    evaluate,
    features,
    new_features,
    weight_vector,
)
from roses.bots.roseking.search import encode
from roses.roseking import Board, Move, territory_sizes

# Red's crown on a1 with S1, S2, S3, W1, W2: every card leaves the board (RK-8), the hand
# is full (RK-9) and Red has no stone of White's to flip (RK-10), so Red must pass (RK-11).
# White's N1, E1 and NE1 all reach empty squares from a1.
STUCK = (
    "9/9/9/9/9/9/9/9/r8 a1 r S1,S2,S3,W1,W2|N1,E1,NE1 2|3"
    " N2,N3,NE2,NE3,E2,E3,SE1,SE2,SE3,SW1/SW2,SW3,W3,NW1,NW2,NW3"
)


def feature_values(position: str) -> dict[str, float]:
    board = Board.from_position(position)
    out = new_features()
    features(encode(board.view(board.turn)), 0, kernel._new(SCRATCH_SIZE), out)
    return dict(zip(FEATURE_NAMES, (float(x) for x in out[:FEATURE_COUNT]), strict=True))


def test_a_seat_with_a_full_hand_and_no_play_is_stuck() -> None:
    """RK-11: the full hand that cannot play passes: the stuck feature counts it for the
    team to move, and its playable cards (RK-8) are none against White's three."""
    board = Board.from_position(STUCK)
    assert board.legal_moves() == (Move.from_str("pass"),)
    f = feature_values(STUCK)
    assert f["stuck"] == 1.0
    assert f["playable"] == pytest.approx((0 - 3) / 5)
    assert f["hand"] == pytest.approx((5 - 3) / 5)


def test_score_territory_and_material_features() -> None:
    """RK-14: one red stone is a territory of 1 (1 point), the largest 1, one stone; RK-10:
    two heroes against three; two empty squares border the red stone (a2, b1)."""
    f = feature_values(STUCK)
    phase = 1 / 52
    assert f["tempo"] == 1.0
    assert f["score"] == pytest.approx(1 / 100)
    assert f["score x phase"] == pytest.approx(phase / 100)
    assert f["largest"] == pytest.approx(1 / 10)
    assert f["stones"] == pytest.approx(1 / 10)
    assert f["heroes"] == -1.0
    assert f["heroes x phase"] == pytest.approx(-phase)
    assert f["frontier"] == pytest.approx(2 / 10)


def test_features_are_seen_from_the_team_to_move() -> None:
    """The same board with White to move negates every margin (RK-14's scores are the
    same stones seen from the other side); tempo stays 1. The best play is the mover's
    own: none for the stuck Red, a lone first stone (1 point) for White."""
    white = STUCK.replace(" a1 r ", " a1 w ")
    red_view, white_view = feature_values(STUCK), feature_values(white)
    for name in FEATURE_NAMES[1:]:
        if name != "best play":
            assert white_view[name] == pytest.approx(-red_view[name]), name
    assert white_view["tempo"] == 1.0
    assert red_view["best play"] == 0.0
    assert white_view["best play"] == pytest.approx(1 / 100)


def mover_score(board: Board) -> int:
    stones = board.red if board.turn % 2 == 0 else board.white
    return sum(size * size for size in territory_sizes(stones))


@pytest.mark.parametrize("seed", range(6))
def test_the_best_play_is_the_most_one_stone_from_hand_adds(seed: int) -> None:
    """RK-14: placing a stone adds (1 + joined sizes)^2 minus the joined squares; the
    feature is the most any play of the mover's hand (not a hero's flip) would add, found
    here by playing each and scoring the board, at every ply of a game."""
    board = Board(seed=seed)
    while board.legal_moves():
        before = mover_score(board)
        gains = [0]
        for move in board.legal_moves():
            if str(move) in ("draw", "pass") or str(move).endswith("h"):
                continue
            after = board.copy()
            after.push(move)
            stones = after.red if board.turn % 2 == 0 else after.white
            gains.append(sum(size * size for size in territory_sizes(stones)) - before)
        out = new_features()
        features(encode(board.view(board.turn)), 0, kernel._new(SCRATCH_SIZE), out)
        assert out[FEATURE_NAMES.index("best play")] == pytest.approx(max(gains) / 100)
        board.push(board.legal_moves()[seed % len(board.legal_moves())])


def test_the_value_is_the_weighted_sum_through_tanh() -> None:
    board = Board.from_position(STUCK)
    out = new_features()
    value = evaluate(
        encode(board.view(0)), 0, weight_vector(HAND_MADE), kernel._new(SCRATCH_SIZE), out
    )
    # the hand-made evaluation: 2 per 100 points of score margin, 0.6 a hero
    assert value == pytest.approx(math.tanh(0.5 * (2.0 * 0.01 + 0.6 * -1.0)))


@pytest.mark.parametrize(("frontier", "best_play"), [(0.0, 0.0), (-0.5, 0.0), (0.0, 1.0)])
def test_the_value_weighs_every_feature(frontier: float, best_play: float) -> None:
    """The evaluation skips a board scan (frontier, best play) only when its weight is 0:
    with any weights it is ``tanh`` of half the weighted sum of ``features``."""
    board = Board(seed=12)
    for _ in range(25):
        board.push(board.legal_moves()[-1])
    weights = (0.1, 0.7, 2.0, 0.1, 0.9, 0.2, 0.4, 0.2, -0.25, -0.07, frontier, best_play)
    view = encode(board.view(board.turn))
    out = new_features()
    features(view, 0, kernel._new(SCRATCH_SIZE), out)
    assert out[10] != 0.0 and out[11] != 0.0
    expected = math.tanh(
        0.5 * sum(w * float(f) for w, f in zip(weights, out[:FEATURE_COUNT], strict=True))
    )
    value = evaluate(view, 0, weight_vector(weights), kernel._new(SCRATCH_SIZE), new_features())
    assert value == pytest.approx(expected, abs=1e-12)
