"""The search bot: legal in every variant, within its budget, reuses its tree, and never
learns the draw pile's order (RK-5, RK-20: only the cards in it are public)."""

from __future__ import annotations

import time

import pytest

from roses.bots.roseking import make_bot
from roses.bots.roseking.base import BotSpec
from roses.bots.roseking.mcts import ChanceNode, MctsBot, Node
from roses.roseking import Board, Move, Variant
from roses.roseking.moves import DRAW_MOVE
from tests.roseking.helpers import make_board


def bot(seed: int = 1, iterations: int | None = 60, time_limit: float | None = None) -> MctsBot:
    return MctsBot(BotSpec("mcts", seed=seed, iterations=iterations, time_limit=time_limit))


@pytest.mark.parametrize("variant", list(Variant))
def test_mcts_plays_legal_moves_to_the_end_in_every_variant(variant: Variant) -> None:
    """RK-16/17 too: in the four-player game each search bot plays for its team."""
    board = Board(variant, seed=5)
    bots = {seat: bot(seed=seat, iterations=25) for seat in range(board.seats) if seat & 1 == 0}
    other = make_bot("random", seed=2)
    while moves := board.legal_moves():
        seat = board.turn
        move = bots.get(seat, other).choose(board.view(seat))
        assert move in moves
        board.push(move)
    assert board.outcome() is not None


def test_mcts_counts_its_iteration_budget() -> None:
    searcher = bot(iterations=37)
    searcher.search(Board(seed=3).view(0))
    assert searcher.last_iterations == 37
    assert searcher.last_playouts > 0


def test_choose_stops_once_no_move_can_overtake_the_leader() -> None:
    """The last stone (RK-12): one placement wins, so the leader's lead soon exceeds the
    iterations left; the move is the one the whole budget would pick."""
    board = Board.from_position(LAST_STONE_FOR_RED)
    early, full = bot(iterations=3000), bot(iterations=3000)
    assert early.choose(board.view(0)) == Move.from_str("E3")
    assert early.last_iterations < 3000
    assert full.search(board.view(0)).most_visited_move() == Move.from_str("E3")
    assert full.last_iterations == 3000


def test_choose_stops_early_under_a_time_budget_too() -> None:
    board = Board.from_position(LAST_STONE_FOR_RED)
    searcher = bot(iterations=None, time_limit=2.0)
    start = time.process_time()  # CPU, not waits for a CPU on a loaded machine
    assert searcher.choose(board.view(0)) == Move.from_str("E3")
    assert time.process_time() - start < 1.5


def test_mcts_keeps_to_its_time_budget() -> None:
    searcher = bot(iterations=None, time_limit=0.3)
    # This process's CPU time, not the wall clock: on a loaded machine the process may wait
    # for a CPU past its deadline, but it cannot search past it.
    start = time.process_time()
    searcher.choose(Board(seed=3).view(0))
    spent = time.process_time() - start
    assert searcher.last_iterations > 10
    assert spent < 0.3 + 0.5  # one iteration past the clock check at most, plus slack


def test_mcts_without_a_budget_uses_the_default_time() -> None:
    assert MctsBot(BotSpec("mcts")).time_limit == 1.0


def test_two_piles_in_different_orders_give_the_same_search() -> None:
    """Hidden information: boards that differ only in the pile's order give the bot equal
    views, and with the same seed the bot's whole search is the same."""
    board = Board(seed=8)
    board.push(Move.from_str(str(board.legal_moves()[0])))
    shuffled = board.copy()
    shuffled.reorder_draw_pile(tuple(reversed(board.draw_pile)))
    assert board.draw_pile != shuffled.draw_pile
    assert board.view(1) == shuffled.view(1)
    first, second = bot(seed=4, iterations=150), bot(seed=4, iterations=150)
    root_a, root_b = first.search(board.view(1)), second.search(shuffled.view(1))
    assert (root_a.n, root_a.w) == (root_b.n, root_b.w)
    assert first.choose(board.view(1)) == second.choose(shuffled.view(1))


def test_a_draw_leads_to_a_chance_node_over_the_pile_cards() -> None:
    """RK-9: a draw's outcomes are the cards that may be in the pile, nothing else."""
    board = make_board(red="e5", hands=["N1 N2", "S1 S2 S3 SE1 SE2"])  # red may draw
    view = board.view(0)
    root = bot(iterations=300).search(view)
    draw = root.children[root.moves.index(DRAW_MOVE)]
    assert isinstance(draw, ChanceNode)
    assert draw.children and set(draw.children) <= set(view.draw_pile_cards)
    assert len(draw.children) > 1


def test_mcts_reuses_its_tree_after_the_opponent_plays() -> None:
    board = Board(seed=12)
    searcher = bot(iterations=400)
    board.push(searcher.choose(board.view(0)))
    board.push(board.legal_moves()[0])
    assert searcher.last_reused_visits == 0
    searcher.choose(board.view(0))
    assert searcher.last_reused_visits > 0


def test_mcts_reuses_its_tree_after_the_opponent_draws() -> None:
    """White, holding no card, can only draw: the node of the card drawn is found by
    the public state it leads to (RK-9)."""
    board = make_board(red="e5 a1", white="i9", hands=["N1 E1 S1 W1 NE1", ""], seed=3)
    searcher = bot(iterations=500)
    board.push(searcher.choose(board.view(0)))
    assert board.legal_moves() == (DRAW_MOVE,)
    board.push(DRAW_MOVE)
    root = searcher.search(board.view(0))
    assert searcher.last_reused_visits > 0
    assert root.moves == board.legal_moves()


def test_mcts_starts_afresh_without_reuse() -> None:
    board = Board(seed=12)
    searcher = MctsBot(BotSpec("mcts", seed=1, iterations=200), reuse_tree=False)
    board.push(searcher.choose(board.view(0)))
    board.push(board.legal_moves()[0])
    searcher.choose(board.view(0))
    assert searcher.last_reused_visits == 0


LAST_STONE_FOR_RED = (
    "2w1rr2r/1r2w2wr/wrwrr1r1w/1rw1w2rw/1wrrr1wrr/rwr1rwrrr/1w1r1wwww/3rrwwwr/3w1w1wr"
    " a4 r NE2,E3,SE2|SE3,W1,NW1,SE1,N3 0|0 S2,N2,N1,E1,SW3,NE1,E2,S3,SW1,W3,NW3/"
    "NW2,NE3,S1,SW2,W2"
)


@pytest.mark.parametrize(
    ("position", "winning", "losing"),
    [
        (
            LAST_STONE_FOR_RED,
            "E3",
            "SE2",
        ),
        (
            "4wrwr1/wwwrwwrw1/rrrwr1wrr/2rr1wrww/wrww2wr1/r1wrwrrw1/2rw1r2w/4wrr2/3wwwr1r"
            " f6 w E3,E2,NW2,SW2,W2|NW3,E1,S2,N1 0|0 NE2,NE1,SE2,SW3,S3,NE3,W1,N2,NW1,SE1,"
            "SW1,SE3,S1/W3,N3",
            "N1",
            "NW3",
        ),
    ],
)
def test_mcts_places_the_last_stone_to_win(position: str, winning: str, losing: str) -> None:
    """RK-12: the 52nd stone ends the game; the search sees which placement wins for
    the side to move (Red in one position, White in the other)."""
    board = Board.from_position(position)
    estimates = {str(e.move): e for e in bot(iterations=300).analyse(board.view(board.turn))}
    assert estimates[winning].win_probability == 1.0
    assert estimates[losing].win_probability == 0.0
    assert bot(iterations=300).choose(board.view(board.turn)) == Move.from_str(winning)


def test_analyse_lists_every_legal_move_best_first() -> None:
    board = Board(seed=6)
    estimates = bot(iterations=200).analyse(board.view(0))
    assert {e.move for e in estimates} == set(board.legal_moves())
    visits = [e.visits for e in estimates]
    assert visits == sorted(visits, reverse=True) and sum(visits) == 200
    assert all(0.0 <= e.win_probability <= 1.0 for e in estimates)


def test_search_refuses_a_finished_game() -> None:
    board = Board(seed=1)
    while moves := board.legal_moves():
        board.push(moves[0])
    with pytest.raises(ValueError, match="over"):
        bot().search(board.view(0))


def test_root_node_belongs_to_the_team_to_move() -> None:
    board = Board(Variant.FOUR_PLAYER, seed=2)
    board.push(board.legal_moves()[0])
    root = bot(iterations=20).search(board.view(1))
    assert isinstance(root, Node) and root.team == 1
