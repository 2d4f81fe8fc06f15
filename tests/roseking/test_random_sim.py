"""Random games in the manner of OpenSpiel's random_sim_test, checked at every step."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roses.roseking import Board, Variant, parse_move
from roses.roseking.record import record_of, replay


def check_invariants(board: Board) -> None:
    # RK-3: the 24 cards are always somewhere, once each.
    cards = [c for hand in board.hands for c in hand] + list(board.draw_pile)
    cards += list(board.discard_pile)
    assert sorted(cards) == list(range(24))
    # RK-2: 52 stones shared between board and supply; a square holds one stone.
    assert board.red & board.white == 0
    assert board.stones_on_board + board.supply == 52
    assert board.supply >= 0
    assert all(len(hand) <= board.hand_limit for hand in board.hands)
    assert all(0 <= h <= board.variant.heroes_per_seat for h in board.heroes)
    assert board.draw_pile  # RK-9: never empty after a move
    if board.stones_on_board:
        assert (board.red | board.white) >> board.crown & 1


def check_step(board: Board, rng: random.Random) -> None:
    text = board.position()
    parsed = Board.from_position(text, variant=board.variant)
    assert parsed.position() == text  # RK-23 round trip
    assert parsed.legal_moves() == board.legal_moves()
    key, legal = board.state_key(), board.legal_moves()
    for move in legal:
        assert parse_move(str(move)) is move  # RK-22 round trip
        board.push(move)
        check_invariants(board)
        assert board.pop() is move
        assert board.state_key() == key  # push/pop restores the position exactly
        assert board.legal_moves() == legal


def play_random_game(variant: Variant, seed: int) -> Board:
    rng = random.Random(seed)
    board = Board(variant, seed=seed)
    check_invariants(board)
    while not board.is_over():
        check_step(board, rng)
        board.push(rng.choice(board.legal_moves()))
    assert board.outcome() is not None
    return board


def check_record_replays(board: Board) -> None:
    record = json.loads(json.dumps(record_of(board)))
    replayed = replay(record)
    assert replayed.position() == board.position()
    assert replayed.outcome() == board.outcome()


@pytest.mark.parametrize("variant", list(Variant))
def test_random_games_keep_every_invariant(variant: Variant) -> None:
    for seed in range(12):
        board = play_random_game(variant, seed)
        check_record_replays(board)
        # unwinding the whole game returns to the deal
        while board.move_stack:
            board.pop()
        assert board == Board(variant, seed=seed)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), variant=st.sampled_from(list(Variant)))
def test_any_seed_plays_to_a_scored_end_and_replays(seed: int, variant: Variant) -> None:
    board = Board(variant, seed=seed)
    rng = random.Random(seed)
    while not board.is_over():
        board.push(rng.choice(board.legal_moves()))
        check_invariants(board)
    check_record_replays(board)


def test_games_reshuffle_and_reach_both_endings() -> None:
    endings, reshuffled = set(), False
    for seed in range(300):
        board = Board(seed=seed)
        rng = random.Random(seed)
        while not board.is_over():
            board.push(rng.choice(board.legal_moves()))
        outcome = board.outcome()
        assert outcome is not None
        endings.add(outcome.termination)
        reshuffled = reshuffled or bool(board.reshuffles)
    assert len(endings) == 2
    assert reshuffled
