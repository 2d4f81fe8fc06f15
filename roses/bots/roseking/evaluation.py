"""How good a position is for the team to move, between a loss (-1) and a win (1).

The value is ``tanh(w . f / 2)``: a logistic model of the win probability, ``p = (1 +
value) / 2``, over features ``f`` of the position seen from the team to move (own minus
the other team's). ``HAND_MADE`` is the classic evaluation the issue describes (the
score margin, a hero worth 30 points), which the sparring partners play. ``WEIGHTS``
adds the best play: the points the mover's best stone would add at once, which a leaf's
score margin misses; it plays the self-play games the networks learn from. Weights fitted
by logistic regression to self-play results over all the features (``benchmarks/tuning.py
--fit``) predicted the results better but played no better than the hand-made ones. The
matches behind both choices are in ``benchmarks/results/tuning.md``. A weight vector
longer than the features carries a ``value_net`` network, which ``search`` and the
analysis play.

Positions are rows of ``star``'s state layout; the layout constants are repeated here as
plain numbers would be unreadable and importing ``star`` would be circular.
"""

from __future__ import annotations

import math
from typing import Any, Final

from roses.roseking.geometry import SQUARE_COUNT, STONE_COUNT

from . import kernel
from .kernel import jit
from .value_net import INPUT_COUNT, MAX_ACTIVE, MAX_HIDDEN, inputs

_OWNER, _HANDS, _HAND_N, _HEROES = 0, 81, 101, 105
_CROWN, _TURN, _STONES, _SEATS, _LIMIT = 157, 158, 159, 160, 161
_HAND_SLOTS = 5

FEATURE_NAMES: Final = (
    "tempo",  # 1: the team to move (moving is worth something)
    "score",  # score margin (RK-14) / 100
    "score x phase",  # the same times the share of the 52 stones on the board
    "largest",  # largest-territory margin / 10 (RK-15's first tie-break)
    "stones",  # stones margin / 10 (the second)
    "heroes",  # hero cards margin (RK-10)
    "heroes x phase",
    "playable",  # cards that could be played on an empty square from the crown now / 5
    "stuck",  # seats with a full hand and no play but heroes (RK-11: they pass or flip)
    "hand",  # cards in hand margin / 5
    "frontier",  # empty squares next to own stones: room to grow / 10
    "best play",  # the most points one stone from the mover's hand would add now / 100
)
FEATURE_COUNT: Final = len(FEATURE_NAMES)
# kernel._team_score's stack and seen marks, then both colours' (score, largest, stones),
# then each square's territory (a label) and each label's size for ``_best_play``, then
# the learned evaluation's active inputs
SCRATCH_SIZE: Final = 4 * SQUARE_COUNT + 6 + MAX_ACTIVE
_ACTIVE: Final = 4 * SQUARE_COUNT + 6
_SCORES: Final = 2 * SQUARE_COUNT
_LABELS: Final = 2 * SQUARE_COUNT + 6
_SIZES: Final = 3 * SQUARE_COUNT + 6

# 100 points of score margin give tanh(1) = 0.76, a hero is worth 30 points
HAND_MADE: Final = (0.0, 2.0, 0.0, 0.0, 0.0, 0.6, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
# the mover's best play counted whole (2.0 a hundred points, as the score): the weight that
# did best against HAND_MADE of 1.0, 2.0 and 3.0 (benchmarks/results/tuning.md)
WEIGHTS: Final = (*HAND_MADE[:11], 2.0)
_FRONTIER, _BEST_PLAY = 10, 11  # the features that cost a board scan: left out at weight 0
# ``new_features``: the features, then the network's hidden units while they are summed
_FEATURES_SIZE: Final = FEATURE_COUNT + MAX_HIDDEN

if kernel.NUMBA:
    import numpy as np

    def weight_vector(weights: tuple[float, ...]) -> Any:
        return np.array(weights, dtype=np.float64)

    @jit
    def new_features() -> Any:
        return np.zeros(_FEATURES_SIZE, np.float64)

    @jit
    def _add_rows(weights: Any, rows: int, hidden: int, scratch: Any, active: int,
                  out: Any) -> None:  # fmt: skip
        """Add the network's row of each active input to the hidden units in ``out``."""
        # a row as a view of a 2-D array: its loop is vectorised (four times faster than
        # indexing the flat vector)
        table = weights[rows : rows + INPUT_COUNT * hidden].reshape((INPUT_COUNT, hidden))
        units = out[FEATURE_COUNT : FEATURE_COUNT + hidden]
        for k in range(active):
            row = table[scratch[_ACTIVE + k]]
            for j in range(hidden):
                units[j] += row[j]
else:

    def weight_vector(weights: tuple[float, ...]) -> Any:
        return list(weights)

    def new_features() -> Any:
        return [0.0] * _FEATURES_SIZE

    def _add_rows(weights: Any, rows: int, hidden: int, scratch: Any, active: int,
                  out: Any) -> None:  # fmt: skip
        for k in range(active):
            row = rows + scratch[_ACTIVE + k] * hidden
            for j in range(hidden):
                out[FEATURE_COUNT + j] += weights[row + j]


@jit
def _scores(s: Any, base: int, scratch: Any) -> None:
    """RK-14 for both colours into ``scratch[_SCORES:]``: red's, then white's triple."""
    owner = s[base + _OWNER : base + _OWNER + SQUARE_COUNT]
    stack = scratch[0:SQUARE_COUNT]
    seen = scratch[SQUARE_COUNT : 2 * SQUARE_COUNT]
    kernel._team_score(owner, 1, stack, seen, scratch, _SCORES)
    kernel._team_score(owner, 2, stack, seen, scratch, _SCORES + 3)


@jit
def outcome_for(s: Any, base: int, scratch: Any) -> float:
    """The finished game's result for the team to move: 1, 0 or -1 (RK-14, RK-15)."""
    _scores(s, base, scratch)
    red = 0.0
    for k in range(3):  # score, then largest territory, then stones
        difference = scratch[_SCORES + k] - scratch[_SCORES + 3 + k]
        if difference != 0:
            red = 1.0 if difference > 0 else -1.0
            break
    return red if s[base + _TURN] & 1 == 0 else -red


@jit
def _margins(s: Any, base: int, scratch: Any, out: Any) -> None:
    """Every feature but the board scans (frontier, best play: left alone) into ``out``."""
    _scores(s, base, scratch)
    sign = 1.0 if s[base + _TURN] & 1 == 0 else -1.0
    phase = s[base + _STONES] / STONE_COUNT
    crown = s[base + _CROWN]
    heroes = 0.0
    playable = 0.0
    stuck = 0.0
    hand = 0.0
    for seat in range(s[base + _SEATS]):
        side = 1.0 if seat & 1 == 0 else -1.0  # red's margin first, signed at the end
        count = s[base + _HAND_N + seat]
        plays = 0
        for i in range(count):
            card = s[base + _HANDS + seat * _HAND_SLOTS + i]
            target = kernel._TARGET[card * SQUARE_COUNT + crown]
            if target >= 0 and s[base + _OWNER + target] == 0:
                plays += 1
        heroes += side * s[base + _HEROES + seat]
        playable += side * plays
        if count == s[base + _LIMIT] and plays == 0:
            stuck += side
        hand += side * count
    score = (scratch[_SCORES] - scratch[_SCORES + 3]) / 100.0
    out[0] = 1.0
    out[1] = sign * score
    out[2] = sign * score * phase
    out[3] = sign * (scratch[_SCORES + 1] - scratch[_SCORES + 4]) / 10.0
    out[4] = sign * (scratch[_SCORES + 2] - scratch[_SCORES + 5]) / 10.0
    out[5] = sign * heroes
    out[6] = sign * heroes * phase
    out[7] = sign * playable / 5.0
    out[8] = sign * stuck
    out[9] = sign * hand / 5.0


@jit
def _neighbour(sq: int, step: int) -> int:
    """The square next to ``sq`` below, above, left or right (``step`` 0-3); -1 off the
    board."""
    file = sq % 9
    if step == 0:
        return sq - 9 if sq >= 9 else -1
    if step == 1:
        return sq + 9 if sq < 72 else -1
    if step == 2:
        return sq - 1 if file > 0 else -1
    return sq + 1 if file < 8 else -1


@jit
def _frontier(s: Any, base: int) -> float:
    """Empty squares next to red stones minus those next to white ones."""
    frontier = 0.0
    for sq in range(SQUARE_COUNT):
        if s[base + _OWNER + sq] != 0:
            continue
        red = white = 0
        for step in range(4):
            other = _neighbour(sq, step)
            if other < 0:
                continue
            stone = s[base + _OWNER + other]
            if stone == 1:
                red = 1
            elif stone == 2:
                white = 1
        frontier += red - white
    return frontier


@jit
def _best_play(s: Any, base: int, scratch: Any) -> float:
    """The points the best stone the team to move could place from its hand now would add
    (RK-14: squares of territories, so a stone joining territories adds much): the gain
    a leaf's mover is about to take, which the score margin does not yet count."""
    seat = s[base + _TURN]
    colour = 1 + (seat & 1)
    labels = scratch[_LABELS : _LABELS + SQUARE_COUNT]
    sizes = scratch[_SIZES : _SIZES + SQUARE_COUNT]
    stack = scratch[0:SQUARE_COUNT]
    for sq in range(SQUARE_COUNT):
        labels[sq] = -1
    # the mover's territories labelled by their first square (kernel._team_score walks
    # them alike but keeps no labels; sizing its marks afterwards cost 8% of the nodes/s)
    for start in range(SQUARE_COUNT):
        if s[base + _OWNER + start] != colour or labels[start] >= 0:
            continue
        labels[start] = start
        stack[0] = start
        depth = 1
        size = 0
        while depth:
            depth -= 1
            sq = stack[depth]
            size += 1
            for step in range(4):
                other = _neighbour(sq, step)
                if other >= 0 and s[base + _OWNER + other] == colour and labels[other] < 0:
                    labels[other] = start
                    stack[depth] = other
                    depth += 1
        sizes[start] = size
    crown = s[base + _CROWN]
    best = 0.0
    for i in range(s[base + _HAND_N + seat]):
        card = s[base + _HANDS + seat * _HAND_SLOTS + i]
        target = kernel._TARGET[card * SQUARE_COUNT + crown]
        if target < 0 or s[base + _OWNER + target] != 0:
            continue
        joined = 1
        squares = 0
        seen0 = seen1 = seen2 = -1  # the labels already counted (at most 4 neighbours)
        for step in range(4):
            other = _neighbour(target, step)
            if other < 0 or labels[other] < 0:
                continue
            label = labels[other]
            if label in (seen0, seen1, seen2):
                continue
            if seen0 < 0:
                seen0 = label
            elif seen1 < 0:
                seen1 = label
            else:
                seen2 = label
            joined += sizes[label]
            squares += sizes[label] * sizes[label]
        gain = joined * joined - squares
        if gain > best:
            best = gain
    return best


@jit
def features(s: Any, base: int, scratch: Any, out: Any) -> None:
    """The features of ``FEATURE_NAMES`` into ``out`` (``new_features``), for the team to move."""
    _margins(s, base, scratch, out)
    sign = 1.0 if s[base + _TURN] & 1 == 0 else -1.0
    out[_FRONTIER] = sign * _frontier(s, base) / 10.0
    out[_BEST_PLAY] = _best_play(s, base, scratch) / 100.0


@jit
def _linear(s: Any, base: int, weights: Any, scratch: Any, out: Any) -> float:
    """The logit's linear part, ``weights`` times the features (into ``out``); the
    features that cost a board scan only where their weight is not 0."""
    _margins(s, base, scratch, out)
    total = 0.0
    for i in range(_FRONTIER):
        total += weights[i] * out[i]
    if weights[_FRONTIER] != 0.0:  # the board scan costs a fifth of a node
        sign = 1.0 if s[base + _TURN] & 1 == 0 else -1.0
        total += weights[_FRONTIER] * sign * _frontier(s, base) / 10.0
    if weights[_BEST_PLAY] != 0.0:
        total += weights[_BEST_PLAY] * _best_play(s, base, scratch) / 100.0
    return total


@jit
def _network(s: Any, base: int, weights: Any, scratch: Any, out: Any) -> float:
    """``value_net``'s part of the logit, ``weights`` its flat vector (``out``: the
    hidden units while they are summed)."""
    total: float = weights[FEATURE_COUNT]
    hidden = (len(weights) - FEATURE_COUNT - 1) // (INPUT_COUNT + 2)
    output = FEATURE_COUNT + 1 + hidden
    rows = output + hidden
    active = inputs(s, base, scratch, _ACTIVE)
    for j in range(hidden):
        out[FEATURE_COUNT + j] = weights[FEATURE_COUNT + 1 + j]
    _add_rows(weights, rows, hidden, scratch, active, out)
    for j in range(hidden):
        unit = out[FEATURE_COUNT + j]
        if unit > 0.0:
            total += weights[output + j] * unit
    return total


@jit
def evaluate(s: Any, base: int, weights: Any, scratch: Any, out: Any) -> float:
    """The position's value for the team to move, strictly between -1 and 1: linear in
    the features, plus ``value_net``'s network when ``weights`` is longer than them."""
    total = _linear(s, base, weights, scratch, out)
    if len(weights) > FEATURE_COUNT:
        total += _network(s, base, weights, scratch, out)
    # clamped so that a leaf never ties with a real result (Star1 bounds are -1 and 1)
    return max(-0.999, min(0.999, math.tanh(0.5 * total)))
