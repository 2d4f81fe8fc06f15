"""Monte Carlo tree search for The Rose King, with draws as chance events.

Everything but the draw pile's order is public (RK-5, RK-20) and that order is uniformly
random given what was seen, so the game a player faces is a perfect-information game with
chance: a draw (RK-9) leads to a chance node whose outcomes are the cards that may be in
the pile, equally likely. The search samples one at each visit; no determinization ever
fixes a pile order for a whole iteration, so no strategy depends on unseen cards.

Leaves are valued by random playouts in the compiled kernel (``kernel.playouts``).
The tree is kept between moves: the next search starts from the node the game reached.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from roses.roseking import Board, Move
from roses.roseking.moves import DRAW
from roses.roseking.view import PlayerView

from . import kernel
from .base import BotSpec

DEFAULT_TIME = 1.0  # seconds per move when the spec sets no budget
EXPLORATION = 0.7  # UCT constant, tuned by matches (benchmarks/results/tuning.md)
PLAYOUTS_PER_LEAF = 2  # kernel games per expanded leaf: amortises the Python overhead
CLOCK_CHECK = 16  # iterations between clock reads


class Node:
    """A decision node: the seat to move picks one of ``moves``.

    Edge statistics live in the parent (visits ``n``, points ``w`` for the mover's team),
    so choosing a child is a scan of two lists. A draw's edge leads to a ``ChanceNode``.
    """

    __slots__ = ("children", "moves", "n", "team", "visits", "w")

    def __init__(self, board: Board) -> None:
        self.moves = board.legal_moves()
        self.team = board.turn & 1
        self.visits = 0
        self.n = [0] * len(self.moves)
        self.w = [0.0] * len(self.moves)
        self.children: list[Node | ChanceNode | None] = [None] * len(self.moves)

    def select(self, exploration: float) -> int:
        """UCT (UCB1 on the edges); each move is tried once first, in order.

        So while ``visits`` is below the number of moves, move ``visits`` is the next untried.
        """
        visits = self.visits
        n = self.n
        if visits < len(n):
            return visits
        spread = exploration * exploration * math.log(visits)
        w = self.w
        sqrt = math.sqrt
        best, best_value = 0, -1.0
        for index, count in enumerate(n):
            value = w[index] / count + sqrt(spread / count)
            if value > best_value:
                best, best_value = index, value
        return best

    def most_visited_move(self) -> Move:
        """The move with the most visits (more points break a tie): the one to play."""
        best = max(range(len(self.moves)), key=lambda i: (self.n[i], self.w[i]))
        return self.moves[best]


class ChanceNode:
    """After a draw: one child per card the draw revealed (RK-9)."""

    __slots__ = ("children",)

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}


@dataclass(frozen=True)
class MoveEstimate:
    move: Move
    win_probability: float  # for the team to move, draws counting one half
    visits: int


class MctsBot:
    """Chance-node MCTS with kernel playouts; seeded, with a time or iteration budget."""

    name = "mcts"

    def __init__(
        self,
        spec: BotSpec,
        *,
        exploration: float = EXPLORATION,
        playouts_per_leaf: int = PLAYOUTS_PER_LEAF,
        reuse_tree: bool = True,
        policy: kernel.Policy = kernel.UNIFORM,
    ) -> None:
        self.rng = random.Random(spec.seed)
        self.iterations = spec.iterations
        self.time_limit = spec.time_limit
        if self.iterations is None and self.time_limit is None:
            self.time_limit = DEFAULT_TIME
        self.exploration = exploration
        self.playouts_per_leaf = playouts_per_leaf
        self.reuse_tree = reuse_tree
        self.policy = policy
        self._root: Node | None = None
        self._root_board: Board | None = None
        self._root_history: tuple[Move, ...] = ()
        self.last_iterations = 0  # of the latest search, for reports and tests
        self.last_playouts = 0
        self.last_reused_visits = 0
        kernel.warm_up()  # compile or load the kernel now, not inside the first move's budget

    def choose(self, view: PlayerView) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        return self.search(view, stop_when_decided=True).most_visited_move()

    def analyse(self, view: PlayerView) -> list[MoveEstimate]:
        """Every legal move with its estimated win probability and visits, best first."""
        root = self.search(view)
        estimates = [
            MoveEstimate(move, root.w[i] / root.n[i] if root.n[i] else 0.0, root.n[i])
            for i, move in enumerate(root.moves)
        ]
        estimates.sort(key=lambda e: (e.visits, e.win_probability), reverse=True)
        return estimates

    def search(self, view: PlayerView, *, stop_when_decided: bool = False) -> Node:
        """Grow the tree from ``view`` within the budget and return its root.

        With ``stop_when_decided`` the search ends as soon as no other move can overtake
        the most visited one in the iterations the budget has left: ``choose`` picks the
        most visited move, so the rest of the budget could not change its answer.
        """
        if view.is_over():
            raise ValueError("the game is over: there is no move to search")
        board = view.determinize(self.rng)  # the pile's order is redrawn at every draw
        root = self._reused_root(view) if self.reuse_tree else None
        self.last_reused_visits = root.visits if root else 0
        if root is None:
            root = Node(board)
        self._root, self._root_board, self._root_history = root, board.copy(), view.moves
        start = time.perf_counter()
        deadline = None if self.time_limit is None else start + self.time_limit
        limit = self.iterations
        done = playouts = 0
        while limit is None or done < limit:
            if done % CLOCK_CHECK == 0:
                now = time.perf_counter()
                if deadline is not None and now > deadline:
                    break
                if stop_when_decided and done and _decided(root, done, limit, start, now, deadline):
                    break
            playouts += self._iterate(root, board)
            done += 1
        self.last_iterations, self.last_playouts = done, playouts
        return root

    def _iterate(self, root: Node, board: Board) -> int:
        """One selection, expansion, evaluation and backup; returns the playouts run."""
        path: list[tuple[Node, int]] = []
        node = root
        pushed = 0
        playouts = 0
        while True:
            index = node.select(self.exploration)
            move = node.moves[index]
            path.append((node, index))
            child = node.children[index]
            if move.kind == DRAW:
                chance = child if isinstance(child, ChanceNode) else ChanceNode()
                node.children[index] = chance
                pile = board.draw_pile
                card = pile[int(self.rng.random() * len(pile))]
                board.reorder_draw_pile((card, *(c for c in pile if c != card)))
                board.push(move)
                pushed += 1
                child = chance.children.get(card)
                if child is None:
                    child = chance.children[card] = Node(board)
                    value, playouts = self._evaluate(board)
                    break
            else:
                board.push(move)
                pushed += 1
                if child is None:
                    child = node.children[index] = Node(board)
                    value, playouts = self._evaluate(board)
                    break
            assert isinstance(child, Node)
            node = child
            if not node.moves:
                value, playouts = self._evaluate(board)
                break
        for _ in range(pushed):
            board.pop()
        for parent, index in path:
            parent.visits += 1
            parent.n[index] += 1
            parent.w[index] += value if parent.team == 0 else 1.0 - value
        return playouts

    def _evaluate(self, board: Board) -> tuple[float, int]:
        """Red's expected points from ``board`` and the number of playouts it took."""
        outcome = board.outcome()
        if outcome is not None:
            return (0.5 if outcome.winner is None else 1.0 - int(outcome.winner)), 0
        count = self.playouts_per_leaf
        vector = kernel.encode_board(board)
        halves = kernel.playouts(vector, count, self.rng.getrandbits(31), self.policy)
        return halves / (2 * count), count

    def _reused_root(self, view: PlayerView) -> Node | None:
        """The node of the previous tree that ``view`` reached, found by replaying its moves.

        A draw's card is not in the move list, so every card the tree tried is followed and
        the public state at the end decides (hands, piles and stones must all match).
        """
        old_root, old_board = self._root, self._root_board
        if old_root is None or old_board is None:
            return None
        played = len(self._root_history)
        if view.moves[:played] != self._root_history or len(view.moves) == played:
            return None
        since = view.moves[played:]
        return _follow(old_root, old_board.copy(), since, view)


def _decided(
    root: Node, done: int, limit: int | None, start: float, now: float, deadline: float | None
) -> bool:
    """Whether the most visited move leads the next by more than the iterations left.

    Under a time budget the iterations left are estimated from this search's rate so far.
    """
    left = math.inf if limit is None else limit - done
    if deadline is not None and now > start:
        left = min(left, done / (now - start) * (deadline - now))
    first = second = 0
    for count in root.n:
        if count > first:
            first, second = count, first
        elif count > second:
            second = count
    return first - second > left


def _public_state(board: Board) -> tuple[object, ...]:
    return (
        board.red, board.white, board.crown, board.turn, board.hands, board.heroes,
        tuple(sorted(board.draw_pile)), board.discard_pile,
    )  # fmt: skip


def _view_state(view: PlayerView) -> tuple[object, ...]:
    return (
        view.red, view.white, view.crown, view.turn, view.hands, view.heroes,
        view.draw_pile_cards, view.discard_pile,
    )  # fmt: skip


def _follow(node: Node, board: Board, moves: tuple[Move, ...], view: PlayerView) -> Node | None:
    if not moves:
        return node if _public_state(board) == _view_state(view) else None
    move = moves[0]
    if move not in node.moves:
        return None
    child = node.children[node.moves.index(move)]
    if child is None:
        return None
    if isinstance(child, Node):
        board.push(move)
        found = _follow(child, board, moves[1:], view)
        board.pop()
        return found
    pile = board.draw_pile
    for card, grandchild in child.children.items():
        board.reorder_draw_pile((card, *(c for c in pile if c != card)))
        board.push(move)
        found = _follow(grandchild, board, moves[1:], view)
        board.pop()
        if found is not None:
            return found
    return None
