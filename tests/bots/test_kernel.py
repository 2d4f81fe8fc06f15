"""The playout kernel plays by the engine's rules (RK-8..RK-17) and scores as RK-14/15 do.

Kernel games are logged and replayed move by move through the engine, reshuffles
included: the engine must accept every move and reach the same final score.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roses.bots.roseking import kernel
from roses.roseking import Board, Move, Variant
from roses.roseking.geometry import CARD_COUNT
from roses.roseking.record import recorded_shuffler

SHUFFLE_ROW = CARD_COUNT + 1


def _reshuffles(log: object, count: int) -> list[tuple[int, ...]]:
    rows = []
    for index in range(count):
        row = index * SHUFFLE_ROW
        size = int(log[row])  # type: ignore[index]
        rows.append(tuple(int(c) for c in log[row + 1 : row + 1 + size]))  # type: ignore[index]
    return rows


def kernel_game(
    board: Board, seed: int, policy: kernel.Policy
) -> tuple[list[int], list[int], Board]:
    """Play one kernel game from ``board``; return its moves, its result row and the
    engine board after replaying those moves with the kernel's reshuffles."""
    moves = kernel.new_log(kernel.MAX_PLIES)
    shuffles = kernel.new_log(kernel.MAX_SHUFFLES * SHUFFLE_ROW)
    out = kernel.recorded_game(kernel.encode_board(board), seed, moves, shuffles, policy)
    plies = int(out[kernel.R_PLIES])
    actions = [int(a) for a in moves[:plies]]
    replay = board.copy()
    reshuffle_count = sum(1 for row in range(kernel.MAX_SHUFFLES) if shuffles[row * SHUFFLE_ROW])
    # the engine numbers reshuffles from the game's start: earlier ones come first
    earlier = list(board.reshuffles)
    replay.shuffler = recorded_shuffler(earlier + _reshuffles(shuffles, reshuffle_count))
    for action in actions:
        replay.push(Move.from_action_id(action))  # raises IllegalMoveError on any rule slip
    return actions, [int(v) for v in out], replay


def _expected_row(board: Board) -> list[int]:
    outcome = board.outcome()
    assert outcome is not None, "the kernel stopped before the engine's game was over"
    points = 1 if outcome.winner is None else 2 - 2 * int(outcome.winner)
    red, white = outcome.red, outcome.white
    return [points, red.score, red.largest, red.stones, white.score, white.largest, white.stones]


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("policy", [kernel.UNIFORM, kernel.NEIGHBOURS])
def test_kernel_games_replay_exactly_through_the_engine(
    variant: Variant, policy: kernel.Policy
) -> None:
    """RK-8..RK-17: every kernel move is legal in the engine, the game ends when the
    engine says so (RK-12/13/17) and the kernel's scores are the engine's (RK-14, RK-15)."""
    for seed in range(40):
        board = Board(variant, seed=seed)
        actions, row, replay = kernel_game(board, seed, policy)
        assert row[: kernel.R_PLIES] == _expected_row(replay)
        assert row[kernel.R_PLIES] == len(actions) == len(replay.move_stack)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    prefix=st.integers(0, 80),
    policy=st.sampled_from([kernel.UNIFORM, kernel.NEIGHBOURS]),
)
def test_kernel_agrees_from_any_reachable_position(
    seed: int, prefix: int, policy: kernel.Policy
) -> None:
    """From mid-game positions too (hands part-played, piles reshuffled, heroes spent)."""
    board = Board(seed=seed)
    for ply in range(prefix):
        moves = board.legal_moves()
        if not moves:
            break
        board.push(moves[(seed >> 3) * (ply + 7) % len(moves)])
    start = board.copy(stack=False)
    _, row, replay = kernel_game(start, seed, policy)
    assert row[: kernel.R_PLIES] == _expected_row(replay)


def test_kernel_sees_a_finished_game_as_finished() -> None:
    board = Board(seed=4)
    while moves := board.legal_moves():
        board.push(moves[-1])
    actions, row, _ = kernel_game(board.copy(stack=False), 1, kernel.UNIFORM)
    assert actions == []
    assert row[: kernel.R_PLIES] == _expected_row(board)


def test_playouts_count_points_in_halves_and_depend_only_on_the_seed() -> None:
    vector = kernel.encode_board(Board(seed=9))
    total = kernel.playouts(vector, 50, 123, kernel.UNIFORM)
    assert 0 <= total <= 100
    assert kernel.playouts(vector, 50, 123, kernel.UNIFORM) == total
    assert {kernel.playouts(vector, 50, seed, kernel.UNIFORM) for seed in range(5)} != {total}


def test_playouts_ignore_the_pile_order() -> None:
    """The search gives the pile as a multiset: its order must not change any playout."""
    board = Board(seed=11)
    other = board.copy()
    other.reorder_draw_pile(tuple(reversed(board.draw_pile)))
    assert kernel.encode_board(board).tolist() != kernel.encode_board(other).tolist()
    for seed in range(3):
        first = kernel.playouts(kernel.encode_board(board), 20, seed, kernel.NEIGHBOURS)
        second = kernel.playouts(kernel.encode_board(other), 20, seed, kernel.NEIGHBOURS)
        assert first == second


def test_random_games_tally_every_game() -> None:
    for seats in (2, 4):
        red, white, draws, plies = (int(v) for v in kernel.random_games(300, 5, seats))
        assert red + white + draws == 300
        assert red > 0 and white > 0
        assert 300 * 52 <= plies <= 300 * kernel.MAX_PLIES


def test_benchmark_reports_the_engine_benchmark_fields() -> None:
    report = kernel.benchmark(200, seed=1)
    assert set(report) == {"games", "seconds", "games_per_s", "plies_per_s"}
    assert report["games"] == 200 and report["games_per_s"] > 0


FALLBACK_SCRIPT = """
import json
from roses.bots.roseking import kernel
from roses.roseking import Board, Variant
assert kernel.NUMBA is {numba}
rows = []
policies = (kernel.UNIFORM, kernel.NEIGHBOURS)
for variant in Variant:
    vector = kernel.encode_board(Board(variant, seed=3))
    moves, shuffles = kernel.new_log(kernel.MAX_PLIES), kernel.new_log(600)
    out = kernel.recorded_game(vector, 8, moves, shuffles, kernel.NEIGHBOURS)
    rows.append([int(v) for v in out] + [int(v) for v in moves[: int(out[7])]])
    rows.append([int(kernel.playouts(vector, 7, 4, p)) for p in policies])
rows.append([int(v) for v in kernel.random_games(20, 6, 2)])
print(json.dumps(rows))
"""


def _run_kernel_script(numba: bool) -> list[list[int]]:
    env = dict(os.environ)
    env.pop("ROSES_NO_NUMBA", None)
    if not numba:
        env["ROSES_NO_NUMBA"] = "1"
    result = subprocess.run(
        [sys.executable, "-c", FALLBACK_SCRIPT.format(numba=numba)],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    return json.loads(result.stdout)  # type: ignore[no-any-return]


@pytest.mark.skipif(not kernel.NUMBA, reason="numba is not installed")
def test_pure_python_fallback_gives_the_same_games() -> None:
    assert _run_kernel_script(numba=False) == _run_kernel_script(numba=True)
