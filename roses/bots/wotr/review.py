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

from .search import TIME_SHARE, PlanSearch, position_values

SAMPLES: Final = 48  # the others' plans drawn to value each of the two plans
VALUING_SHARE: Final = 0.25  # of the time, about, left for valuing after the search


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
    deadline = math.inf if iterations is not None else start + budget * (TIME_SHARE - VALUING_SHARE)
    search = PlanSearch(view, rng, deadline, iterations, include=made)
    report = search.run()
    me = view.viewer
    mine = search.candidates[me]
    average = report.average
    best = max(range(len(mine)), key=lambda index: (average[index], -index))
    others = _sampled_others(search, rng)
    made_index = mine.index(made)
    return PlanReview(
        turn=view.turn,
        seat=me,
        vp_before=view.vp[me],
        made=_valued(search, made_index, others, average[made_index]),
        search=_valued(search, best, others, average[best]),
        iterations=report.iterations,
        candidates=len(mine),
    )


def _sampled_others(search: PlanSearch, rng: random.Random) -> list[list[int]]:
    """Profiles of candidate indexes (the viewer's entry unused), the others' drawn from
    their average strategies."""
    profiles = []
    for _ in range(SAMPLES):
        profile = []
        for seat, matching in enumerate(search.matchings):
            if seat == search.me:
                profile.append(0)
            else:
                weights = matching.average()
                profile.append(rng.choices(range(len(weights)), weights=weights)[0])
        profiles.append(profile)
    return profiles


def _valued(search: PlanSearch, index: int, others: list[list[int]], share: float) -> Valued:
    me = search.me
    vp = prospects = 0.0
    for profile in others:
        state = search.table.clone()
        for seat, chosen in enumerate(profile):
            plans = search.candidates[seat]
            state.orders[seat] = plans[index] if seat == me else plans[chosen]
        resolve_reveal(state)
        vp += state.players[me].vp
        prospects += position_values(search.table, state)[me]
    return Valued(search.candidates[me][index], vp / len(others), prospects / len(others), share)
