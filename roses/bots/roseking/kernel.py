"""Fast Rose King playouts: the rules of RK-8..RK-17 in a loop that numba compiles.

The same functions run as plain Python when numba is missing (or ``ROSES_NO_NUMBA=1``):
then arrays are lists, the tables are tuples and nothing else changes, so both paths give
identical results for identical seeds. A position crosses the boundary as one flat int
vector (see ``encode_parts``); the kernel keeps its own xorshift32 generator so that its games
depend only on the seed, whichever path runs them.

Inside the kernel a square holds 0 (empty), 1 (red) or 2 (white); the draw pile is kept
bottom first so that drawing pops its end.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

from roses.roseking import Board
from roses.roseking.geometry import CARD_COUNT, SQUARE_COUNT, STONE_COUNT, TARGET

F = TypeVar("F", bound=Callable[..., Any])

numba: Any
try:
    if os.environ.get("ROSES_NO_NUMBA"):
        raise ImportError("numba disabled by ROSES_NO_NUMBA")
    import numba
    import numpy as np
except ImportError:
    numba = None

NUMBA: Final = numba is not None


def jit(function: F) -> F:
    """Compile with numba (cached on disk) when it is there, else leave plain Python."""
    if numba is None:
        return function
    compiled: F = numba.njit(cache=True, nogil=True)(function)
    return compiled


if numba is not None:

    @jit
    def _new(size: int) -> Any:
        return np.zeros(size, np.int64)

    def _vector(values: list[int]) -> Any:
        return np.array(values, dtype=np.int64)

    _TARGET: Any = np.array([t for row in TARGET for t in row], dtype=np.int64)
else:

    def _new(size: int) -> Any:
        return [0] * size

    def _vector(values: list[int]) -> Any:
        return values

    _TARGET = tuple(t for row in TARGET for t in row)

# The flat position vector: the layout ``encode`` writes and ``_load`` reads.
LOW_BITS: Final = 41  # bitboards split in two so that each half fits an int64
_LOW_MASK: Final = (1 << LOW_BITS) - 1
V_RED, V_WHITE, V_CROWN, V_TURN, V_SEATS, V_LIMIT = 0, 2, 4, 5, 6, 7
V_HEROES, V_HAND_N, V_HANDS, V_PILE_N, V_PILE, V_DISCARD_N, V_DISCARD = 8, 12, 16, 36, 37, 61, 62
VECTOR_SIZE: Final = 86
HAND_SLOTS: Final = 5
MAX_PLIES: Final = 600  # a game has far fewer (about 60 plays, as many draws, few passes)
MAX_SHUFFLES: Final = 24
# Playout policies: (weighted?, play, play per own neighbour, hero, hero per neighbour,
# draw). A weighted policy picks a move with probability proportional to its weight.
Policy = tuple[int, int, int, int, int, int]
UNIFORM: Final[Policy] = (0, 1, 0, 1, 0, 1)
NEIGHBOURS: Final[Policy] = (1, 2, 3, 1, 3, 2)
DRAW_ACTION: Final = 48
PASS_ACTION: Final = 49
# Scalars of a running game, kept in one small array so helpers can change them.
S_CROWN, S_TURN, S_PILE_N, S_DISCARD_N, S_STONES, S_PLIES, S_SHUFFLES = 0, 1, 2, 3, 4, 5, 6
S_SEATS, S_LIMIT = 7, 8
# ``_finish`` results: red's points in halves (2 win, 1 draw, 0 loss), then the scores.
R_POINTS, R_RED_SCORE, R_RED_LARGEST, R_RED_STONES = 0, 1, 2, 3
R_WHITE_SCORE, R_WHITE_LARGEST, R_WHITE_STONES, R_PLIES = 4, 5, 6, 7


@jit
def _rand(rng: Any, bound: int) -> int:
    """xorshift32 step; a number in ``0..bound-1``. Every value stays below 2**46."""
    state = rng[0]
    state ^= (state << 13) & 0xFFFFFFFF
    state ^= state >> 17
    state ^= (state << 5) & 0xFFFFFFFF
    rng[0] = state
    pick: int = (state * bound) >> 32
    return pick


@jit
def seed_state(seed: int) -> Any:
    """A generator state from any int (never zero, which xorshift would keep forever)."""
    rng = _new(1)
    rng[0] = ((seed % 0x7FFFFFFF) * 48271 + 0x9E3779B9) % 0xFFFFFFFF + 1
    return rng


@jit
def _shuffle(cards: Any, count: int, rng: Any) -> None:
    for i in range(count - 1, 0, -1):
        j = _rand(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


@jit
def _sort(cards: Any, count: int) -> None:
    """Insertion sort: a pile's order is forgotten before it is shuffled for a playout."""
    for i in range(1, count):
        card = cards[i]
        j = i - 1
        while j >= 0 and cards[j] > card:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = card


@jit
def _can_act(seat: int, owner: Any, hands: Any, hand_n: Any, heroes: Any, st: Any) -> bool:
    """RK-11: whether ``seat`` has any action (a draw, a play or a hero play)."""
    count = hand_n[seat]
    if count < st[S_LIMIT]:
        return True
    crown = st[S_CROWN]
    opponent = 2 - (seat & 1)
    for i in range(count):
        target = _TARGET[hands[seat * HAND_SLOTS + i] * SQUARE_COUNT + crown]
        if target >= 0:
            stone = owner[target]
            if stone == 0 or (stone == opponent and heroes[seat] > 0):
                return True
    return False


@jit
def _reshuffle(pile: Any, discard: Any, count: int, st: Any, rng: Any, shuffles_out: Any) -> None:
    """RK-9: the last card was drawn; the discard pile, shuffled, becomes the draw pile."""
    for i in range(count):
        pile[i] = discard[i]
    _shuffle(pile, count, rng)
    logged = st[S_SHUFFLES]
    if logged < MAX_SHUFFLES:
        row = logged * (CARD_COUNT + 1)
        shuffles_out[row] = count
        for i in range(count):  # top first, as the engine lists a pile
            shuffles_out[row + 1 + i] = pile[count - 1 - i]
    st[S_SHUFFLES] = logged + 1


@jit
def _team_score(owner: Any, colour: int, stack: Any, seen: Any, out: Any, at: int) -> None:
    """RK-14 for one colour into ``out[at:at+3]``: score, largest territory, stones."""
    for sq in range(SQUARE_COUNT):
        seen[sq] = 0
    score = 0
    largest = 0
    stones = 0
    for start in range(SQUARE_COUNT):
        if owner[start] != colour or seen[start]:
            continue
        seen[start] = 1
        stack[0] = start
        depth = 1
        size = 0
        while depth:
            depth -= 1
            sq = stack[depth]
            size += 1
            file = sq % 9
            if sq >= 9 and owner[sq - 9] == colour and not seen[sq - 9]:
                seen[sq - 9] = 1
                stack[depth] = sq - 9
                depth += 1
            if sq < 72 and owner[sq + 9] == colour and not seen[sq + 9]:
                seen[sq + 9] = 1
                stack[depth] = sq + 9
                depth += 1
            if file > 0 and owner[sq - 1] == colour and not seen[sq - 1]:
                seen[sq - 1] = 1
                stack[depth] = sq - 1
                depth += 1
            if file < 8 and owner[sq + 1] == colour and not seen[sq + 1]:
                seen[sq + 1] = 1
                stack[depth] = sq + 1
                depth += 1
        score += size * size
        stones += size
        if size > largest:
            largest = size
    out[at] = score
    out[at + 1] = largest
    out[at + 2] = stones


@jit
def _finish(owner: Any, st: Any, stack: Any, seen: Any, out: Any) -> None:
    """RK-14, RK-15: both scores and red's points in halves into ``out``."""
    _team_score(owner, 1, stack, seen, out, R_RED_SCORE)
    _team_score(owner, 2, stack, seen, out, R_WHITE_SCORE)
    points = 1
    for k in range(3):  # score, then largest territory, then stones
        red = out[R_RED_SCORE + k]
        white = out[R_WHITE_SCORE + k]
        if red != white:
            points = 2 if red > white else 0
            break
    out[R_POINTS] = points
    out[R_PLIES] = st[S_PLIES]


@jit
def _load(vector: Any, owner: Any, hands: Any, hand_n: Any, heroes: Any, pile: Any,
          discard: Any, st: Any) -> None:  # fmt: skip
    stones = 0
    for sq in range(SQUARE_COUNT):
        half = 0 if sq < LOW_BITS else 1
        shift = sq - LOW_BITS * half
        if (vector[V_RED + half] >> shift) & 1:
            owner[sq] = 1
            stones += 1
        elif (vector[V_WHITE + half] >> shift) & 1:
            owner[sq] = 2
            stones += 1
        else:
            owner[sq] = 0
    for i in range(4 * HAND_SLOTS):
        hands[i] = vector[V_HANDS + i]
    for seat in range(4):
        hand_n[seat] = vector[V_HAND_N + seat]
        heroes[seat] = vector[V_HEROES + seat]
    count = vector[V_PILE_N]
    for i in range(count):  # the vector lists the pile top first
        pile[i] = vector[V_PILE + count - 1 - i]
    for i in range(vector[V_DISCARD_N]):
        discard[i] = vector[V_DISCARD + i]
    st[S_CROWN] = vector[V_CROWN]
    st[S_TURN] = vector[V_TURN]
    st[S_PILE_N] = count
    st[S_DISCARD_N] = vector[V_DISCARD_N]
    st[S_STONES] = stones
    st[S_PLIES] = 0
    st[S_SHUFFLES] = 0
    st[S_SEATS] = vector[V_SEATS]
    st[S_LIMIT] = vector[V_LIMIT]


@jit
def _neighbour_weight(owner: Any, target: int, colour: int, hero: bool, policy: Policy) -> int:
    """Playout preference: a stone that joins the mover's territories is worth more.

    A hero is also worth more the more opposing stones it cuts from (RK-10, RK-14).
    """
    own = 0
    other = 0
    file = target % 9
    for step in range(4):
        if step == 0:
            if target < 9:
                continue
            sq = target - 9
        elif step == 1:
            if target >= 72:
                continue
            sq = target + 9
        elif step == 2:
            if file == 0:
                continue
            sq = target - 1
        else:
            if file == 8:
                continue
            sq = target + 1
        stone = owner[sq]
        if stone == colour:
            own += 1
        elif stone != 0:
            other += 1
    if hero:
        return policy[3] + policy[4] * (own + other)
    return policy[1] + policy[2] * own


@jit
def _play_out(owner: Any, hands: Any, hand_n: Any, heroes: Any, pile: Any, discard: Any,
              st: Any, rng: Any, moves: Any, weights: Any, policy: Any, moves_out: Any,
              shuffles_out: Any) -> None:  # fmt: skip
    """Random legal actions to the end; logs actions while ``moves_out`` has room.

    ``UNIFORM`` picks uniformly; ``NEIGHBOURS`` weights each move by how many of the
    mover's stones its target touches (``_neighbour_weight``).

    One loop with the game's scalars in locals: numba then keeps them in registers.
    Moves are listed in the engine's order (hand order, then draw) so logs replay exactly.
    """
    crown, turn, pile_n, discard_n = st[S_CROWN], st[S_TURN], st[S_PILE_N], st[S_DISCARD_N]
    stones, plies, seats, limit = st[S_STONES], st[S_PLIES], st[S_SEATS], st[S_LIMIT]
    log_size = len(moves_out)
    weighted = policy[0] != 0
    while stones < STONE_COUNT:  # RK-12
        colour = 1 + (turn & 1)
        opponent = 3 - colour
        hero_left = heroes[turn] > 0
        base = turn * HAND_SLOTS
        count = hand_n[turn]
        n = 0
        total = 0
        for i in range(count):
            card = hands[base + i]
            target = _TARGET[card * SQUARE_COUNT + crown]
            if target >= 0:  # else off the board (RK-8)
                stone = owner[target]
                if stone == 0:
                    moves[n] = card
                elif stone == opponent and hero_left:  # RK-10
                    moves[n] = card + CARD_COUNT
                else:
                    continue
                if weighted:
                    weight = _neighbour_weight(owner, target, colour, stone != 0, policy)
                    total += weight
                    weights[n] = total
                n += 1
        if count < limit:  # RK-9
            moves[n] = DRAW_ACTION
            if weighted:
                total += policy[5]
                weights[n] = total
            n += 1
        if n == 0:
            st[S_CROWN] = crown
            can_move = False
            for other in range(seats):
                if other != turn and _can_act(other, owner, hands, hand_n, heroes, st):
                    can_move = True
            if not can_move:
                break  # RK-13, RK-17
            action = PASS_ACTION  # RK-11, RK-17
        elif n == 1:
            action = moves[0]
        elif weighted:
            pick = _rand(rng, total)
            chosen = 0
            while weights[chosen] <= pick:
                chosen += 1
            action = moves[chosen]
        else:
            action = moves[_rand(rng, n)]
        if plies < log_size:
            moves_out[plies] = action
        plies += 1
        if action < DRAW_ACTION:
            card = action - CARD_COUNT if action >= CARD_COUNT else action
            target = _TARGET[card * SQUARE_COUNT + crown]
            owner[target] = colour
            if action >= CARD_COUNT:  # RK-10: a flip; no stone leaves the supply
                heroes[turn] -= 1
            else:  # RK-8
                stones += 1
            crown = target
            found = False
            for i in range(count - 1):  # keep the hand's order, as the engine does
                if hands[base + i] == card:
                    found = True
                if found:
                    hands[base + i] = hands[base + i + 1]
            hand_n[turn] = count - 1
            discard[discard_n] = card
            discard_n += 1
        elif action == DRAW_ACTION:  # RK-9
            pile_n -= 1
            hands[base + count] = pile[pile_n]
            hand_n[turn] = count + 1
            if pile_n == 0:
                _reshuffle(pile, discard, discard_n, st, rng, shuffles_out)
                pile_n = discard_n
                discard_n = 0
        turn += 1
        if turn == seats:
            turn = 0
    st[S_CROWN], st[S_TURN], st[S_PILE_N], st[S_DISCARD_N] = crown, turn, pile_n, discard_n
    st[S_STONES], st[S_PLIES] = stones, plies


@jit
def playouts(vector: Any, count: int, seed: int, policy: Policy) -> int:
    """``count`` random games from ``vector``, each with a fresh random pile order.

    The pile's order in ``vector`` is ignored (sorted away), so playouts depend only on
    what a player may know. Returns red's points summed in halves (a win 2, a draw 1).
    """
    rng = seed_state(seed)
    owner, hands, hand_n, heroes = _new(SQUARE_COUNT), _new(20), _new(4), _new(4)
    pile, discard, st = _new(CARD_COUNT), _new(CARD_COUNT), _new(9)
    moves, weights, out = _new(8), _new(8), _new(8)
    stack, seen = _new(SQUARE_COUNT), _new(SQUARE_COUNT)
    no_log, shuffles = _new(0), _new(MAX_SHUFFLES * (CARD_COUNT + 1))
    total = 0
    for _ in range(count):
        _load(vector, owner, hands, hand_n, heroes, pile, discard, st)
        _sort(pile, st[S_PILE_N])
        _shuffle(pile, st[S_PILE_N], rng)
        _play_out(owner, hands, hand_n, heroes, pile, discard, st, rng, moves, weights, policy,
                  no_log, shuffles)  # fmt: skip
        _finish(owner, st, stack, seen, out)
        total += out[R_POINTS]
    return total


@jit
def recorded_game(vector: Any, seed: int, moves_out: Any, shuffles_out: Any, policy: Policy) -> Any:
    """One random game from ``vector`` as given (the pile's order included), logged.

    ``moves_out`` receives the action ids, ``shuffles_out`` each reshuffle as a count and
    the new pile top first; returns the ``_finish`` row (points, scores, plies).
    """
    rng = seed_state(seed)
    owner, hands, hand_n, heroes = _new(SQUARE_COUNT), _new(20), _new(4), _new(4)
    pile, discard, st = _new(CARD_COUNT), _new(CARD_COUNT), _new(9)
    moves, weights, out = _new(8), _new(8), _new(8)
    stack, seen = _new(SQUARE_COUNT), _new(SQUARE_COUNT)
    _load(vector, owner, hands, hand_n, heroes, pile, discard, st)
    _play_out(owner, hands, hand_n, heroes, pile, discard, st, rng, moves, weights, policy,
              moves_out, shuffles_out)  # fmt: skip
    _finish(owner, st, stack, seen, out)
    return out


@jit
def random_games(games: int, seed: int, seats: int) -> Any:
    """``games`` random games from fresh deals (RK-5, RK-16), scored (RK-14, RK-15).

    Returns [red wins, white wins, draws, plies].
    """
    rng = seed_state(seed)
    limit = 5 if seats == 2 else 3
    owner, hands, hand_n, heroes = _new(SQUARE_COUNT), _new(20), _new(4), _new(4)
    pile, discard, st = _new(CARD_COUNT), _new(CARD_COUNT), _new(9)
    moves, weights, out = _new(8), _new(8), _new(8)
    stack, seen = _new(SQUARE_COUNT), _new(SQUARE_COUNT)
    deck, no_log = _new(CARD_COUNT), _new(0)
    shuffles = _new(MAX_SHUFFLES * (CARD_COUNT + 1))
    totals = _new(4)
    for _ in range(games):
        for card in range(CARD_COUNT):
            deck[card] = card
        _shuffle(deck, CARD_COUNT, rng)
        for sq in range(SQUARE_COUNT):
            owner[sq] = 0
        for seat in range(4):
            hand_n[seat] = limit if seat < seats else 0
            heroes[seat] = (4 if seats == 2 else 2) if seat < seats else 0
            for i in range(limit if seat < seats else 0):
                hands[seat * HAND_SLOTS + i] = deck[seat * limit + i]
        count = CARD_COUNT - seats * limit
        for i in range(count):  # deck[seats*limit] is the pile's top card
            pile[i] = deck[CARD_COUNT - 1 - i]
        st[S_CROWN] = 40
        st[S_TURN] = 0
        st[S_PILE_N] = count
        st[S_DISCARD_N] = 0
        st[S_STONES] = 0
        st[S_PLIES] = 0
        st[S_SHUFFLES] = 0
        st[S_SEATS] = seats
        st[S_LIMIT] = limit
        _play_out(owner, hands, hand_n, heroes, pile, discard, st, rng, moves, weights, UNIFORM,
                  no_log, shuffles)  # fmt: skip
        _finish(owner, st, stack, seen, out)
        points = out[R_POINTS]
        totals[0 if points == 2 else 1 if points == 0 else 2] += 1
        totals[3] += st[S_PLIES]
    return totals


def _split(bitboard: int) -> tuple[int, int]:
    return bitboard & _LOW_MASK, bitboard >> LOW_BITS


def encode_parts(
    red: int,
    white: int,
    crown: int,
    turn: int,
    seats: int,
    limit: int,
    heroes: Sequence[int],
    hands: Sequence[Sequence[int]],
    pile: Sequence[int],
    discard: Sequence[int],
) -> Any:
    """The kernel's position vector; ``pile`` top first (any order when it is unknown)."""
    values = [0] * VECTOR_SIZE
    values[V_RED], values[V_RED + 1] = _split(red)
    values[V_WHITE], values[V_WHITE + 1] = _split(white)
    values[V_CROWN], values[V_TURN], values[V_SEATS], values[V_LIMIT] = crown, turn, seats, limit
    for seat in range(seats):
        values[V_HEROES + seat] = heroes[seat]
        values[V_HAND_N + seat] = len(hands[seat])
        at = V_HANDS + seat * HAND_SLOTS
        values[at : at + len(hands[seat])] = hands[seat]
    values[V_PILE_N] = len(pile)
    values[V_PILE : V_PILE + len(pile)] = pile
    values[V_DISCARD_N] = len(discard)
    values[V_DISCARD : V_DISCARD + len(discard)] = discard
    return _vector(values)


def encode_board(board: Board) -> Any:
    """A full position (the pile's order included) as a kernel vector."""
    return encode_parts(
        board.red, board.white, board.crown, board.turn, board.seats, board.hand_limit,
        board.heroes, board.hands, board.draw_pile, board.discard_pile,
    )  # fmt: skip


def warm_up() -> None:
    """Compile the kernel (or load it from numba's cache) once per process."""
    playouts(encode_board(Board(seed=0)), 1, 0, UNIFORM)


def new_log(size: int) -> Any:
    """An int array for ``recorded_game`` logs."""
    return _new(size)


def benchmark(games: int, seed: int = 0, seats: int = 2) -> dict[str, Any]:
    """Random games in the kernel: the same JSON object as ``roses rk bench``."""
    random_games(1, seed, seats)  # compile (or load from the cache) outside the timing
    start = time.perf_counter()
    totals = random_games(games, seed, seats)
    seconds = time.perf_counter() - start
    return {
        "games": games,
        "seconds": round(seconds, 4),
        "games_per_s": round(games / seconds, 1),
        "plies_per_s": round(int(totals[3]) / seconds, 1),
    }
