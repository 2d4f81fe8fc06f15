"""What a player may see (WR-20): no other player's money or sealed orders, never the
deck's order."""

from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from roses.bots.wotr import make_wotr_bot
from roses.wotr.actions import Orders
from roses.wotr.game import Game
from roses.wotr.phases.deployment import deploy
from roses.wotr.state import SEAT_NAMES, Phase

from .helpers import BLUE, GREEN, NO_SHRINK, RED, YELLOW, game_at, give, planning_game


def test_money_is_behind_each_screen_during_planning() -> None:
    """WR-20: while planning a player sees their own money only; a spectator sees none."""
    game = planning_game()
    view = game.view(GREEN)
    assert view.money[GREEN] == game.state.players[GREEN].money
    assert [m for seat, m in enumerate(view.money) if seat != GREEN] == [None] * 3
    assert game.view(None).money == (None,) * 4


def test_sealed_orders_are_hidden_until_the_reveal() -> None:
    """WR-10, WR-20: others see that a plan is sealed, not what it says; after the reveal
    every plan of the turn is public."""
    game = planning_game()
    plan = Orders(calais_bid=1, calais_zone="SE")
    game.state.players[RED].money = max(1, game.state.players[RED].money)
    game.apply(RED, plan)
    for seat in (YELLOW, GREEN, BLUE):
        data = game.view(seat).to_json()
        assert data["sealed"] == ["Red"]
        assert data["my_orders"] is None and data["revealed"] == {}
        assert not any("Calais" in line for line in data["log"])
    assert game.view(RED).my_orders == plan
    for seat in (YELLOW, GREEN, BLUE):
        game.apply(seat, Orders())
    view = game.view(YELLOW)
    assert view.turn == 2 and view.revealed[RED] == plan
    assert "Red bids 1 for Calais." in [event.text for event in view.log]


def test_the_deck_order_is_never_shown() -> None:
    game = planning_game()
    view = game.view(RED)
    data = view.to_json()
    assert data["deck_size"] == len(game.state.deck)
    hidden = set(game.state.deck)
    assert "deck" not in data
    assert not hidden & set(data["layout"])
    assert not any(hasattr(view, name) for name in ("deck", "setup", "history"))


def test_the_view_checks_orders_as_the_game_will() -> None:
    game = planning_game()
    view = game.view(BLUE)
    bad = Orders(troops={"nowhere": 1})
    assert [str(f) for f in view.check(bad)] == [
        "troops.nowhere: is not a Location (troops go on castles, towns and ports)"
    ]
    assert view.check(Orders()) == []
    assert view.cost(Orders(troops={"london": 2})) == 6


def test_money_is_public_outside_planning() -> None:
    """WR-20: the screens are put aside after the reveal until the next Planning, so in the
    draft, at income and at the end everyone, spectators too, sees every purse."""
    game = Game(4, seed=11)
    assert game.phase is Phase.DRAW
    purses = tuple(player.money for player in game.state.players)
    for viewer in (RED, YELLOW, None):
        assert game.view(viewer).money == purses
    game = planning_game()
    for seat in game.awaiting():
        game.apply(seat, Orders())
    assert game.phase is not Phase.PLANNING
    assert game.view(None).money == tuple(player.money for player in game.state.players)


def test_the_preview_shows_cost_money_left_and_what_a_shortfall_cancels() -> None:
    """WR-11: cost, money left, and the cancelled parts in paying order: white cubes,
    black cubes, troops by chart order and votes; troops bought one at a time."""
    game = game_at(money=16)
    state = game.state
    give(state, RED, "stafford", "windsor", "winchester")
    give(state, YELLOW, "percy", "herbert")
    orders = Orders(bribes={"stafford": "white", "herbert": "black", "percy": "black"},
                    troops={"winchester": 1, "windsor": 1})  # fmt: skip
    preview = game.view(RED).preview(orders)
    assert (preview.cost, preview.money, preview.left) == (6 + 18 + 8 + 3 + 3, 16, 2)
    assert [c.text for c in preview.paid] == ["the white cube on Stafford",
                                              "the black cube on Herbert"]  # fmt: skip
    assert [c.text for c in preview.cancelled] == [
        "the black cube on Percy", "1 troop on Windsor", "1 troop on Winchester"
    ]  # fmt: skip
    data = json.loads(json.dumps(preview.to_json()))
    assert data["short"] == 38 - 16 and data["faults"] == []
    assert data["cancelled"][1] == {
        "kind": "troops", "card": "windsor", "name": "Windsor", "count": 1, "cost": 3,
        "phrase": {"template": "{n} troop on {place}", "plural": "{n} troops on {place}",
                   "params": {"n": 1, "place": "Windsor"}},
    }  # fmt: skip
    # Deployment cancels exactly what the preview said.
    state.orders = {seat: Orders() for seat in range(4)}
    state.orders[RED] = orders
    deploy(state)
    assert state.log[-1].text == ("Red is short of money; cancelled: the black cube on Percy, "
                                  "1 troop on Windsor, 1 troop on Winchester.")  # fmt: skip
    assert state.players[RED].money == preview.left


def test_the_preview_names_faults_and_buys_troops_one_at_a_time() -> None:
    game = game_at(money=7)
    give(game.state, RED, "windsor")
    preview = game.view(RED).preview(Orders(troops={"windsor": 3, "london": 1}))
    assert [c.text for c in preview.paid] == ["2 troops on Windsor"]
    assert [c.text for c in preview.cancelled] == ["1 troop on Windsor", "1 troop on London"]
    assert [(f.field, f.message) for f in preview.faults] == [
        ("troops.london", "is neutral and cannot be attacked (WR-10)")
    ]


@settings(max_examples=20, deadline=None, derandomize=True, phases=NO_SHRINK)
@given(seed=st.integers(0, 2**16), players=st.sampled_from([2, 3, 4]))
def test_the_preview_agrees_with_deployment(seed: int, players: int) -> None:
    """Invariant (WR-11): what each planner's preview says a plan leaves and cancels is
    what deployment then does, for random plans through whole random games."""
    bots = [make_wotr_bot("random", seed=seed + s) for s in range(players)]
    game = Game(players, seed=seed)
    while not game.is_over():
        seats = game.awaiting()
        if game.phase is not Phase.PLANNING:
            game.apply(seats[0], bots[seats[0]].act(game.view(seats[0])))
            continue
        plans = {seat: bots[seat].act(game.view(seat)) for seat in seats}
        previews = {seat: game.view(seat).preview(plan) for seat, plan in plans.items()}  # type: ignore[arg-type]
        trial = copy.deepcopy(game.state)
        trial.orders, trial.phase, seen = dict(plans), Phase.DEPLOYMENT, len(trial.log)  # type: ignore[arg-type]
        deploy(trial)
        texts = [event.text for event in trial.log[seen:]]
        for seat, preview in previews.items():
            assert preview.faults == ()
            assert trial.players[seat].money == preview.left
            cancelled = ", ".join(charge.text for charge in preview.cancelled)
            line = f"{SEAT_NAMES[seat]} is short of money; cancelled: {cancelled}."
            assert (line in texts) == bool(preview.cancelled)
        for seat, plan in plans.items():
            game.apply(seat, plan)


def test_the_last_reveals_captain_of_calais_stays_in_view_until_the_next() -> None:
    """WR-11: the Captain of Calais lasts one turn; the view keeps who held it, and where,
    with that turn's revealed plans, so a client can show it while it replays the reveal."""
    game = planning_game()
    seat, other = game.awaiting()[:2]
    zone = game.view(seat).planning_options()["calais_zones"][0]
    game.apply(seat, Orders(calais_bid=2, calais_zone=zone))
    game.apply(other, Orders(calais_bid=1, calais_zone=zone))
    for rest in game.awaiting():
        game.apply(rest, Orders())
    assert game.state.calais is None  # the turn is over: the tile is back (WR-11)
    for viewer in (*range(4), None):
        shown = game.view(viewer).to_json()
        assert shown["calais"] is None
        assert shown["revealed_calais"] == [seat, zone]


def test_the_preview_says_which_attacks_need_the_captain_of_calais() -> None:
    """WR-10/WR-11: an attack in the zone of the plan's own Calais bid, where the planner is
    otherwise absent, stands only if the bid wins: the preview names it."""
    game = game_at(money=20)
    give(game.state, YELLOW, "windsor")
    orders = Orders(calais_bid=2, calais_zone="SE", troops={"windsor": 2})
    preview = game.view(RED).preview(orders)
    assert preview.faults == () and preview.if_captain == ("windsor",)
    assert preview.to_json()["if_captain"] == ["windsor"]
    give(game.state, RED, "london")  # present in SE anyway: no condition
    assert game.view(RED).preview(orders).if_captain == ()


def test_the_reveal_shows_the_troops_placed_and_left_to_everyone() -> None:
    """WR-11, WR-13, WR-20: after the reveal the troops placed (after shortfalls) and those
    left after the battles are public, in every view, until the next reveal."""
    game = game_at(money=7)
    state = game.state
    give(state, RED, "pontefract", "kenilworth")
    for seat in range(4):
        orders = Orders(troops={"kenilworth": 2, "pontefract": 2}) if seat == RED else Orders()
        game.apply(seat, orders)
    for viewer in (RED, BLUE, None):
        data = game.view(viewer).to_json()
        assert data["troops_placed"] == {"pontefract": {"Red": 2}}
        assert data["troops_after_combat"] == {"pontefract": {"Red": 2}}
