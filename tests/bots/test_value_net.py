"""The learned evaluation: its inputs read off a position by hand, its value recomputed in
plain Python from the trained weights, and malformed networks refused."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roses.bots.roseking import kernel
from roses.bots.roseking.evaluation import (
    FEATURE_COUNT,
    SCRATCH_SIZE,
    evaluate,
    features,
    new_features,
    weight_vector,
)
from roses.bots.roseking.search import encode
from roses.bots.roseking.value_net import (
    CROWN,
    INPUT_COUNT,
    LINEAR_COUNT,
    MAX_ACTIVE,
    OTHER_CARDS,
    OTHER_HAND,
    OTHER_HEROES,
    OTHER_REACH,
    OTHER_STONES,
    OWN_CARDS,
    OWN_HAND,
    OWN_HEROES,
    OWN_REACH,
    OWN_STONES,
    PILE,
    STONES,
    WEIGHTS_FILES,
    flat,
    inputs,
    learned_weights,
)
from roses.roseking import Board, Variant
from roses.roseking.geometry import SQUARE_COUNT, TARGET
from roses.roseking.view import PlayerView


def active_inputs(view: PlayerView) -> set[int]:
    """The inputs ``value_net`` describes, read off a player's view (RK-20)."""
    mover, other = view.turn, (view.turn + 1) % view.seats
    own = view.red if mover % 2 == 0 else view.white
    stones = view.red | view.white
    active = {CROWN + view.crown, STONES + min(stones.bit_count() // 8, 6)}
    for sq in range(SQUARE_COUNT):
        if stones >> sq & 1:
            active.add((OWN_STONES if own >> sq & 1 else OTHER_STONES) + sq)
    for seat, cards, reach, heroes, hand in (
        (mover, OWN_CARDS, OWN_REACH, OWN_HEROES, OWN_HAND),
        (other, OTHER_CARDS, OTHER_REACH, OTHER_HEROES, OTHER_HAND),
    ):
        for card in view.hands[seat]:
            active.add(cards + card)
            target = TARGET[card][view.crown]
            if target >= 0 and not stones >> target & 1:
                active.add(reach + target)  # RK-8: a stone may go there now
        active.add(heroes + min(view.heroes[seat], 4))
        active.add(hand + len(view.hands[seat]))
    active.update(PILE + card for card in view.draw_pile_cards)
    return active


def random_board(seed: int, plies: int, variant: Variant = Variant.CLASSIC) -> Board:
    board = Board(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if not (moves := board.legal_moves()):
            break
        board.push(rng.choice(moves))
    return board


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 120))
def test_the_inputs_are_the_positions_own(seed: int, plies: int) -> None:
    """Each input once, all within range, and exactly those the view shows."""
    board = random_board(seed, plies)
    view = board.view(board.turn)
    idx = kernel._new(MAX_ACTIVE + 3)
    count = inputs(encode(view), 0, idx, 3)
    found = [int(i) for i in idx[3 : 3 + count]]
    assert len(found) == len(set(found)) and all(0 <= i < INPUT_COUNT for i in found)
    assert set(found) == active_inputs(view)


def reference_value(view: PlayerView, network: dict[str, Any]) -> float:
    out = new_features()
    features(encode(view), 0, kernel._new(SCRATCH_SIZE), out)
    linear = zip(network["linear"], out[:FEATURE_COUNT], strict=True)
    logit = network["bias"] + sum(w * f for w, f in linear)
    rows = [network["inputs"][i] for i in active_inputs(view)]
    for j, bias in enumerate(network["hidden_bias"]):
        unit = bias + sum(row[j] for row in rows)
        logit += network["output"][j] * max(unit, 0.0)
    return max(-0.999, min(0.999, math.tanh(logit / 2)))


@pytest.mark.parametrize("variant", [Variant.CLASSIC, Variant.FOUR_PLAYER])
def test_the_search_evaluates_the_trained_network(variant: Variant) -> None:
    """Each player count's network, as the search reads it, is the file's network."""
    network = json.loads(WEIGHTS_FILES[variant.seats].read_text(encoding="utf-8"))
    weights = weight_vector(learned_weights(variant.seats))
    for seed, plies in ((1, 0), (2, 17), (3, 40), (4, 75)):
        board = random_board(seed, plies, variant)
        view = board.view(board.turn)
        value = evaluate(encode(view), 0, weights, kernel._new(SCRATCH_SIZE), new_features())
        assert value == pytest.approx(reference_value(view, network), abs=1e-9)


HANDS_AND_PILES = (
    "i9 r S1,S2,S3,W1,W2|N1,E1,NE1 2|3 N2,N3,NE2,NE3,E2,E3,SE1,SE2,SE3,SW1/SW2,SW3,W3,NW1,NW2,NW3"
)


def test_a_central_stone_is_worth_more_to_the_trained_network() -> None:
    """What self-play taught it: the same stone on e5 is worth more than on a1, where a
    territory has less room to grow (RK-14)."""
    network = json.loads(WEIGHTS_FILES[2].read_text(encoding="utf-8"))
    centre = Board.from_position(f"8r/9/9/9/4r4/9/9/9/9 {HANDS_AND_PILES}")
    corner = Board.from_position(f"8r/9/9/9/9/9/9/9/r8 {HANDS_AND_PILES}")
    assert reference_value(centre.view(0), network) > reference_value(corner.view(0), network)


def tiny_network(hidden: int = 2) -> dict[str, Any]:
    return {
        "linear": [0.0] * LINEAR_COUNT,
        "bias": 0.0,
        "hidden_bias": [0.0] * hidden,
        "output": [1.0] * hidden,
        "inputs": [[0.0] * hidden for _ in range(INPUT_COUNT)],
    }


def test_a_flat_network_is_linear_weights_then_the_network() -> None:
    network = tiny_network()
    network["bias"], network["inputs"][5] = 0.25, [3.0, 4.0]
    weights = flat(network)
    assert len(weights) == FEATURE_COUNT + 1 + 2 + 2 + INPUT_COUNT * 2
    assert weights[FEATURE_COUNT] == 0.25 and weights[-(INPUT_COUNT - 5) * 2 :][:2] == (3.0, 4.0)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda n: n.update(linear=[0.0] * 3), "12 linear weights"),
        (lambda n: n["inputs"].pop(), "506 input rows"),
        (lambda n: n["inputs"][7].append(1.0), "every input row"),
        (lambda n: n.update(output=[1.0]), "every input row and the output"),
        (lambda n: n.update(hidden_bias=[]), "1-64 hidden units"),
    ],
)
def test_a_malformed_network_is_refused(change: Any, message: str) -> None:
    network = tiny_network()
    change(network)
    with pytest.raises(ValueError, match=message):
        flat(network)
