"""A learned evaluation: a small network over a position's sparse inputs, trained on
self-play games (``training.py``): to foresee their results, or what a search
of each position found.

The value for the team to move is ``tanh(z / 2)`` (so ``z`` is the logit of its win
probability, as in ``evaluation``) with

    z = linear . features + bias + output . relu(hidden_bias + sum of inputs[i])

over ``evaluation.FEATURE_NAMES`` and the active inputs ``i`` of the position, each a row of
one number per hidden unit (at most ``MAX_HIDDEN``). The inputs, all seen from the seat to
move: its stones, the other colour's, the crown's square, the empty squares its hand and
the next seat's hand could place a stone on now, the cards in both hands, both hero
counts and hand sizes, the cards in the draw pile (as a set, never an order: RK-20) and
the stones on the board in eighths.
Each number of players has its own network (``WEIGHTS_FILES``), trained on its own games;
in the four-player game "the next seat" is an opponent, and the partner's hand is not an
input.

In a search the network travels as one flat weight vector behind the linear weights
(``flat``): ``evaluation.evaluate`` reads a vector longer than ``FEATURE_COUNT`` as one.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, Final

from roses.roseking.geometry import CARD_COUNT, SQUARE_COUNT

from . import kernel
from .kernel import jit

# the search's state layout (``star``), repeated: importing ``star`` would be circular
_OWNER, _HANDS, _HAND_N, _HEROES, _PILE = 0, 81, 101, 105, 109
_CROWN, _TURN, _STONES, _SEATS = 157, 158, 159, 160
_HAND_SLOTS = 5

# the inputs' blocks, each the index of its first input
OWN_STONES: Final = 0  # a square (81)
OTHER_STONES: Final = 81
CROWN: Final = 162
OWN_REACH: Final = 243  # an empty square a card of the hand could place a stone on now
OTHER_REACH: Final = 324
OWN_CARDS: Final = 405  # a card (24)
OTHER_CARDS: Final = 429
OWN_HEROES: Final = 453  # 0-4 heroes (5)
OTHER_HEROES: Final = 458
PILE: Final = 463  # a card in the draw pile (24)
STONES: Final = 487  # stones on the board // 8 (7)
OWN_HAND: Final = 494  # 0-5 cards in hand (6)
OTHER_HAND: Final = 500
INPUT_COUNT: Final = 506
MAX_ACTIVE: Final = 128  # 52 stones, the crown, 2 x (5 reach + 5 cards + 2), 24 pile cards, 1
MAX_HIDDEN: Final = 64
LINEAR_COUNT: Final = 12  # evaluation.FEATURE_COUNT (imported there: this module is below it)

# one network per player count: the four-player game's hands, pile and tempo differ
WEIGHTS_FILES: Final = {
    2: Path(__file__).with_name("value_net.json"),
    4: Path(__file__).with_name("value_net_four.json"),
}


@jit
def inputs(s: Any, base: int, idx: Any, at: int) -> int:
    """The active inputs of the position in row ``base`` into ``idx`` from ``at`` on; their
    count."""
    seat = s[base + _TURN]
    other = (seat + 1) % s[base + _SEATS]
    own = 1 + (seat & 1)
    n = 0
    for sq in range(SQUARE_COUNT):
        stone = s[base + _OWNER + sq]
        if stone != 0:
            idx[at + n] = (OWN_STONES if stone == own else OTHER_STONES) + sq
            n += 1
    crown = s[base + _CROWN]
    idx[at + n] = CROWN + crown
    n += 1
    for k in range(2):
        who = seat if k == 0 else other
        reach = OWN_REACH if k == 0 else OTHER_REACH
        count = s[base + _HAND_N + who]
        for i in range(count):
            card = s[base + _HANDS + who * _HAND_SLOTS + i]
            idx[at + n] = (OWN_CARDS if k == 0 else OTHER_CARDS) + card
            n += 1
            target = kernel._TARGET[card * SQUARE_COUNT + crown]
            if target >= 0 and s[base + _OWNER + target] == 0:  # no two cards share one
                idx[at + n] = reach + target
                n += 1
        idx[at + n] = (OWN_HEROES if k == 0 else OTHER_HEROES) + min(s[base + _HEROES + who], 4)
        idx[at + n + 1] = (OWN_HAND if k == 0 else OTHER_HAND) + min(count, 5)
        n += 2
    for card in range(CARD_COUNT):
        if s[base + _PILE + card]:
            idx[at + n] = PILE + card
            n += 1
    idx[at + n] = STONES + min(s[base + _STONES] // 8, 6)
    return n + 1


def flat(network: dict[str, Any]) -> tuple[float, ...]:
    """The search's weight vector of a network: linear, bias, hidden bias, output, inputs."""
    rows = network["inputs"]
    hidden = len(network["hidden_bias"])
    if len(network["linear"]) != LINEAR_COUNT:
        raise ValueError(f"a network needs {LINEAR_COUNT} linear weights")
    if len(rows) != INPUT_COUNT or not 0 < hidden <= MAX_HIDDEN:
        raise ValueError(
            f"a network needs {INPUT_COUNT} input rows and 1-{MAX_HIDDEN} hidden units"
        )
    if any(len(row) != hidden for row in rows) or len(network["output"]) != hidden:
        raise ValueError(f"every input row and the output need {hidden} weights")
    numbers = [*network["linear"], network["bias"], *network["hidden_bias"], *network["output"]]
    return tuple(float(x) for x in numbers + [w for row in rows for w in row])


@functools.cache
def learned_weights(seats: int = 2) -> tuple[float, ...]:
    """The network trained for games of ``seats`` players as the search's weight vector."""
    return flat(json.loads(WEIGHTS_FILES[seats].read_text(encoding="utf-8")))
