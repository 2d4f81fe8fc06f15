"""Random complete games through the public API: the engine's speed benchmark."""

from __future__ import annotations

import random
import time
from typing import Any

from .board import Board
from .variants import Variant


def random_games(games: int, seed: int = 0, variant: Variant = Variant.CLASSIC) -> dict[str, Any]:
    """Play ``games`` uniformly random games to the end, scoring each; report the speed."""
    rand = random.Random(seed).random
    plies = 0
    start = time.perf_counter()
    for game in range(games):
        board = Board(variant, seed=seed * 1_000_003 + game)
        legal_moves, push = board.legal_moves, board.push
        while moves := legal_moves():
            push(moves[int(rand() * len(moves))])
        plies += len(board.move_stack)
        board.outcome()
    seconds = time.perf_counter() - start
    return {
        "games": games,
        "seconds": round(seconds, 4),
        "games_per_s": round(games / seconds, 1),
        "plies_per_s": round(plies / seconds, 1),
    }
