"""The turn review (``roses.bots.wotr.review`` through ``Wotr.analysis_inputs``): one entry
per revealed turn and seat (WR-10, WR-11), the plan made as sealed last, searched from that
seat's own view (WR-20), and both plans valued by one search."""

from __future__ import annotations

import json
import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from roses.bots.wotr import make_wotr_bot
from roses.bots.wotr.match import bot_game
from roses.bots.wotr.review import review_plan
from roses.bots.wotr.search import PlanSearch
from roses.games.wotr import WOTR
from roses.wotr import Game, Orders, Phase
from roses.wotr.actions import Unseal
from roses.wotr.data import TURNS

from .helpers import NO_SHRINK


def heuristic_game(players: int, seed: int) -> Game:
    return bot_game([make_wotr_bot("heuristic", seed=seed + s) for s in range(players)], seed=seed)


def until_planning(game: Game, turn: int, seed: int = 0) -> Game:
    bots = [make_wotr_bot("heuristic", seed=seed + s) for s in range(game.players)]
    while not (game.phase is Phase.PLANNING and game.turn == turn):
        seat = game.awaiting()[0]
        game.apply(seat, bots[seat].act(game.view(seat)))
    return game


def sealed_plans(game: Game) -> list[tuple[int, int, Orders]]:
    """(turn, seat, plan) of the history's plans, each seat's last of its turn."""
    replayed = Game(game.players, board=game.board, setup=game.setup)
    plans: dict[tuple[int, int], Orders] = {}
    for seat, action in game.history:
        if isinstance(action, Orders):
            plans[(replayed.turn, seat)] = action
        replayed.apply(seat, action)
    return [(turn, seat, plan) for (turn, seat), plan in sorted(plans.items())]


def test_a_seeded_bot_game_has_one_review_input_per_turn_and_seat() -> None:
    game = heuristic_game(3, seed=11)
    assert game.is_over()
    inputs = WOTR.analysis_inputs(game)
    assert [number for number, _, _ in inputs] == list(range(TURNS * 3))
    assert [(view.turn, view.viewer) for _, view, _ in inputs] == [
        (turn, seat) for turn in range(1, TURNS + 1) for seat in range(3)
    ]
    assert [(v.turn, v.viewer, made) for _, v, made in inputs] == sealed_plans(game)
    for _, view, _ in inputs:  # WR-20: the seat's own view, screens up
        assert view.phase is Phase.PLANNING and view.my_orders is None
        assert [m is None for m in view.money] == [s != view.viewer for s in range(3)]


@settings(max_examples=6, deadline=None, phases=NO_SHRINK)
@given(players=st.sampled_from((2, 3, 4)), seed=st.integers(0, 10_000))
def test_the_plans_made_are_the_plans_revealed(players: int, seed: int) -> None:
    """Whatever the game, the review's plans are those of the history's revealed turns, and
    a turn still being planned has none: its sealed plans are not public (WR-10)."""
    game = Game(players, seed=seed)
    bots = [make_wotr_bot("random", seed=seed + s) for s in range(players)]
    stop = random.Random(seed).randint(1, TURNS)
    until = None
    while not game.is_over():
        if game.phase is Phase.PLANNING and game.turn == stop and len(game.state.orders) == 1:
            until = game.turn
            break
        seat = game.awaiting()[0]
        game.apply(seat, bots[seat].act(game.view(seat)))
    inputs = WOTR.analysis_inputs(game)
    expected = [p for p in sealed_plans(game) if until is None or p[0] < until]
    assert [(v.turn, v.viewer, made) for _, v, made in inputs] == expected
    assert len(inputs) == players * (TURNS if until is None else until - 1)


def test_a_plan_taken_back_is_not_the_plan_made() -> None:
    """WR-10: a seat seals, takes it back and seals again; the review holds the last plan,
    searched from the view it had when sealing it."""
    game = until_planning(Game(2, seed=3), turn=1)
    first, second = game.awaiting()
    game.apply(first, Orders(calais_bid=1, calais_zone="MI"))
    game.apply(first, Unseal())
    game.apply(first, Orders())
    game.apply(second, Orders())
    inputs = WOTR.analysis_inputs(game)
    made = {view.viewer: (view, plan) for _, view, plan in inputs}
    assert made[first][1] == Orders() and made[second][1] == Orders()
    assert made[first][0].my_orders is None and made[first][0].sealed == ()


def test_a_seats_input_does_not_depend_on_the_plans_sealed_before_it() -> None:
    """WR-20: the last to seal is searched from its own view, which the others' sealed plans
    do not change; so neither does its review."""
    shown = []
    for plan in (Orders(), Orders(calais_bid=2, calais_zone="SE")):
        game = until_planning(Game(2, seed=5), turn=1)
        first, second = game.awaiting()
        game.apply(first, plan)
        game.apply(second, Orders())
        ((_, view, _),) = [i for i in WOTR.analysis_inputs(game) if i[1].viewer == second]
        shown.append(json.dumps(view.to_json(), sort_keys=True))
    assert shown[0] == shown[1]


def test_the_values_come_from_the_search_and_repeat() -> None:
    """The made plan joins the search's candidates; the search's plan is its favourite
    (the average strategy's largest share); the same seed and iterations give the same
    review; VP only grow in a turn."""
    game = heuristic_game(3, seed=2)
    number, view, made = WOTR.analysis_inputs(game)[4]
    review = review_plan(view, made, seed=number, iterations=15)
    assert review == review_plan(view, made, seed=number, iterations=15)
    assert review.turn == view.turn and review.seat == view.viewer and review.iterations == 15

    search = PlanSearch(view, random.Random(number), math.inf, 15, include=made)
    report = search.run()
    mine = search.candidates[view.viewer]
    assert made in mine and review.candidates == len(mine)
    assert review.made.share == report.average[mine.index(made)]
    assert review.search.share == max(report.average)
    assert review.search.orders == mine[report.average.index(max(report.average))]
    for valued in (review.made, review.search):
        assert valued.vp >= review.vp_before == view.vp[view.viewer]
        assert valued.prospects >= valued.vp - 1e-9  # money and turns left add, never take
    as_json = review.to_json()
    assert as_json["made"]["orders"] == made.to_json()["orders"]
    assert as_json["same"] is (made == review.search.orders)


def test_the_same_plan_gets_the_same_values() -> None:
    """When the seat played the search's own favourite, both columns are one valuation."""
    game = heuristic_game(2, seed=8)
    for number, view, made in WOTR.analysis_inputs(game)[:4]:
        review = review_plan(view, made, seed=number, iterations=10)
        if review.made.orders == review.search.orders:
            assert review.made == review.search
            return
    # The heuristic's plan is the search's first candidate: force the case.
    number, view, _ = WOTR.analysis_inputs(game)[0]
    favourite = review_plan(view, Orders(), seed=number, iterations=10).search.orders
    review = review_plan(view, favourite, seed=number, iterations=10)
    assert review.made == review.search and review.to_json()["same"] is True
