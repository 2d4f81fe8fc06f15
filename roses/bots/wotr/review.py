"""A turn review: one seat's plan for one turn set beside the search's, both valued by the
same search from that seat's view then (WR-20), for people after the game.

The plan made joins the search's candidates, so regret matching weighs it like the search's
own plans; the search's plan is the one its average strategy plays most often. Each is then
valued against the others' plans drawn from their average strategies, every combination
resolved by the engine's reveal (WR-11..WR-15) on the search's table: the VP the seat holds
after this turn's Parliament, and the search's estimate of its prospects by the end
(``position_values``: VP now, money, and what this Parliament would give again).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any, Final

from roses.wotr.actions import Orders
from roses.wotr.reveal import resolve_reveal
from roses.wotr.state import SEAT_NAMES
from roses.wotr.view import PlayerView

from .search import PlanSearch, position_values

SAMPLES: Final = 48  # the others' plans drawn to value the two plans, at most...
FEWEST: Final = 8  # ...and at least, whatever the clock
SEARCH_SHARE: Final = 0.5  # of the time for the search; valuing ends by ANSWER_SHARE of it,
ANSWER_SHARE: Final = 0.85  # the rest is for the answer (the worker's hard limit is near)


@dataclass(frozen=True)
class Valued:
    """A plan and what the search expected from it, against the others' likely plans."""

    orders: Orders
    vp: float  # the seat's VP after this turn's Parliament, on average
    prospects: float  # the search's VP estimate for the end of the game
    share: float  # how often the search's average strategy plays it

    def to_json(self) -> dict[str, Any]:
        return {
            "orders": self.orders.to_json()["orders"],
            "vp": round(self.vp, 2),
            "prospects": round(self.prospects, 2),
            "share": round(self.share, 3),
        }


@dataclass(frozen=True)
class PlanReview:
    turn: int
    seat: int
    vp_before: int
    made: Valued
    search: Valued
    iterations: int
    candidates: int  # the seat's plans the search weighed

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "seat": SEAT_NAMES[self.seat],
            "vp_before": self.vp_before,
            "made": self.made.to_json(),
            "search": self.search.to_json(),
            "same": self.made.orders == self.search.orders,
            "iterations": self.iterations,
            "candidates": self.candidates,
        }


def review_plan(
    view: PlayerView,
    made: Orders,
    seed: int,
    seconds: float | None = None,
    iterations: int | None = None,
) -> PlanReview:
    """``made``, planned from ``view`` (the seat's own, in Planning), beside the search's
    plan: a search of ``iterations`` iterations (reproducible), or of about ``seconds``."""
    assert view.viewer is not None
    rng = random.Random(seed)
    start = time.perf_counter()
    budget = 1.0 if seconds is None else seconds
    timed = iterations is None
    deadline = start + budget * SEARCH_SHARE if timed else math.inf
    search = PlanSearch(view, rng, deadline, iterations, include=made)
    report = search.run()
    me = view.viewer
    mine = search.candidates[me]
    average = report.average
    best = max(range(len(mine)), key=lambda index: (average[index], -index))
    made_index = mine.index(made)
    valuing_ends = start + budget * ANSWER_SHARE if timed else math.inf
    indexes = [made_index] if best == made_index else [made_index, best]
    values = _valued(search, indexes, rng, valuing_ends)  # the same plan valued once
    made_value, search_value = values[0], values[-1]
    return PlanReview(
        turn=view.turn,
        seat=me,
        vp_before=view.vp[me],
        made=Valued(made, *made_value, share=average[made_index]),
        search=Valued(mine[best], *search_value, share=average[best]),
        iterations=report.iterations,
        candidates=len(mine),
    )


def _valued(
    search: PlanSearch, plans: list[int], rng: random.Random, deadline: float
) -> list[tuple[float, float]]:
    """Each of the viewer's ``plans`` (candidate indexes) valued against the same profiles
    of the others' plans, drawn from their average strategies: the mean VP after the turn
    and the mean prospects."""
    me = search.me
    averages = [matching.average() for matching in search.matchings]
    totals = [[0.0, 0.0] for _ in plans]
    drawn = 0
    while drawn < SAMPLES and (drawn < FEWEST or time.perf_counter() < deadline):
        drawn += 1
        others = [
            rng.choices(range(len(weights)), weights=weights)[0] if seat != me else 0
            for seat, weights in enumerate(averages)
        ]
        for total, index in zip(totals, plans, strict=True):
            state = search.table.clone()
            for seat, chosen in enumerate(others):
                state.orders[seat] = search.candidates[seat][index if seat == me else chosen]
            resolve_reveal(state)
            total[0] += state.players[me].vp
            total[1] += position_values(search.table, state)[me]
    return [(vp / drawn, prospects / drawn) for vp, prospects in totals]
