"""Bot-against-bot matches: paired deals with seats swapped, and their statistics.

Game ``2k`` and game ``2k+1`` use the same deal with the bots' seats swapped, which takes
the luck of the deal out of the comparison. Every game depends only on the match seed and
its index, so a match gives the same games however many processes play it.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from roses.roseking import Board, Variant
from roses.roseking.record import record_of

from ..matches import games_as_they_finish, wilson_interval
from .base import Bot, make_bot


@dataclass(frozen=True)
class MatchConfig:
    bot_a: str
    bot_b: str
    games: int
    seed: int = 0
    time_limit: float | None = None
    iterations: int | None = None
    variant: Variant = Variant.CLASSIC
    keep_records: bool = False
    # bot B's own budget, for time-odds matches; None: the same as bot A's
    time_limit_b: float | None = None
    iterations_b: int | None = None

    def budget(self, bot: str) -> tuple[float | None, int | None]:
        """(seconds, iterations) per move for bot ``"a"`` or ``"b"``."""
        if bot == "b" and (self.time_limit_b is not None or self.iterations_b is not None):
            return self.time_limit_b, self.iterations_b
        return self.time_limit, self.iterations

    def describe_budget(self) -> str:
        def text(seconds: float | None, iterations: int | None) -> str:
            if seconds is not None:
                return f"{seconds:g} s/move"
            return "default budget" if iterations is None else f"{iterations} iterations/move"

        a, b = text(*self.budget("a")), text(*self.budget("b"))
        return a if a == b else f"{a} vs {b}"


@dataclass(frozen=True)
class GameResult:
    index: int
    a_team: int  # the team bot A played: 0 red, 1 white
    points_a: float  # 1 win, 0.5 draw, 0 loss
    record: dict[str, Any] | None


@dataclass(frozen=True)
class MatchStats:
    games: int
    wins: int
    draws: int
    losses: int
    score: float  # bot A's points per game
    low: float  # Wilson 95% interval of the score
    high: float
    elo: float  # bot A minus bot B
    elo_low: float
    elo_high: float


def game_seed(seed: int, index: int) -> int:
    """The deal of game ``index``: shared by each pair of games (seats swapped)."""
    return seed * 1_000_003 + index // 2


def play_game(config: MatchConfig, index: int) -> GameResult:
    """Game ``index`` of the match: bot A plays Red in even games, White in odd ones."""
    board = Board(config.variant, seed=game_seed(config.seed, index))
    a_team = index % 2
    bots: list[Bot] = []
    names = []
    for seat in range(board.seats):
        is_a = seat & 1 == a_team
        name = config.bot_a if is_a else config.bot_b
        time_limit, iterations = config.budget("a" if is_a else "b")
        names.append(name)
        bots.append(
            make_bot(
                name,
                seed=(config.seed * 7919 + index) * 8 + seat,
                time_limit=time_limit,
                iterations=iterations,
            )
        )
    while moves := board.legal_moves():
        seat = board.turn
        move = moves[0] if len(moves) == 1 else bots[seat].choose(board.view(seat))
        board.push(move)
    outcome = board.outcome()
    assert outcome is not None
    points = 0.5 if outcome.winner is None else float(int(outcome.winner) == a_team)
    record = record_of(board, names) if config.keep_records else None
    return GameResult(index, a_team, points, record)


def play_match(
    config: MatchConfig, jobs: int = 1, skip: Collection[int] = ()
) -> Iterator[GameResult]:
    """The match's games as they finish (in any order when ``jobs`` > 1); the games whose
    indices are in ``skip`` (played before, when a match is resumed) are left out."""
    return games_as_they_finish(play_game, config, config.games, jobs, skip)


def elo_difference(score: float) -> float:
    """The Elo difference that predicts ``score`` (infinite at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def match_stats(points: Sequence[float]) -> MatchStats:
    games = len(points)
    wins = sum(1 for p in points if p == 1.0)
    draws = sum(1 for p in points if p == 0.5)
    total = wins + 0.5 * draws
    score = total / games if games else 0.5
    low, high = wilson_interval(total, games)
    return MatchStats(
        games=games,
        wins=wins,
        draws=draws,
        losses=games - wins - draws,
        score=score,
        low=low,
        high=high,
        elo=elo_difference(score),
        elo_low=elo_difference(low),
        elo_high=elo_difference(high),
    )


def cumulative_scores(points: Sequence[float]) -> list[float]:
    """Bot A's score after each game: the curve ``--plot`` draws."""
    total, curve = 0.0, []
    for count, value in enumerate(points, start=1):
        total += value
        curve.append(total / count)
    return curve


def format_elo(value: float) -> str:
    """``+190``, ``-35``, ``+0`` (never ``-0``), ``+inf`` or ``-inf``."""
    if not math.isfinite(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value):+d}"


def format_stats(config: MatchConfig, stats: MatchStats) -> str:
    """The summary lines a match prints."""
    return "\n".join(
        [
            f"{config.bot_a} vs {config.bot_b}: {stats.games} games ({config.variant.value}, "
            f"{config.describe_budget()})",
            f"wins {stats.wins}  draws {stats.draws}  losses {stats.losses}",
            f"win rate {stats.score:.3f}  95% CI [{stats.low:.3f}, {stats.high:.3f}]",
            f"Elo difference {format_elo(stats.elo)}  95% CI [{format_elo(stats.elo_low)}, "
            f"{format_elo(stats.elo_high)}]",
        ]
    )
