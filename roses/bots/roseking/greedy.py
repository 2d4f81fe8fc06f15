"""The greedy bot: the move with the best immediate score, judged as RK-15 judges."""

from __future__ import annotations

import random

from roses.roseking import Board, Move
from roses.roseking.moves import DRAW
from roses.roseking.view import PlayerView

from .base import BotSpec

Margin = tuple[int, int, int]


def margin(board: Board, team: int) -> Margin:
    """``team``'s lead in RK-15's order: score, then largest territory, then stones."""
    red, white = board.team_scores()
    own, other = (red, white) if team == 0 else (white, red)
    return (
        own.score - other.score,
        own.largest - other.largest,
        own.stones - other.stones,
    )


def move_margins(view: PlayerView, rng: random.Random) -> list[tuple[Move, Margin]]:
    """Every legal move with the margin right after it (a draw leaves the board as it is)."""
    board = view.determinize(rng)
    team = view.turn & 1
    standing = margin(board, team)
    result = []
    for move in view.legal_moves:
        if move.kind == DRAW:  # the card drawn is hidden and moves no stone
            result.append((move, standing))
            continue
        board.push(move)
        result.append((move, margin(board, team)))
        board.pop()
    return result


class GreedyBot:
    """Best immediate margin (RK-14 scores, RK-15 tie-breaks); a seeded coin for exact ties."""

    name = "greedy"

    def __init__(self, spec: BotSpec) -> None:
        self.rng = random.Random(spec.seed)

    def choose(self, view: PlayerView) -> Move:
        scored = move_margins(view, self.rng)
        best = max(value for _, value in scored)
        return self.rng.choice([move for move, value in scored if value == best])
