"""Position analysis: every legal move with the search bot's estimate, best first."""

from __future__ import annotations

import json

from roses.roseking.view import PlayerView

from .base import BotSpec
from .mcts import MctsBot, MoveEstimate


def analyse(
    view: PlayerView,
    *,
    time_limit: float | None = None,
    iterations: int | None = None,
    seed: int | None = None,
) -> list[MoveEstimate]:
    """Search ``view`` (what the seat to move knows) and rank its legal moves."""
    bot = MctsBot(BotSpec("mcts", seed=seed, time_limit=time_limit, iterations=iterations))
    return bot.analyse(view)


def format_table(estimates: list[MoveEstimate]) -> str:
    """``MOVE WIN VISITS`` lines: the win probability is the mover's team's (draws half)."""
    lines = [f"{'move':<6} {'win':>6} {'visits':>8}"]
    lines += [f"{e.move!s:<6} {e.win_probability:>6.3f} {e.visits:>8d}" for e in estimates]
    return "\n".join(lines)


def format_json(estimates: list[MoveEstimate]) -> str:
    return json.dumps(
        [
            {"move": str(e.move), "win": round(e.win_probability, 4), "visits": e.visits}
            for e in estimates
        ]
    )
