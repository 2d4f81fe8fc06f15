"""A search for sealed simultaneous orders (WR-10, WR-11): regret matching over candidate
plans, every combination resolved by the engine's own reveal.

Planning is a simultaneous move with hidden information, so there is no best plan on its
own, only a plan good against what the others may plan. The search:

- fills in the others' money from the public log (``inference``) and builds the table
  (``table``); the deck is not needed, as the reveal never draws;
- makes candidate plans for every seat: the heuristic's plan and its variations
  (``heuristic.Style``: spending freely or thriftily, more troops per attack, no bribes, no
  defence, a bigger or no Calais bid), the empty plan, the others' Calais bids and the
  viewer's plans near the heuristic's (``variations``);
- values a combination of plans by resolving it with the engine's reveal
  (``resolve_reveal`` on a quiet copy) and judging each seat's position after Parliament:
  its VP, its money, and what this turn's Parliament would give it again in the turns left;
  a seat's utility is its lead over the best other seat, squashed (``tanh``) so that a
  winning lead counts more than a larger one;
- runs regret matching (RM+, linear averaging) for every seat at once: each iteration
  samples a plan per seat from the seats' current strategies, values each seat's every
  candidate against the others' sampled plans, and updates that seat's regrets. The
  average strategies approach an equilibrium of the candidates' game, so a fixed counter-
  plan gains nothing against the mixed plan the bot plays. The others are modelled by
  their candidates alone: a prior toward the heuristic's own plan did not play better;
- widens the candidates around the plans it favours, at set shares of its time and
  whenever the strategies stop meeting new combinations, so that more time searches more;
- plays a plan drawn from its own average strategy (its rarely chosen plans left out).

Playouts to the end (heuristic against heuristic) were the other way to value a
combination: a heuristic game takes about 50 ms, a reveal under half a millisecond, so
at 1 s a decision a playout valuation would see a few dozen combinations where the cheap
valuation sees thousands.

Draft picks look ahead (``draft``); French Aid is the heuristic's, a once-a-game choice of
money now against the turns left, which the heuristic already prices.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from roses.wotr.actions import Action, Orders
from roses.wotr.data import TURNS
from roses.wotr.phases.income import income_of
from roses.wotr.phases.planning import check_orders
from roses.wotr.reveal import resolve_reveal
from roses.wotr.state import VP_SOURCES, GameState, Phase
from roses.wotr.view import PlayerView

from .draft import draft_pick
from .heuristic import POUND_VP, HeuristicBot, Style
from .inference import inferred_money
from .table import seat_view, table_of
from .variations import calais_bids, nearby_plans

DEFAULT_SECONDS: Final = 1.0
TIME_SHARE: Final = 0.7  # of the time limit spent searching: the rest is for the answer
DRAFT_SHARE: Final = 0.5  # of the time limit, at most, for a pick (it needs much less)
RESERVE: Final = 0.03  # seconds more kept back, for quick decisions on a busy machine
# The heuristic's own way first: it is the plan played when time runs out before the search.
STYLES: Final = (
    Style(),
    Style(pound_vp=0.15),
    Style(pound_vp=0.6),
    Style(margin=1),
    Style(margin=1, pound_vp=0.15),
    Style(bribes=False),
    Style(defend=False),
    Style(calais=False),
    Style(calais_divisor=1.5),
)
RECURRING: Final = tuple(source for source in VP_SOURCES if source != "calais")
REPEAT: Final = 0.8  # how much of this turn's Parliament VP a seat counts on in each turn left
LEAD_SCALE: Final = 8.0  # VP: a lead this large is worth about 3/4 of a certain win
KEPT_SHARE: Final = 0.1  # plans the average strategy chooses less often are not played,
KEPT_OF_BEST: Final = 0.5  # nor those it chooses less than half as often as its favourite
CANDIDATE_SHARE: Final = 0.35  # of the search's time, at most, for making candidates
THEIR_BIDS: Final = (0, 2, 4, 7)  # the others' Calais bids weighed
WIDEN_AT: Final = (0.3, 0.55, 0.75)  # shares of the budget after which candidates are added
WIDEN_TOP: Final = 2  # around this many of a seat's favourite plans
SATURATED: Final = 200  # iterations without a new combination before widening again
MAIN_STYLE: Final = 0.6  # modelled others: how often a seat plans the heuristic's own way


@dataclass
class Matching:
    """One seat's regret matching (RM+) over its candidate plans."""

    size: int
    regrets: list[float] = field(init=False)
    totals: list[float] = field(init=False)  # the strategies played, weighted by iteration

    def __post_init__(self) -> None:
        self.regrets = [0.0] * self.size
        self.totals = [0.0] * self.size

    def strategy(self) -> list[float]:
        positive = sum(self.regrets)
        if positive <= 0:
            return [1.0 / self.size] * self.size
        return [regret / positive for regret in self.regrets]

    def update(self, values: Sequence[float], iteration: int) -> None:
        strategy = self.strategy()
        expected = sum(p * v for p, v in zip(strategy, values, strict=True))
        for k, value in enumerate(values):
            self.regrets[k] = max(0.0, self.regrets[k] + value - expected)
            self.totals[k] += iteration * strategy[k]

    def grow(self, size: int) -> None:
        """New candidates join with no regret and no history."""
        extra = size - self.size
        self.regrets += [0.0] * extra
        self.totals += [0.0] * extra
        self.size = size

    def average(self) -> list[float]:
        total = sum(self.totals)
        if total <= 0:
            return self.strategy()
        return [weight / total for weight in self.totals]


@dataclass(frozen=True)
class SearchReport:
    """What one planning search did, for benchmarks and tests."""

    candidates: tuple[int, ...]  # per seat
    iterations: int
    reveals: int
    average: tuple[float, ...]  # the viewer's average strategy over its candidates


def position_values(before: GameState, after: GameState) -> list[float]:
    """Each seat's prospects after a turn's Parliament: VP now, plus money and mercenaries
    at the heuristic's price, plus, for each turn left, most of what this Parliament gave
    (not Calais, which is won again only by bidding) and the income."""
    turns_left = TURNS - after.turn
    pound = POUND_VP if turns_left else 0.0
    unit = after.board.model.troops.cost
    values = []
    for seat, player in enumerate(after.players):
        earlier = before.players[seat].vp_by_source
        recurring = sum(player.vp_by_source[s] - earlier[s] for s in RECURRING)
        income = income_of(after, seat)
        money = player.money + player.mercenaries * unit
        values.append(player.vp + pound * money +
                      turns_left * (REPEAT * recurring + pound * income))  # fmt: skip
    return values


def utilities(values: Sequence[float]) -> tuple[float, ...]:
    """A seat's lead over the best other seat, squashed: winning matters, margins less."""
    found = []
    for seat, value in enumerate(values):
        best_other = max(v for other, v in enumerate(values) if other != seat)
        found.append(math.tanh((value - best_other) / LEAD_SCALE))
    return tuple(found)


class PlanSearch:
    """One planning decision: candidates for every seat, regret matching until the deadline."""

    def __init__(
        self,
        view: PlayerView,
        rng: random.Random,
        deadline: float,
        iterations: int | None = None,
        include: Orders | None = None,
        modelled: bool = False,
    ) -> None:
        assert view.viewer is not None and view.phase is Phase.PLANNING
        self.view, self.rng, self.deadline = view, rng, deadline
        # The others as the heuristic's styles would plan (a fixed mixture the viewer best
        # responds to) rather than as players who adapt to the viewer (an equilibrium).
        self.modelled = modelled
        self.styled = [0] * view.players  # each seat's first candidates: the styles' plans
        self.max_iterations = iterations
        self.include = include  # a plan the viewer's candidates must hold (a review's)
        self.me = view.viewer
        self.money = inferred_money(view)
        self.table = table_of(view, self.money)
        self.candidates: list[list[Orders]] = [[] for _ in range(view.players)]
        self.cache: dict[tuple[int, ...], tuple[float, ...]] = {}
        self.iterations = 0
        self.matchings: list[Matching] = []  # each seat's, once the search has run

    def out_of_time(self, deadline: float | None = None) -> bool:
        return time.perf_counter() >= (self.deadline if deadline is None else deadline)

    def add_candidate(self, seat: int, plan: Orders) -> None:
        player = self.table.players[seat]
        if plan in self.candidates[seat]:
            return
        if check_orders(self.table, seat, player.money, player.mercenaries, plan):
            return  # not legal for that seat (cannot happen for the viewer's own view)
        self.candidates[seat].append(plan)

    def make_candidates(self) -> None:
        """The heuristic's plans first (every seat's), then the variations, then the empty
        plan, checking the clock between them: a short search still has the main ones."""
        start = time.perf_counter()
        enough = start + CANDIDATE_SHARE * (self.deadline - start)
        views = [
            self.view if seat == self.me else seat_view(self.view, seat, self.money)
            for seat in range(self.view.players)
        ]
        for style in STYLES:
            for seat in [self.me, *(s for s in range(self.view.players) if s != self.me)]:
                if self.out_of_time(enough) and self.candidates[seat]:
                    continue
                planner = HeuristicBot(self.rng.randrange(2**32), style)
                self.add_candidate(seat, planner.plan(views[seat]))
        self.styled = [len(plans) for plans in self.candidates]
        if self.include is not None and self.include not in self.candidates[self.me]:
            # Valued like the search's own plans; not checked again: the engine accepted it.
            self.candidates[self.me].append(self.include)
        for seat in range(self.view.players):
            self.add_candidate(seat, Orders())
        # The others' Calais bids, against which the viewer's own bids are weighed...
        for seat in range(self.view.players):
            if seat != self.me and not self.out_of_time(enough):
                for plan in calais_bids(views[seat], self.candidates[seat][0], THEIR_BIDS):
                    self.add_candidate(seat, plan)
        # ...and the viewer's own plans near the heuristic's.
        for plan in nearby_plans(self.view, self.candidates[self.me][0]):
            if self.out_of_time(enough):
                break
            self.add_candidate(self.me, plan)

    def utilities_of(self, profile: tuple[int, ...]) -> tuple[float, ...]:
        found = self.cache.get(profile)
        if found is None:
            state = self.table.clone()
            for seat, index in enumerate(profile):
                state.orders[seat] = self.candidates[seat][index]
            resolve_reveal(state)
            found = self.cache[profile] = utilities(position_values(self.table, state))
        return found

    def progress(self, start: float) -> float:
        """The share of the search's budget (iterations, or else time) used since ``start``."""
        if self.max_iterations is not None:
            return self.iterations / max(1, self.max_iterations)
        return (time.perf_counter() - start) / max(1e-9, self.deadline - start)

    def widen(self, matchings: list[Matching], everyone: bool) -> None:
        """New candidates near the plans the search likes best so far: the viewer's, and
        the others' too in a 2-player game or when ``everyone`` (with more seats each
        iteration costs more). They join with no regret, tried from the next iteration."""
        everyone = (everyone or self.view.players == 2) and not self.modelled
        for seat in range(self.view.players) if everyone else [self.me]:
            average = matchings[seat].average()
            best = sorted(range(len(average)), key=average.__getitem__, reverse=True)
            view = self.view if seat == self.me else seat_view(self.view, seat, self.money)
            for index in best[:WIDEN_TOP]:
                for plan in nearby_plans(view, self.candidates[seat][index]):
                    self.add_candidate(seat, plan)
            matchings[seat].grow(len(self.candidates[seat]))

    def run(self) -> SearchReport:
        self.make_candidates()
        seats = range(self.view.players)
        matchings = self.matchings = [Matching(len(self.candidates[seat])) for seat in seats]
        start = time.perf_counter()
        widenings = list(WIDEN_AT)
        grew_at, known = 0, 0  # the last iteration that resolved a new combination
        while not self.out_of_time() and self.iterations != self.max_iterations:
            if widenings and self.progress(start) >= widenings[0]:
                widenings.pop(0)
                self.widen(matchings, everyone=False)
            if len(self.cache) > known:
                grew_at, known = self.iterations, len(self.cache)
            elif self.iterations - grew_at >= SATURATED:
                # Every combination the strategies play is known: time to look wider.
                self.widen(matchings, everyone=True)
                grew_at = self.iterations
            self.iterations += 1
            profile = [
                self._sample_model(seat) if self.modelled and seat != self.me
                else self._sample(matching)
                for seat, matching in enumerate(matchings)
            ]  # fmt: skip
            for seat in seats:
                if self.modelled and seat != self.me:
                    continue  # a model does not learn
                values = []
                for index in range(matchings[seat].size):
                    if self.out_of_time():
                        break
                    changed = (*profile[:seat], index, *profile[seat + 1 :])
                    values.append(self.utilities_of(changed)[seat])
                if len(values) < matchings[seat].size:
                    break  # cut short by the clock: this seat and the rest learn nothing
                matchings[seat].update(values, self.iterations)
        return SearchReport(
            candidates=tuple(len(c) for c in self.candidates),
            iterations=self.iterations,
            reveals=len(self.cache),
            average=tuple(matchings[self.me].average()),
        )

    def choose(self, report: SearchReport) -> Orders:
        """A plan drawn from the viewer's average strategy, rare ones left out (a short
        search's average is mostly noise); the heuristic's plan if there was no time."""
        if report.iterations == 0:  # not one full iteration
            return self.candidates[self.me][0]
        if self.modelled:  # the best response to the model: nothing to hide from it
            average = report.average
            return self.candidates[self.me][max(range(len(average)), key=average.__getitem__)]
        kept = max(KEPT_SHARE, KEPT_OF_BEST * max(report.average))
        weights = [p if p >= kept else 0.0 for p in report.average]
        if sum(weights) <= 0:
            return self.candidates[self.me][0]
        return self.rng.choices(self.candidates[self.me], weights=weights)[0]

    def _sample(self, matching: Matching) -> int:
        return self.rng.choices(range(matching.size), weights=matching.strategy())[0]

    def _sample_model(self, seat: int) -> int:
        """A modelled seat's plan: the heuristic's own most often, else another style's."""
        styled = max(1, self.styled[seat])
        if styled == 1 or self.rng.random() < MAIN_STYLE:
            return 0
        return self.rng.randrange(1, styled)


class SearchBot:
    """Plans by ``PlanSearch`` for ``time_limit`` seconds a decision or, for reproducible
    tests and benchmarks, ``iterations`` iterations whatever the time."""

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        time_limit: float | None = None,
        iterations: int | None = None,
        modelled: bool = False,
    ) -> None:
        self.rng = random.Random(seed)
        self.time_limit = DEFAULT_SECONDS if time_limit is None else time_limit
        self.iterations = iterations
        self.modelled = modelled
        self.heuristic = HeuristicBot(self.rng.randrange(2**32))
        self.last_report: SearchReport | None = None

    def act(self, view: PlayerView) -> Action:
        if view.phase is Phase.DRAW and len(set(view.layout)) > 1:
            deadline = time.perf_counter() + self.time_limit * DRAFT_SHARE
            return draft_pick(view, self.rng, deadline)
        if view.phase is not Phase.PLANNING:
            return self.heuristic.act(view)  # French Aid (WR-9)
        # A margin for building the table and answering: the limit is for the whole answer,
        # and a worker process on a busy machine may wait a while for a core.
        searching = max(self.time_limit * TIME_SHARE - RESERVE, self.time_limit / 2)
        deadline = time.perf_counter() + searching
        if self.iterations is not None:
            deadline = math.inf
        search = PlanSearch(view, self.rng, deadline, self.iterations, modelled=self.modelled)
        report = self.last_report = search.run()
        return search.choose(report)
