"""Expectimax over the public game, with alpha-beta and Star1 pruning, compiled by numba.

A player knows everything but the draw pile's order (RK-5, RK-20), and that order is
uniformly random given what was seen, so the game a player faces is a perfect-information
game with chance: a draw (RK-9) is a chance node whose outcomes are the cards the pile
holds, each equally likely. The pile is therefore kept as a set of cards, never a
sequence: there is no order here to read.

Values are the expected result for the team to move (win 1, draw 0, loss -1), so every
node is negamax: the teams alternate every ply, in the four-player game too (RK-16). A
leaf at the depth limit is valued by ``evaluation.evaluate`` (strictly inside -1..1).
Chance nodes are pruned by Star1 (Ballard 1983): the unseen outcomes are bounded by -1
and 1, so the expectation can leave the alpha-beta window before every card is tried.
With about 15 cards in the pile those bounds are so loose that Star1 seldom cuts, and
each card is searched with an open window. ChanceProbCut (Schadd, Winands and Uiterwijk
2009) bounds each unseen card instead by a shallower search's value plus or minus a
margin: the windows narrow and whole chance nodes can be cut before their cards are
searched deeply. The bounds are forecasts, so a value cut by them is an estimate.

The search never reads a clock (numba cannot): a node budget stops it, and ``info``
reports whether the budget ran out and whether any leaf was cut by the depth limit. A
search that completes without such a leaf is exact: the endgame solved.

A transposition table (fixed-size arrays keyed by a Zobrist hash that each move updates)
serves the search that asks for it: a position met again, through another order of moves
or in the next iteration of the deepening, answers from the table when its stored bound
settles the window, and otherwise tries the stored best action first. A position's hash
covers the hands and the pile as sets, never an order, and the ply, on which a sampled
draw depends. Over 36 positions of random games it halved the nodes to depth 7 with 3
sampled cards a draw and took those to depth 5 with whole draws from 5.8 M to 2.1 M.

The same functions run as plain Python without numba (``kernel.jit``), as slowly as that
sounds; tests compare them with a plain expectimax written on the engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final, TypeVar

from roses.roseking.geometry import CARD_COUNT, SQUARE_COUNT, STONE_COUNT

from . import kernel
from .evaluation import SCRATCH_SIZE, evaluate, new_features, outcome_for
from .kernel import jit, numba

F = TypeVar("F", bound=Callable[..., Any])

# One position: a flat row of ints. The search keeps one row per ply in ``states``.
OWNER: Final = 0  # 81 squares: 0 empty, 1 red, 2 white
HANDS: Final = 81  # 4 seats x 5 slots, in the order the cards arrived
HAND_N: Final = 101
HEROES: Final = 105
PILE: Final = 109  # 24 flags: the card is in the draw pile (its order is unknown)
DISCARD: Final = 133  # 24 flags: the card is in the discard pile
CROWN, TURN, STONES, SEATS, LIMIT, PILE_N, DISCARD_N = 157, 158, 159, 160, 161, 162, 163
HASH: Final = 164  # the position's Zobrist hash (``zobrist``), kept up to date by each move
STATE_SIZE: Final = 165
HAND_SLOTS: Final = 5

DRAW: Final = 48  # action ids as ``Move.action_id``: plays 0..23, heroes 24..47
PASS: Final = 49
MAX_MOVES: Final = 8  # 5 cards and a draw
MAX_DEPTH: Final = 120  # plies; deeper than any game's remainder needs

# ``keys``: each ply's ordering keys, then the history heuristic's score of each action
HISTORY: Final = MAX_DEPTH * MAX_MOVES
ACTIONS: Final = 50

# ``info``: counters the search shares with its caller; I_SAMPLE > 0: a draw's chance
# node tries at most that many of the pile's cards; I_TABLE > 0: the transposition
# table's size minus one (a power of two; 0: no table), I_GENERATION: the search it
# serves (entries of other searches are ignored, so a search depends on its view alone).
# I_HORIZON: some line's value is not the exact expectation (cut by the depth, or a sampled
# draw); I_CUT: some line was cut by the depth, so that a deeper search could differ
# I_PC_MARGIN > 0: ChanceProbCut's margin in thousandths of a value, with the shallower
# search PROBCUT_REDUCTION plies less deep than the outcome's own
I_NODES, I_LIMIT, I_ABORTED, I_HORIZON, I_SAMPLE, I_TABLE, I_GENERATION, I_CUT = range(8)
I_PC_MARGIN: Final = 8
INFO_SIZE: Final = 9
# 1 and 3 searched more nodes to depth 7 (benchmarks/results/tuning.md)
PROBCUT_REDUCTION: Final = 2
SAMPLE_STRIDE: Final = 7  # coprime to the 24 cards: a sample spreads over directions

WIN: Final = 1.0
LOSS: Final = -1.0

# Zobrist keys (random 62-bit numbers, fixed so that a search is reproducible): a stone of
# each colour on each square, the crown's square, the seat to move, each card in each
# seat's hand, each seat's hero count, each card in the draw pile (the discard pile is
# the rest) and the ply, since a sampled draw depends on it
Z_STONE, Z_CROWN, Z_TURN, Z_HAND = 0, 2 * SQUARE_COUNT, 3 * SQUARE_COUNT, 3 * SQUARE_COUNT + 4
Z_HERO = Z_HAND + 4 * CARD_COUNT
Z_PILE = Z_HERO + 4 * 5
Z_PLY = Z_PILE + CARD_COUNT
_Z_SIZE = Z_PLY + MAX_DEPTH + 1
_z_random = random.Random(16)
_ZOBRIST_INTS = [_z_random.getrandbits(62) for _ in range(_Z_SIZE)]
ZOBRIST: Any = kernel._vector(_ZOBRIST_INTS) if kernel.NUMBA else tuple(_ZOBRIST_INTS)

# A table entry: its key, its value and ``meta``: the best action + 1 (bits 0-7), the
# bound (bits 8-9), the depth searched (bits 10-17; EXACT_DEPTH: no line was cut, valid at
# any depth; UNCUT_DEPTH: no line was cut but a draw was sampled, also valid at any depth)
# and the generation (bits 20 and up)
BOUND_EXACT, BOUND_LOWER, BOUND_UPPER = 0, 1, 2
EXACT_DEPTH: Final = 255
UNCUT_DEPTH: Final = 254
GENERATION_SHIFT: Final = 20


def _jit_uncached(function: F) -> F:
    """Compile without numba's disk cache: a recursive function loaded from the cache
    crashes (numba 0.68), so the search is compiled once per process (a few seconds)."""
    if numba is None:
        return function
    compiled: F = numba.njit(cache=False, nogil=True)(function)
    return compiled


@jit
def _can_act(s: Any, base: int, seat: int) -> bool:
    """RK-11: whether ``seat`` has any action (a draw, a play or a hero play)."""
    count = s[base + HAND_N + seat]
    if count < s[base + LIMIT]:
        return True
    crown = s[base + CROWN]
    opponent = 2 - (seat & 1)
    for i in range(count):
        card = s[base + HANDS + seat * HAND_SLOTS + i]
        target = kernel._TARGET[card * SQUARE_COUNT + crown]
        if target >= 0:
            stone = s[base + OWNER + target]
            if stone == 0 or (stone == opponent and s[base + HEROES + seat] > 0):
                return True
    return False


@jit
def generate(s: Any, base: int, out: Any, at: int) -> int:
    """The legal actions into ``out[at:]`` in the engine's order; 0 when the game is over."""
    if s[base + STONES] >= STONE_COUNT:
        return 0  # RK-12
    seat = s[base + TURN]
    count = s[base + HAND_N + seat]
    crown = s[base + CROWN]
    opponent = 2 - (seat & 1)
    hero_left = s[base + HEROES + seat] > 0
    n = 0
    for i in range(count):
        card = s[base + HANDS + seat * HAND_SLOTS + i]
        target = kernel._TARGET[card * SQUARE_COUNT + crown]
        if target < 0:
            continue  # the crown would leave the board (RK-8)
        stone = s[base + OWNER + target]
        if stone == 0:
            out[at + n] = card
            n += 1
        elif stone == opponent and hero_left:  # RK-10
            out[at + n] = card + CARD_COUNT
            n += 1
    if count < s[base + LIMIT]:  # RK-9
        out[at + n] = DRAW
        n += 1
    if n == 0:
        for other in range(s[base + SEATS]):
            if other != seat and _can_act(s, base, other):
                out[at] = PASS  # RK-11, RK-17
                return 1
    return n  # 0 here: RK-13, RK-17


@jit
def zobrist(s: Any, base: int) -> int:
    """The hash of the position in row ``base``, computed whole (``apply`` and
    ``draw_card`` keep ``s[base + HASH]`` equal to it move by move)."""
    h: int = 0
    for sq in range(SQUARE_COUNT):
        stone = s[base + OWNER + sq]
        if stone:
            h ^= ZOBRIST[Z_STONE + 2 * sq + stone - 1]
    h ^= ZOBRIST[Z_CROWN + s[base + CROWN]] ^ ZOBRIST[Z_TURN + s[base + TURN]]
    for seat in range(s[base + SEATS]):
        for i in range(s[base + HAND_N + seat]):
            h ^= ZOBRIST[Z_HAND + seat * CARD_COUNT + s[base + HANDS + seat * HAND_SLOTS + i]]
        h ^= ZOBRIST[Z_HERO + seat * 5 + s[base + HEROES + seat]]
    for card in range(CARD_COUNT):
        if s[base + PILE + card]:
            h ^= ZOBRIST[Z_PILE + card]
    return h


@jit
def _copy(s: Any, source: int, target: int) -> None:
    for i in range(STATE_SIZE):
        s[target + i] = s[source + i]


@jit
def _next_turn(s: Any, base: int) -> None:
    old = s[base + TURN]
    turn = 0 if old + 1 == s[base + SEATS] else old + 1
    s[base + TURN] = turn
    s[base + HASH] ^= ZOBRIST[Z_TURN + old] ^ ZOBRIST[Z_TURN + turn]


@jit
def apply(s: Any, base: int, action: int) -> None:
    """Make a play, a hero play or a pass in place (a draw is ``draw_card``)."""
    seat = s[base + TURN]
    if action < DRAW:
        card = action - CARD_COUNT if action >= CARD_COUNT else action
        crown = s[base + CROWN]
        target = kernel._TARGET[card * SQUARE_COUNT + crown]
        colour = 1 + (seat & 1)
        h = ZOBRIST[Z_STONE + 2 * target + colour - 1] ^ ZOBRIST[Z_HAND + seat * CARD_COUNT + card]
        s[base + OWNER + target] = colour
        if action >= CARD_COUNT:  # RK-10: a flip; no stone leaves the supply
            heroes = s[base + HEROES + seat]
            h ^= ZOBRIST[Z_STONE + 2 * target + 2 - colour]
            h ^= ZOBRIST[Z_HERO + seat * 5 + heroes] ^ ZOBRIST[Z_HERO + seat * 5 + heroes - 1]
            s[base + HEROES + seat] = heroes - 1
        else:  # RK-8
            s[base + STONES] += 1
        s[base + CROWN] = target
        s[base + HASH] ^= h ^ ZOBRIST[Z_CROWN + crown] ^ ZOBRIST[Z_CROWN + target]
        hand = base + HANDS + seat * HAND_SLOTS
        count = s[base + HAND_N + seat]
        found = False
        for i in range(count - 1):  # keep the hand's order, as the engine does
            if s[hand + i] == card:
                found = True
            if found:
                s[hand + i] = s[hand + i + 1]
        s[base + HAND_N + seat] = count - 1
        s[base + DISCARD + card] = 1
        s[base + DISCARD_N] += 1
    _next_turn(s, base)


@jit
def draw_card(s: Any, base: int, card: int) -> None:
    """RK-9: the seat to move draws ``card``; the last card drawn turns the discard pile
    into the draw pile (its new order is as unknown as the old one)."""
    seat = s[base + TURN]
    count = s[base + HAND_N + seat]
    s[base + HANDS + seat * HAND_SLOTS + count] = card
    s[base + HAND_N + seat] = count + 1
    s[base + PILE + card] = 0
    s[base + PILE_N] -= 1
    s[base + HASH] ^= ZOBRIST[Z_HAND + seat * CARD_COUNT + card] ^ ZOBRIST[Z_PILE + card]
    if s[base + PILE_N] == 0:
        for c in range(CARD_COUNT):
            if s[base + DISCARD + c]:
                s[base + HASH] ^= ZOBRIST[Z_PILE + c]
            s[base + PILE + c] = s[base + DISCARD + c]
            s[base + DISCARD + c] = 0
        s[base + PILE_N] = s[base + DISCARD_N]
        s[base + DISCARD_N] = 0
    _next_turn(s, base)


@jit
def _order(s: Any, base: int, moves: Any, at: int, n: int, keys: Any, first: int) -> None:
    """Likely best first, for earlier cut-offs: ``first`` (the best action of an earlier
    search of this position, from the table; -1: none), actions that caused cut-offs
    before, then plays that join own stones, the rest, heroes last (they are scarce,
    RK-10). Insertion sort on a handful of moves."""
    seat = s[base + TURN]
    colour = 1 + (seat & 1)
    crown = s[base + CROWN]
    for i in range(n):
        action = moves[at + i]
        if action >= DRAW:
            key = 1
        else:
            card = action - CARD_COUNT if action >= CARD_COUNT else action
            target = kernel._TARGET[card * SQUARE_COUNT + crown]
            own = 0
            file = target % 9
            if target >= 9 and s[base + OWNER + target - 9] == colour:
                own += 1
            if target < 72 and s[base + OWNER + target + 9] == colour:
                own += 1
            if file > 0 and s[base + OWNER + target - 1] == colour:
                own += 1
            if file < 8 and s[base + OWNER + target + 1] == colour:
                own += 1
            key = 2 * own if action < CARD_COUNT else own - 2
        # the history heuristic first: actions that cut off elsewhere in the tree
        keys[at + i] = 16 * keys[HISTORY + action] + key
        if action == first:
            keys[at + i] = 1 << 60
    for i in range(1, n):
        action, key = moves[at + i], keys[at + i]
        j = i - 1
        while j >= 0 and keys[at + j] < key:
            moves[at + j + 1], keys[at + j + 1] = moves[at + j], keys[at + j]
            j -= 1
        moves[at + j + 1], keys[at + j + 1] = action, key


@jit
def _store(table_keys: Any, table_values: Any, table_meta: Any, slot: int, key: int,
           value: float, meta: int) -> None:  # fmt: skip
    table_keys[slot] = key
    table_values[slot] = value
    table_meta[slot] = meta


@_jit_uncached
def negamax(s: Any, ply: int, depth: int, alpha: float, beta: float, only: int, prune: bool,
            weights: Any, moves: Any, keys: Any, scratch: Any, features: Any, guesses: Any,
            info: Any, table_keys: Any, table_values: Any, table_meta: Any) -> float:  # fmt: skip
    """The value of the position in row ``ply`` of ``s`` for the team to move.

    ``only`` >= 0 restricts the node to that one action (the root's moves one by one).
    Fail-soft alpha-beta at decision nodes; with ``prune`` false, plain expectimax (the
    window is ignored). A draw (RK-9) is a chance node: the mean over the cards the pile
    holds, pruned by Star1: with ``total`` the sum so far and every unseen outcome within
    its bounds ([LOSS, WIN], or ChanceProbCut's guess), the mean falls to ``alpha`` once
    an outcome is at most ``low`` and rises to ``beta`` once one is at least ``high``, and
    each outcome is searched between them. ``guesses`` holds each ply's outcomes.
    Returns 0.0 with ``info[I_ABORTED]`` set once the node budget is spent: the caller
    must then discard the whole search.

    With a transposition table (``info[I_TABLE]``, pruning only) a position searched
    before in this search to at least this depth answers from the table when its bound
    settles the window, and its best action is tried first otherwise: positions recur
    through move orders, and each iteration of the deepening repeats the one before.
    """
    info[I_NODES] += 1
    if info[I_NODES] > info[I_LIMIT]:
        info[I_ABORTED] = 1
        return 0.0
    base = ply * STATE_SIZE
    at = ply * MAX_MOVES
    slot = -1
    key = 0
    alpha_in = alpha
    horizon_above = info[I_HORIZON]
    cut_above = info[I_CUT]
    if only >= 0:
        moves[at] = only
        n = 1
    else:
        n = generate(s, base, moves, at)
        if n == 0:
            return outcome_for(s, base, scratch)
        if depth <= 0 or ply + 1 >= MAX_DEPTH:
            info[I_HORIZON] = info[I_CUT] = 1
            return evaluate(s, base, weights, scratch, features)
        first = -1
        if info[I_TABLE] > 0 and prune:
            key = s[base + HASH] ^ ZOBRIST[Z_PLY + ply]
            slot = key & info[I_TABLE]
            meta = table_meta[slot]
            if table_keys[slot] == key and meta >> GENERATION_SHIFT == info[I_GENERATION]:
                first = (meta & 255) - 1
                searched = (meta >> 10) & 255
                if searched >= depth:
                    stored: float = table_values[slot]
                    bound = (meta >> 8) & 3
                    if (
                        bound == BOUND_EXACT
                        or (bound == BOUND_LOWER and stored >= beta)
                        or (bound == BOUND_UPPER and stored <= alpha)
                    ):
                        if searched != EXACT_DEPTH:
                            info[I_HORIZON] = 1
                            if searched != UNCUT_DEPTH:
                                info[I_CUT] = 1
                        return stored
        if n > 1:
            _order(s, base, moves, at, n, keys, first)
        info[I_HORIZON] = info[I_CUT] = 0  # whether this node's own lines are inexact, cut
    child = base + STATE_SIZE
    best = -2.0
    best_action = -1
    for i in range(n):
        action = moves[at + i]
        if action != DRAW:
            _copy(s, base, child)
            apply(s, child, action)
            value = -negamax(s, ply + 1, depth - 1, -beta, -alpha, -1, prune, weights, moves,
                             keys, scratch, features, guesses, info, table_keys,
                             table_values, table_meta)  # fmt: skip
        else:  # a chance node (RK-9): the mean over the pile's cards, or a sample of them
            count = s[base + PILE_N]
            start = 0
            stride = 1
            if 0 < info[I_SAMPLE] < count:
                # a sample of the pile's cards, chosen by the position (never the pile's
                # order, which no one knows): its mean stands for the whole node's
                count = info[I_SAMPLE]
                start = (31 * s[base + CROWN] + 17 * s[base + STONES] + 7 * ply) % CARD_COUNT
                stride = SAMPLE_STRIDE
                info[I_HORIZON] = 1  # no longer the exact expectation
            # Each outcome's bounds, for the pruning below: LOSS and WIN (Star1), or with
            # ChanceProbCut a shallower search's value +- the margin (exact when that
            # search's lines all ended): a guess, so a cut that uses one is inexact.
            at_guess = ply * 4 * CARD_COUNT  # per outcome: its card, bounds, inexact
            shallow = depth - 1 - PROBCUT_REDUCTION
            probcut = prune and info[I_PC_MARGIN] > 0 and shallow >= 0
            horizon_here, cut_here = info[I_HORIZON], info[I_CUT]
            rest_low = 0.0
            rest_high = 0.0
            rest_inexact = 0
            seen = 0
            for j in range(CARD_COUNT):
                card = (start + j * stride) % CARD_COUNT
                if s[base + PILE + card] == 0:
                    continue
                if seen == count:
                    break
                low_guess, high_guess, inexact = LOSS, WIN, 0
                if probcut:
                    _copy(s, base, child)
                    draw_card(s, child, card)
                    info[I_HORIZON] = 0
                    guess = -negamax(s, ply + 1, shallow, LOSS, WIN, -1, prune, weights, moves,
                                     keys, scratch, features, guesses, info, table_keys,
                                     table_values, table_meta)  # fmt: skip
                    if info[I_ABORTED]:
                        return 0.0
                    low_guess = high_guess = guess
                    if info[I_HORIZON]:
                        margin = info[I_PC_MARGIN] / 1000.0
                        low_guess, high_guess = max(guess - margin, LOSS), min(guess + margin, WIN)
                        inexact = 1
                g = at_guess + 4 * seen
                guesses[g], guesses[g + 1], guesses[g + 2] = card, low_guess, high_guess
                guesses[g + 3] = inexact
                rest_low += low_guess
                rest_high += high_guess
                rest_inexact += inexact
                seen += 1
            info[I_HORIZON], info[I_CUT] = horizon_here, cut_here
            total = 0.0
            value = 2.0  # set below: the mean, or a bound once the pruning cuts
            for k in range(count):
                g = at_guess + 4 * k
                card = int(guesses[g])
                low_guess, high_guess, inexact = guesses[g + 1], guesses[g + 2], int(guesses[g + 3])
                rest_low -= low_guess
                rest_high -= high_guess
                rest_inexact -= inexact
                # with this outcome at most ``low`` the mean is at most alpha; at least
                # ``high``, at least beta (the other unseen outcomes at their bounds)
                low = count * alpha - total - rest_high
                high = count * beta - total - rest_low
                if prune and (low >= high_guess or high <= low_guess):  # settled unsearched
                    if low >= high_guess:
                        value = (total + high_guess + rest_high) / count
                    else:
                        value = (total + low_guess + rest_low) / count
                    if inexact + rest_inexact > 0:
                        info[I_HORIZON] = info[I_CUT] = 1
                    break
                _copy(s, base, child)
                draw_card(s, child, card)
                # the opponent moves next: the window swaps and negates
                child_alpha, child_beta = (max(low, LOSS), min(high, WIN)) if prune else (LOSS, WIN)
                outcome = -negamax(s, ply + 1, depth - 1, -child_beta, -child_alpha, -1, prune,
                                   weights, moves, keys, scratch, features, guesses, info,
                                   table_keys, table_values, table_meta)  # fmt: skip
                if info[I_ABORTED]:
                    return 0.0
                if prune and (outcome <= low or outcome >= high):
                    if outcome <= low:  # an upper bound, at most alpha
                        value = (total + outcome + rest_high) / count
                    else:  # a lower bound, at least beta
                        value = (total + outcome + rest_low) / count
                    if rest_inexact > 0:
                        info[I_HORIZON] = info[I_CUT] = 1
                    break
                total += outcome
            if value > 1.5:
                value = total / count
        if info[I_ABORTED]:
            return 0.0
        if value > best:
            best = value
            best_action = action
            if prune:
                if value > alpha:
                    alpha = value
                if alpha >= beta:
                    keys[HISTORY + action] += depth * depth
                    break
    if slot >= 0:
        searched = EXACT_DEPTH if info[I_HORIZON] == 0 else depth if info[I_CUT] else UNCUT_DEPTH
        bound = BOUND_UPPER if best <= alpha_in else BOUND_LOWER if best >= beta else BOUND_EXACT
        meta = (info[I_GENERATION] << GENERATION_SHIFT) | (best_action + 1) | (bound << 8)
        meta |= searched << 10
        _store(table_keys, table_values, table_meta, slot, key, best, meta)
    if only < 0:
        info[I_HORIZON] |= horizon_above
        info[I_CUT] |= cut_above
    return best


@_jit_uncached
def root_values(s: Any, roots: Any, n: int, depth: int, prune: bool, every: bool,
                weights: Any, values: Any, info: Any, table_keys: Any, table_values: Any,
                table_meta: Any) -> int:  # fmt: skip
    """Search each of the root's ``n`` actions ``roots`` to ``depth`` into ``values``.

    With ``every`` each action gets its exact depth-limited value (analysis); otherwise
    each later action is searched only to see whether it beats the best so far (its
    value is then an upper bound). Returns the index of the best action; -1 if aborted.
    """
    moves = kernel._new(MAX_DEPTH * MAX_MOVES)
    keys = kernel._new(HISTORY + ACTIONS)
    scratch = kernel._new(SCRATCH_SIZE)
    features = new_features()
    guesses = new_guesses()
    best = 0
    best_value = -2.0
    for i in range(n):
        alpha = LOSS if every or not prune else max(best_value, LOSS)
        value = negamax(s, 0, depth, alpha, WIN, roots[i], prune, weights, moves, keys, scratch,
                        features, guesses, info, table_keys, table_values,
                        table_meta)  # fmt: skip
        if info[I_ABORTED]:
            return -1
        values[i] = value
        if value > best_value:
            best, best_value = i, value
    return best


if kernel.NUMBA:
    import numpy as np

    @jit
    def new_guesses() -> Any:
        return np.zeros(4 * MAX_DEPTH * CARD_COUNT, np.float64)

else:

    def new_guesses() -> Any:
        return [0.0] * (4 * MAX_DEPTH * CARD_COUNT)


def new_states() -> Any:
    """Rows for every ply of a search (row 0 the root)."""
    return kernel._new((MAX_DEPTH + 1) * STATE_SIZE)


def new_table(bits: int) -> tuple[Any, Any, Any]:
    """A transposition table of ``2 ** bits`` entries: keys, values and ``meta``."""
    size = 1 << bits
    values: Any = [0.0] * size
    if kernel.NUMBA:
        import numpy as np

        values = np.zeros(size, np.float64)
    return kernel._new(size), values, kernel._new(size)
