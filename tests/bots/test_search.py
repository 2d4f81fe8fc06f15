"""The compiled expectimax (``star``) and its bots: the same values as a plain expectimax
written on the engine, pruning that never changes a value, exact endgames, budgets."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roses.bots.roseking import STRONGEST, kernel, make_bot, star
from roses.bots.roseking.evaluation import (
    HAND_MADE,
    SCRATCH_SIZE,
    evaluate,
    new_features,
    weight_vector,
)
from roses.bots.roseking.search import (
    CLOCK_SHARE,
    PROBCUT_MARGIN,
    SAMPLE,
    WHOLE_DRAWS_STONES,
    SearchBot,
    encode,
    run,
)
from roses.bots.roseking.value_net import learned_weights
from roses.roseking import Board, Move, Variant
from roses.roseking.moves import DRAW, DRAW_MOVE
from tests.bots.test_mcts import LAST_STONE_FOR_RED

# every feature weighted (the first self-play fit, "search-fit1" of benchmarks/tuning.py), so
# that the tests reach every term of the evaluation
EVERY_FEATURE = (0.024, 0.733, 2.015, 0.139, 0.898, 0.209, 0.389, 0.193, -0.25, -0.065, -0.487, 0.3)


def leaf_value(board: Board, weights: tuple[float, ...]) -> float:
    return float(
        evaluate(encode(board.view(board.turn)), 0, weight_vector(weights),
                 kernel._new(SCRATCH_SIZE), new_features())
    )  # fmt: skip


def expectimax(board: Board, depth: int, weights: tuple[float, ...]) -> float:
    """The textbook definition on the engine: max over moves, the mean over the cards a
    draw may reveal (RK-9), the result at the end, the evaluation at the depth limit."""
    moves = board.legal_moves()
    if not moves:
        outcome = board.outcome()
        assert outcome is not None
        if outcome.winner is None:
            return 0.0
        return 1.0 if int(outcome.winner) == board.turn & 1 else -1.0
    if depth == 0:
        return leaf_value(board, weights)
    return max(move_value(board, move, depth, weights) for move in moves)


def move_value(board: Board, move: Move, depth: int, weights: tuple[float, ...]) -> float:
    if move.kind != DRAW:
        board.push(move)
        value = -expectimax(board, depth - 1, weights)
        board.pop()
        return value
    pile = board.draw_pile
    total = 0.0
    for card in sorted(set(pile)):
        board.reorder_draw_pile((card, *(c for c in pile if c != card)))
        board.push(move)
        total -= expectimax(board, depth - 1, weights)
        board.pop()
    board.reorder_draw_pile(pile)
    return total / len(pile)


def played(variant: Variant, seed: int, plies: int) -> Board:
    rng = random.Random(seed)
    board = Board(variant, seed=seed)
    for _ in range(plies):
        moves = board.legal_moves()
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


@pytest.mark.parametrize(
    ("variant", "seed", "plies", "depth"),
    [
        (Variant.CLASSIC, 1, 0, 2),
        (Variant.CLASSIC, 2, 30, 3),
        (Variant.CLASSIC, 3, 70, 3),
        (Variant.CLASSIC, 4, 95, 2),
        (Variant.FOUR_PLAYER, 5, 20, 3),
    ],
)
@pytest.mark.parametrize("prune", [False, True])
def test_every_root_value_equals_the_plain_expectimax(
    variant: Variant, seed: int, plies: int, depth: int, prune: bool
) -> None:
    """Alpha-beta and Star1 prune only what cannot change a value (RK-9 draws as chance)."""
    board = played(variant, seed, plies)
    view = board.view(board.turn)
    result = run(view, every=True, depth=depth, prune=prune, weights=EVERY_FEATURE)
    assert set(result.moves) == set(board.legal_moves())
    for move, value in zip(result.moves, result.values, strict=True):
        expected = move_value(board, move, depth, EVERY_FEATURE)
        assert value == pytest.approx(expected, abs=1e-9), str(move)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 100), four=st.booleans())
def test_each_move_keeps_the_hash_of_the_position(seed: int, plies: int, four: bool) -> None:
    """The Zobrist hash each play, hero play, pass and draw updates (RK-8..RK-11, a draw
    that empties the pile and turns the discard pile over included) is the one computed
    from the whole position, so equal positions meet in the transposition table."""
    board = played(Variant.FOUR_PLAYER if four else Variant.CLASSIC, seed, plies)
    if board.is_over():
        return
    s = encode(board.view(board.turn))
    moves = kernel._new(star.MAX_MOVES)
    rng = random.Random(seed)
    for _ in range(60):
        n = star.generate(s, 0, moves, 0)
        if n == 0:
            break
        action = moves[rng.randrange(n)]
        if action == star.DRAW:
            star.draw_card(s, 0, rng.choice([c for c in range(24) if s[star.PILE + c]]))
        else:
            star.apply(s, 0, action)
        assert s[star.HASH] == star.zobrist(s, 0)


@pytest.mark.parametrize(("seed", "plies", "depth", "sample"), [
    (5, 0, 5, 3), (6, 30, 5, 0), (7, 45, 7, 3), (8, 60, 4, 0), (9, 90, 6, 0),
])  # fmt: skip
def test_the_transposition_table_keeps_the_values_and_saves_nodes(
    seed: int, plies: int, depth: int, sample: int
) -> None:
    """At equal depth the table changes no value (the best move's, and every move's with
    ``every``), only the nodes searched; an endgame stays exactly solved."""
    board = played(Variant.CLASSIC, seed, plies)
    view = board.view(board.turn)
    plain = run(view, depth=depth, sample=sample)
    tabled = run(view, depth=depth, sample=sample, table=True)
    assert tabled.values[0] == pytest.approx(plain.values[0], abs=1e-12)
    assert tabled.exact == plain.exact and tabled.depth == plain.depth
    assert tabled.nodes <= plain.nodes
    every = run(view, depth=min(depth, 4), sample=sample, every=True)
    every_tabled = run(view, depth=min(depth, 4), sample=sample, every=True, table=True)
    assert every_tabled.values == pytest.approx(every.values, abs=1e-12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 110),
    four=st.booleans(),
    hand_made=st.booleans(),
)
def test_pruning_picks_a_move_as_good_as_expectimax(
    seed: int, plies: int, four: bool, hand_made: bool
) -> None:
    board = played(Variant.FOUR_PLAYER if four else Variant.CLASSIC, seed, plies)
    if board.is_over():
        return
    view = board.view(board.turn)
    weights = HAND_MADE if hand_made else EVERY_FEATURE
    full = run(view, every=True, depth=3, prune=False, weights=weights)
    pruned = run(view, depth=3, prune=True, weights=weights)
    assert pruned.values[0] == pytest.approx(full.values[0], abs=1e-9)
    assert full.values[full.moves.index(pruned.best)] == pytest.approx(full.values[0], abs=1e-9)
    assert all(-1.0 <= v <= 1.0 for v in full.values)
    assert pruned.nodes <= full.nodes


ENDGAME = (
    "3rrw1r1/1w1wrrw1w/1wrwwwrw1/w2w1wr1w/1w1rwr1rr/1r1rrwrrr/w2rwrwwr/1rwwrww2/4r4 e3 r"
    " S3,N1,NW2,E1,W2|NE2,SW1,N3,E3 0|0 NW3,E2,W3,N2,W1,S1,S2,NE1,NE3,SE1,SW2,SE2/SE3,SW3,NW1"
)


def test_the_endgame_solver_gives_exact_expected_results() -> None:
    """Three stones left: W2 wins outright; after NW2 Red wins only in 1 of the 12 ways the
    draws can fall, an expected result of 1/12 - 11/12 = -5/6 (RK-9, RK-12..RK-15)."""
    board = Board.from_position(ENDGAME)
    result = run(board.view(0), every=True)
    assert result.exact
    values = dict(zip(result.moves, result.values, strict=True))
    assert values[Move.from_str("W2")] == 1.0
    assert Fraction(values[Move.from_str("NW2")]).limit_denominator(1000) == Fraction(-5, 6)
    for move, value in values.items():  # the plain expectimax to the end agrees
        assert value == pytest.approx(move_value(board, move, 40, HAND_MADE), abs=1e-12)


def test_the_table_solves_the_endgame_exactly() -> None:
    board = Board.from_position(ENDGAME)
    plain = run(board.view(0), every=True)
    tabled = run(board.view(0), every=True, table=True)
    assert tabled.exact and tabled.values == pytest.approx(plain.values, abs=1e-12)
    assert tabled.nodes < plain.nodes


def test_the_last_stone_is_solved_at_once() -> None:
    board = Board.from_position(LAST_STONE_FOR_RED)
    result = run(board.view(0), every=True, depth=30)
    assert result.exact and result.best == Move.from_str("E3") and result.values[0] == 1.0
    values = dict(zip(result.moves, result.values, strict=True))
    assert values[Move.from_str("SE2")] == -1.0
    bot = make_bot("search", time_limit=5.0)
    assert bot.choose(board.view(0)) == Move.from_str("E3")


def test_a_node_budget_keeps_the_deepest_completed_search() -> None:
    view = Board(seed=3).view(0)
    small, large = run(view, nodes=50), run(view, nodes=200_000)
    assert small.depth >= 1 and large.depth > small.depth
    assert large.nodes <= 200_000 + large.nodes // large.depth  # the last depth was cut short
    assert not small.exact


def test_a_sampled_draw_is_the_mean_over_part_of_the_pile() -> None:
    """``sample``: a draw (RK-9) tries at most that many of the pile's cards; a sample at
    least as large as the pile is the whole chance node, and a smaller one is never
    reported exact (the expectation over the pile's other cards is unknown)."""
    board = Board(seed=9)
    board.push(board.legal_moves()[0])
    board.push(board.legal_moves()[0])
    view = board.view(board.turn)
    whole = run(view, every=True, depth=3)
    assert run(view, every=True, depth=3, sample=24).values == whole.values
    sampled = run(view, every=True, depth=3, sample=2)
    assert sampled.nodes < whole.nodes
    draw = sampled.values[sampled.moves.index(DRAW_MOVE)]
    assert draw != whole.values[whole.moves.index(DRAW_MOVE)]
    ending = Board.from_position(ENDGAME).view(0)
    assert run(ending, every=True).exact and not run(ending, every=True, depth=8, sample=2).exact


@pytest.mark.parametrize("table", [False, True])
def test_deepening_stops_once_no_line_is_cut_by_the_depth(table: bool) -> None:
    """A sampled draw is never exact, but once every line reaches the game's end a deeper
    search would only repeat itself: the deepening stops there, at the depth that solves
    the whole endgame, long before its node budget."""
    ending = Board.from_position(ENDGAME).view(0)
    whole = run(ending, table=table)
    sampled = run(ending, sample=2, nodes=5_000_000, table=table)
    assert whole.exact and not sampled.exact
    assert sampled.depth <= whole.depth
    assert sampled.nodes < 5_000_000 // 10


def test_the_search_bot_samples_draws_but_solves_the_endgame_whole() -> None:
    """``search`` samples draws mid-game; with 3 stones left in the supply (RK-2, RK-12)
    it searches every draw whole, so the endgame is solved exactly."""
    bot = make_bot("search", iterations=100_000)
    assert isinstance(bot, SearchBot) and bot.sample == SAMPLE
    view = Board.from_position(ENDGAME).view(0)
    assert 52 - (view.red | view.white).bit_count() == WHOLE_DRAWS_STONES
    solved = bot.search(view, every=True)
    assert solved.exact and solved.values == run(view, every=True).values
    early = played(Variant.CLASSIC, 3, 20)
    assert not bot.search(early.view(early.turn)).exact


@pytest.mark.parametrize(
    ("budget", "sample"),
    [
        ({"time_limit": 0.1}, SAMPLE),
        ({"time_limit": 0.2}, SAMPLE),
        ({"time_limit": 0.5}, SAMPLE),
        ({"time_limit": 1.0}, 0),
        ({}, 0),  # no budget: a second a move
        ({"iterations": 10_000}, SAMPLE),
        ({"iterations": 700_000}, 0),
    ],
)
def test_the_search_bot_values_whole_draws_on_a_long_budget(
    budget: dict[str, float], sample: int
) -> None:
    """3 cards a draw on short budgets, every card (0) from about a second a move
    (tuning.md, "2026-11-27"), and then with ChanceProbCut."""
    bot = make_bot("search", **budget)
    assert isinstance(bot, SearchBot) and bot.sample == sample
    assert bot.probcut == (PROBCUT_MARGIN if sample == 0 else 0)


PROBCUT_POSITIONS = [(5, 0), (3, 20), (6, 30)]


@pytest.mark.parametrize(("seed", "plies"), PROBCUT_POSITIONS)
def test_chance_probcut_with_bounds_as_wide_as_the_game_is_star1(seed: int, plies: int) -> None:
    """A margin of 2 bounds every unseen card by LOSS and WIN, as Star1 does: the same
    values; the shallower searches only cost nodes."""
    board = played(Variant.CLASSIC, seed, plies)
    view = board.view(board.turn)
    weights = learned_weights(2)
    star1 = run(view, depth=5, table=True, weights=weights)
    wide = run(view, depth=5, table=True, weights=weights, probcut=2000)
    assert wide.values[0] == star1.values[0] and wide.best == star1.best
    assert wide.nodes > star1.nodes


@pytest.mark.parametrize(("seed", "plies"), PROBCUT_POSITIONS)
def test_chance_probcut_saves_nodes_and_keeps_a_best_move(seed: int, plies: int) -> None:
    """With the margin ``search`` plays, fewer nodes to the same depth, and a move whose
    value (every move searched without ChanceProbCut) is within the margin of the best."""
    board = played(Variant.CLASSIC, seed, plies)
    view = board.view(board.turn)
    weights = learned_weights(2)
    star1 = run(view, depth=5, table=True, weights=weights, every=True)
    cut = run(view, depth=5, table=True, weights=weights, probcut=PROBCUT_MARGIN)
    assert cut.nodes < run(view, depth=5, table=True, weights=weights).nodes
    values = dict(zip(star1.moves, star1.values, strict=True))
    assert values[cut.best] >= star1.values[0] - PROBCUT_MARGIN / 1000


def test_chance_probcut_still_solves_the_endgame_exactly() -> None:
    """A shallower search that reaches the end of all its lines is exact and needs no
    margin, so the endgame is solved as without ChanceProbCut."""
    view = Board.from_position(ENDGAME).view(0)
    solved = run(view, every=True, table=True)
    cut = run(view, every=True, table=True, probcut=PROBCUT_MARGIN)
    assert cut.exact and cut.values == solved.values


def test_a_time_budget_is_kept() -> None:
    result = run(Board(seed=3).view(0), time_limit=0.2)
    assert result.depth >= 2
    assert result.seconds < 0.2 + 0.5  # slack for a loaded machine


def test_a_depth_cut_short_by_a_wrong_speed_estimate_is_tried_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The clock becomes a node limit through the speed measured so far. Measured wrong
    (here: 100 nodes a second, as a process's first tiny search once measured), the search
    must not stop at depth 1 with most of its time left."""
    monkeypatch.setattr("roses.bots.roseking.search.FIRST_RATE", 100.0)
    result = run(Board(seed=3).view(0), time_limit=0.2)
    assert result.depth >= 4
    assert result.seconds < 0.2 + 0.5  # slack for a loaded machine


class SlowerDeeperClock:
    """A clock that a search's nodes move: depth ``d`` runs at ``speed`` / 1.08 ** d nodes a
    second, as on this machine a deeper depth is slower a node (benchmarks/bot_answers.py)."""

    def __init__(self, speed: float) -> None:
        self.now = 0.0
        self.speed = speed
        self.search = star.root_values

    def perf_counter(self) -> float:
        return self.now

    def root_values(self, *args: Any) -> int:
        best: int = self.search(*args)
        depth, info = args[3], args[8]
        self.now += int(info[star.I_NODES]) / (self.speed / 1.08**depth)
        return best


@pytest.mark.parametrize(("share", "kept"), [(CLOCK_SHARE, True), (1.0, False)])
def test_the_clock_buys_a_share_of_the_time_left_so_a_slower_deeper_depth_ends_in_time(
    monkeypatch: pytest.MonkeyPatch, share: float, kept: bool
) -> None:
    """The node limit of the last depth is the time left at the speed of the depth before;
    buying 0.9 of it keeps the time when each depth is 8% slower a node than the last; all
    of it overruns (the case that shows the test can fail)."""
    clock = SlowerDeeperClock(speed=200_000.0)
    monkeypatch.setattr("roses.bots.roseking.search.CLOCK_SHARE", share)
    monkeypatch.setattr("roses.bots.roseking.search.time", clock)
    monkeypatch.setattr(star, "root_values", clock.root_values)
    result = run(Board(seed=3).view(0), time_limit=0.5)
    assert result.depth >= 3
    assert (clock.now <= 0.5) == kept, clock.now


def test_a_draw_is_a_chance_node_over_the_cards_the_pile_holds() -> None:
    """RK-9: with the pile's cards known but not their order, a draw is worth the mean."""
    board = Board(seed=9)
    board.push(board.legal_moves()[0])
    board.push(board.legal_moves()[0])
    assert DRAW_MOVE in board.legal_moves()  # Red holds 4 cards
    view = board.view(board.turn)
    result = run(view, every=True, depth=2, prune=False)
    draw = result.values[result.moves.index(DRAW_MOVE)]
    assert draw == pytest.approx(move_value(board, DRAW_MOVE, 2, HAND_MADE), abs=1e-12)
    assert not math.isclose(draw, leaf_value(board, HAND_MADE))


@pytest.mark.parametrize(
    ("name", "depth", "weights", "team_weights"),
    [
        ("alphabeta", 7, HAND_MADE, HAND_MADE),
        ("search", None, learned_weights(2), learned_weights(4)),
    ],
)
def test_the_registered_search_bots(
    name: str, depth: int | None, weights: Any, team_weights: Any
) -> None:
    """The sparring partner plays the thesis's evaluation; ``search`` the network learned
    for each number of players."""
    bot = make_bot(name, iterations=3000)
    assert isinstance(bot, SearchBot) and bot.depth == depth
    assert bot.weights == weights and bot.team_weights == team_weights
    board = Board(seed=4)
    assert bot.choose(board.view(0)) in board.legal_moves()
    assert bot.last is not None and bot.last.nodes <= 3000 + 2000


@pytest.mark.parametrize("variant", list(Variant))
def test_the_search_bot_plays_legal_moves_to_the_end(variant: Variant) -> None:
    board = Board(variant, seed=11)
    bot = make_bot("search", iterations=500)
    while moves := board.legal_moves():
        move = bot.choose(board.view(board.turn))
        assert move in moves
        board.push(move)
    assert board.outcome() is not None


def test_the_strongest_bot_is_the_search() -> None:
    """The lobby's strengths (quick, normal, strong) are time limits for this bot."""
    bot = make_bot(STRONGEST, time_limit=0.2)
    assert STRONGEST == "search" and isinstance(bot, SearchBot) and bot.time_limit == 0.2
