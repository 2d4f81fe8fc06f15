"""Bot-against-bot matches: bot A in one seat, bot B in all the others, A's seat rotating.

Game ``index`` plays the deal ``index // players`` with bot A in seat ``index % players``:
each deal is played once from every seat, which takes the luck of the deal and of the seat
out of the comparison. Every game depends only on the match seed and its index, so a match
gives the same games however many processes play it, and a log of finished games lets a
match resume where it stopped.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from roses.wotr.actions import Action
from roses.wotr.view import PlayerView

from ..matches import games_as_they_finish, wilson_interval
from .base import WotrBot, make_wotr_bot
from .match import bot_game


@dataclass(frozen=True)
class WotrMatchConfig:
    bot_a: str
    bot_b: str
    players: int
    games: int
    seed: int = 0
    time_limit: float | None = None  # seconds per decision, for both sides...
    time_limit_b: float | None = None  # ...unless bot B has its own (time-odds matches)

    def budget(self, side: str) -> float | None:
        """Seconds per decision of bot ``"a"`` or ``"b"``."""
        if side == "b" and self.time_limit_b is not None:
            return self.time_limit_b
        return self.time_limit

    def describe_budget(self) -> str:
        def text(seconds: float | None) -> str:
            return "no time limit" if seconds is None else f"{seconds:g} s/decision"

        a, b = text(self.budget("a")), text(self.budget("b"))
        return a if a == b else f"{a} vs {b}"

    def same_match(self, other: WotrMatchConfig) -> bool:
        """Whether ``other`` plays the same games (perhaps fewer or more of them)."""
        return asdict(self) | {"games": 0} == asdict(other) | {"games": 0}


@dataclass(frozen=True)
class WotrGameResult:
    index: int
    a_seat: int
    points_a: float  # 1 for a win, 1/k when k seats share the win, 0 for a loss
    vp: tuple[int, ...]
    decisions: tuple[int, int]  # bot A's, bot B's (all B seats together)
    seconds: tuple[float, float]  # thinking time, summed
    slowest: tuple[float, float]  # the longest single decision

    def to_json(self) -> dict[str, Any]:
        return {"game": self.index, "a_seat": self.a_seat, "points_a": self.points_a,
                "vp": list(self.vp), "decisions": list(self.decisions),
                "seconds": list(self.seconds), "slowest": list(self.slowest)}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WotrGameResult:
        return cls(data["game"], data["a_seat"], data["points_a"], tuple(data["vp"]),
                   tuple(data["decisions"]), tuple(data["seconds"]),
                   tuple(data["slowest"]))  # fmt: skip


class Timed:
    """A bot whose decisions are counted and timed."""

    def __init__(self, bot: WotrBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.decisions = 0
        self.seconds = 0.0
        self.slowest = 0.0

    def act(self, view: PlayerView) -> Action:
        start = time.perf_counter()
        action = self.bot.act(view)
        spent = time.perf_counter() - start
        self.decisions += 1
        self.seconds += spent
        self.slowest = max(self.slowest, spent)
        return action


def game_seed(seed: int, index: int, players: int) -> int:
    """The deal of game ``index``: shared by the ``players`` games that rotate bot A."""
    return seed * 1_000_003 + index // players


def play_game(config: WotrMatchConfig, index: int) -> WotrGameResult:
    a_seat = index % config.players
    bots = [
        Timed(make_wotr_bot(config.bot_a if seat == a_seat else config.bot_b,
                            seed=(config.seed * 7919 + index) * 8 + seat,
                            time_limit=config.budget("a" if seat == a_seat else "b")))
        for seat in range(config.players)
    ]  # fmt: skip
    game = bot_game(bots, seed=game_seed(config.seed, index, config.players))
    outcome = game.outcome()
    assert outcome is not None
    points = 1 / len(outcome.winners) if a_seat in outcome.winners else 0.0
    others = [bot for seat, bot in enumerate(bots) if seat != a_seat]
    a = bots[a_seat]
    return WotrGameResult(
        index=index,
        a_seat=a_seat,
        points_a=points,
        vp=outcome.vp,
        decisions=(a.decisions, sum(b.decisions for b in others)),
        seconds=(a.seconds, sum(b.seconds for b in others)),
        slowest=(a.slowest, max(b.slowest for b in others)),
    )


def play_match(
    config: WotrMatchConfig, jobs: int = 1, skip: Collection[int] = ()
) -> Iterator[WotrGameResult]:
    """The match's games as they finish (in any order when ``jobs`` > 1), but those in
    ``skip`` (played before, when a match resumes)."""
    return games_as_they_finish(play_game, config, config.games, jobs, skip)


class MatchLogError(ValueError):
    """A match log that belongs to another match or cannot be read."""


def read_log(path: Path, config: WotrMatchConfig) -> dict[int, WotrGameResult]:
    """The games of this match already in the log at ``path`` (none if it does not exist).
    Its first line is the match it belongs to; each further line is one finished game."""
    if not path.exists():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        header = WotrMatchConfig(**json.loads(lines[0])["match"]) if lines else None
        games = [WotrGameResult.from_json(json.loads(line)) for line in lines[1:] if line]
    except (ValueError, KeyError, TypeError) as error:
        raise MatchLogError(f"{path} is not a match log ({error})") from None
    if header is None:
        return {}
    if not header.same_match(config):
        raise MatchLogError(f"{path} holds another match: {json.dumps(asdict(header))}")
    return {game.index: game for game in games}


def log_game(path: Path, config: WotrMatchConfig, result: WotrGameResult) -> None:
    """Append one finished game (and the header, to a new log) and flush it to disk."""
    new = not path.exists() or path.stat().st_size == 0
    with path.open("a", encoding="utf-8") as log:
        if new:
            log.write(json.dumps({"match": asdict(config)}) + "\n")
        log.write(json.dumps(result.to_json()) + "\n")


@dataclass(frozen=True)
class WotrMatchStats:
    games: int
    points: float  # bot A's wins, shared wins counted in part
    share: float  # bot A's points per game
    low: float  # the Wilson 95% interval of the share
    high: float
    fair: float  # the share of an even match: 1 / players
    seconds_per_decision: tuple[float, float]  # bot A's, bot B's
    slowest: tuple[float, float]


def match_stats(config: WotrMatchConfig, results: Sequence[WotrGameResult]) -> WotrMatchStats:
    games = len(results)
    points = sum(r.points_a for r in results)
    low, high = wilson_interval(points, games)

    def per_decision(side: int) -> float:
        decisions = sum(r.decisions[side] for r in results)
        return sum(r.seconds[side] for r in results) / decisions if decisions else 0.0

    return WotrMatchStats(
        games=games,
        points=points,
        share=points / games if games else 0.0,
        low=low,
        high=high,
        fair=1 / config.players,
        seconds_per_decision=(per_decision(0), per_decision(1)),
        slowest=(max((r.slowest[0] for r in results), default=0.0),
                 max((r.slowest[1] for r in results), default=0.0)),
    )  # fmt: skip


def format_stats(config: WotrMatchConfig, stats: WotrMatchStats) -> str:
    budget = config.describe_budget()
    seats = f"1 seat against {config.players - 1}"
    return "\n".join(
        [
            f"{config.bot_a} vs {config.bot_b}: {stats.games} games, {config.players} players "
            f"({seats}, {budget}, seed {config.seed})",
            f"wins {stats.points:g} of {stats.games}",
            f"win share {stats.share:.3f}  95% CI [{stats.low:.3f}, {stats.high:.3f}]  "
            f"(fair share {stats.fair:.3f})",
            f"seconds per decision: {config.bot_a} {stats.seconds_per_decision[0]:.4f} "
            f"(slowest {stats.slowest[0]:.3f}), {config.bot_b} "
            f"{stats.seconds_per_decision[1]:.4f} (slowest {stats.slowest[1]:.3f})",
        ]
    )
