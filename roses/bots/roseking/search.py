"""The search bots: compiled expectimax (``star``) under a clock, a node budget or a depth.

``search`` (the strongest bot) deepens iteratively with alpha-beta and Star1 pruning, a
transposition table and the learned evaluation (``value_net``, a network for each number
of players) until its time is up, valuing each draw by a sample of 3 of the pile's cards
(deeper than whole chance nodes at the same cost) on budgets under about a second a move,
and by every card, with ChanceProbCut, from there on; with at most 3 stones left it
searches every draw whole and exactly, and plays perfectly once a search reaches the end
of every line (the endgame solved).
``alphabeta`` is the sparring partner the issue describes: depth 7 with the thesis's evaluation
(``evaluation.HAND_MADE``: score margin, a hero 30 points), every draw whole and no table;
under a clock it plays the deepest search up to 7 that the time allowed.
``expectimax`` is ``alphabeta`` without any pruning or depth limit, to show what pruning
is worth.

A budget in iterations is a node budget: the deepest search that fits is played. Every
bot starts from the view alone (RK-20): the pile enters the search as a set of cards.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from roses.roseking import Move
from roses.roseking.geometry import SQUARE_COUNT, STONE_COUNT
from roses.roseking.view import PlayerView

from . import kernel, star
from .base import BotSpec
from .evaluation import HAND_MADE, weight_vector
from .value_net import learned_weights

DEFAULT_TIME = 1.0  # seconds per move when the spec sets no budget
FIRST_RATE = 300_000.0  # nodes per second assumed before the first depth is timed
# The share of the time left that the clock's node limit buys at the last depth's speed: a
# deeper depth searches fewer nodes a second, so at the full share a search ended late
# (benchmarks/bot_answers.py; the figures are in benchmarks/results/strength.md).
CLOCK_SHARE = 0.9
# ``search`` keeps a transposition table (about half the nodes to depth 7) and values a
# draw by 3 of the pile's cards: the depth it gains beat whole chance nodes at equal nodes,
# and 5 cards or 2 did worse. The deeper the search, the less one more ply is worth against
# a draw's sampling error, so from about a second a move every card counts. The matches
# behind each choice: benchmarks/results/tuning.md, "What `search` plays".
SAMPLE = 3
WHOLE_BUDGET_NODES = 600_000  # about a second a move on one core of this machine
NODES_PER_SECOND = 650_000  # the network's search on an idle core (benchmarks/kernel.py)
# with this few stones left in the supply every draw is searched whole, so that the
# endgame solver can finish (how far it reaches: benchmarks/results/strength.md)
WHOLE_DRAWS_STONES = 3
# With whole draws, ChanceProbCut (``star``): a search 2 plies shallower bounds each draw's
# unseen cards by its value +- 0.05: far fewer nodes to the same depth with the same best
# moves (benchmarks/results/tuning.md).
PROBCUT_MARGIN = 50  # thousandths of a value


@dataclass(frozen=True)
class SearchResult:
    """The deepest completed search: each root move's value for the team to move."""

    moves: tuple[Move, ...]  # best first
    values: tuple[float, ...]  # -1 loss .. 1 win; bounds for all but the best unless ``every``
    depth: int
    exact: bool  # no line was cut by the depth: the values are the game's expected results
    nodes: int
    seconds: float

    @property
    def best(self) -> Move:
        return self.moves[0]


def encode(view: PlayerView) -> Any:
    """The search's state rows with ``view`` in row 0 (the pile as a set of cards)."""
    s = star.new_states()
    for sq in range(SQUARE_COUNT):
        bit = 1 << sq
        s[star.OWNER + sq] = 1 if view.red & bit else 2 if view.white & bit else 0
    for seat, hand in enumerate(view.hands):
        s[star.HAND_N + seat] = len(hand)
        s[star.HEROES + seat] = view.heroes[seat]
        for i, card in enumerate(hand):
            s[star.HANDS + seat * star.HAND_SLOTS + i] = card
    for card in view.draw_pile_cards:
        s[star.PILE + card] = 1
    for card in view.discard_pile:
        s[star.DISCARD + card] = 1
    s[star.CROWN], s[star.TURN] = view.crown, view.turn
    s[star.STONES] = (view.red | view.white).bit_count()
    s[star.SEATS], s[star.LIMIT] = view.seats, view.variant.hand_limit
    s[star.PILE_N], s[star.DISCARD_N] = len(view.draw_pile_cards), len(view.discard_pile)
    s[star.HASH] = star.zobrist(s, 0)
    return s


TABLE_BITS = 20  # a million entries (24 MB): more than a 1 s search's positions
_table: tuple[Any, Any, Any] | None = None
_no_table = star.new_table(0)
_generation = 0


def _next_table() -> tuple[tuple[Any, Any, Any], int]:
    """The process's transposition table and a fresh generation for one search: entries of
    earlier searches never answer, so a search depends on its view alone."""
    global _table, _generation
    if _table is None:
        _table = star.new_table(TABLE_BITS)
    _generation += 1
    return _table, _generation


def run(
    view: PlayerView,
    *,
    weights: tuple[float, ...] = HAND_MADE,
    prune: bool = True,
    every: bool = False,
    time_limit: float | None = None,
    nodes: int | None = None,
    depth: int | None = None,
    sample: int = 0,
    table: bool = False,
    probcut: int = 0,
) -> SearchResult:
    """Iterative deepening from depth 1 until the clock, the node budget or ``depth`` stops
    it, or no line was cut by the depth (the search is exact, or only its sampled draws
    keep it from being so, and a deeper search would repeat it). Depth 1 always completes,
    whatever the budget. ``sample`` > 0: each draw is valued by that many of the pile's
    cards (chosen by the position, never by the pile's order), not all. ``table``: with a
    transposition table (pruning only). ``probcut`` > 0: ChanceProbCut's margin, in
    thousandths of a value (pruning only; the values are then estimates, not bounds)."""
    if view.is_over():
        raise ValueError("the game is over: there is no move to search")
    warm_up()
    start = time.perf_counter()
    s = encode(view)
    moves = list(view.legal_moves)
    roots = kernel._new(len(moves))
    values = weight_vector((0.0,) * len(moves))
    wvec = weight_vector(weights)
    info = kernel._new(star.INFO_SIZE)
    info[star.I_SAMPLE] = sample
    info[star.I_PC_MARGIN] = probcut
    tables = _no_table
    if table and prune:
        tables, info[star.I_GENERATION] = _next_table()
        info[star.I_TABLE] = len(tables[0]) - 1
    spent = 0
    rate = FIRST_RATE
    result: SearchResult | None = None
    level = 1
    while depth is None or level <= depth:
        limit = (1 << 62) if result is None else (nodes or (1 << 62)) - spent
        by_clock = False
        if time_limit is not None and result is not None:
            left = time_limit - (time.perf_counter() - start)
            bought = int(rate * left * CLOCK_SHARE)
            if bought < limit:
                limit, by_clock = bought, True
        if limit <= 0:
            break
        for i, move in enumerate(moves):
            roots[i] = move.action_id
        info[star.I_NODES], info[star.I_LIMIT] = 0, limit
        info[star.I_ABORTED] = info[star.I_HORIZON] = info[star.I_CUT] = 0
        began = time.perf_counter()
        best = star.root_values(
            s, roots, len(moves), level, prune, every, wvec, values, info, *tables
        )
        took = time.perf_counter() - began
        spent += int(info[star.I_NODES])
        if best < 0:  # out of budget: the deeper search is discarded
            # The clock's node limit is an estimate from the last depth's speed, which a
            # hiccup (a process's first search, page faults, a busy machine) can make far
            # too low: with half the time still left, the same depth is tried again.
            elapsed = time.perf_counter() - start
            if by_clock and time_limit is not None and elapsed < time_limit / 2:
                rate *= 4
                continue
            break
        if took > 0.001:
            rate = info[star.I_NODES] / took
        ranked = sorted(range(len(moves)), key=lambda i: -values[i] if i != best else -3.0)
        moves = [moves[i] for i in ranked]
        result = SearchResult(
            tuple(moves), tuple(float(values[i]) for i in ranked), level,
            not info[star.I_HORIZON], spent, time.perf_counter() - start,
        )  # fmt: skip
        if not info[star.I_CUT]:  # exact, or sampled draws a deeper search would repeat
            break
        level += 1
    assert result is not None
    return result


_compiled = False


def warm_up() -> None:
    """Compile the search once per process, outside any move's budget."""
    global _compiled
    if _compiled:
        return
    _compiled = True
    from roses.roseking import Board

    run(Board(seed=0).view(0), depth=2)


class SearchBot:
    """Expectimax with a given evaluation, pruning and budget."""

    def __init__(
        self,
        spec: BotSpec,
        *,
        weights: tuple[float, ...] = HAND_MADE,
        prune: bool = True,
        depth: int | None = None,
        sample: int = 0,
        table: bool = False,
        team_weights: tuple[float, ...] | None = None,
        probcut: int = 0,
    ) -> None:
        self.name = spec.name
        self.weights = weights
        self.team_weights = team_weights or weights  # the four-player game's
        self.prune = prune
        self.depth = depth
        self.sample = sample
        self.table = table
        self.probcut = probcut
        self.nodes = spec.iterations
        # a fixed depth is searched whole unless a clock or a node budget stops it first:
        # depth 7 with every draw a chance node takes seconds a move
        self.time_limit = spec.time_limit
        if depth is None and spec.iterations is None and spec.time_limit is None:
            self.time_limit = DEFAULT_TIME
        self.last: SearchResult | None = None  # for reports and tests
        warm_up()

    def choose(self, view: PlayerView) -> Move:
        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        self.last = self.search(view)
        return self.last.best

    def search(self, view: PlayerView, *, every: bool = False) -> SearchResult:
        left = STONE_COUNT - (view.red | view.white).bit_count()
        endgame = left <= WHOLE_DRAWS_STONES  # every draw whole and exact: solve it
        sample = 0 if endgame else self.sample
        weights = self.weights if view.seats == 2 else self.team_weights
        return run(
            view, weights=weights, prune=self.prune, every=every,
            time_limit=self.time_limit, nodes=self.nodes, depth=self.depth,
            sample=sample, table=self.table,
            probcut=0 if endgame else self.probcut,
        )  # fmt: skip


def sample_for(spec: BotSpec) -> int:
    """How many of the pile's cards ``search`` values a draw by on ``spec``'s budget (0:
    every card)."""
    if spec.iterations is not None:
        nodes = float(spec.iterations)
    else:
        nodes = (spec.time_limit or DEFAULT_TIME) * NODES_PER_SECOND
    return 0 if nodes >= WHOLE_BUDGET_NODES else SAMPLE


def search_bot(spec: BotSpec) -> SearchBot:
    sample = sample_for(spec)
    return SearchBot(
        spec, weights=learned_weights(2), team_weights=learned_weights(4),
        sample=sample, table=True, probcut=PROBCUT_MARGIN if sample == 0 else 0,
    )  # fmt: skip


def alphabeta_bot(spec: BotSpec) -> SearchBot:
    return SearchBot(spec, weights=HAND_MADE, depth=7)


def expectimax_bot(spec: BotSpec) -> SearchBot:
    return SearchBot(spec, prune=False)
