"""The rulebook's running example played as one whole turn through ``Game``: planning
(WR-10, 47 pounds), deployment (WR-11), bribery (WR-12), the Winchester and Carisbrooke
battles (WR-13) and the Parliament that follows (WR-14..WR-17)."""

from __future__ import annotations

from roses.wotr.actions import Orders
from roses.wotr.game import Game
from roses.wotr.state import LANCASTER, Phase

from .helpers import BLUE, GREEN, RED, YELLOW, game_at, give, neville_ten, vp


def example_game() -> Game:
    """Red holds Windsor and Stafford (SE) and one mercenary; yellow Winchester,
    Carisbrooke and the Bishop of Winchester; blue Neville, in the West Country. Blue moves
    before red in deployment's reverse turn order... so red is last in turn order."""
    game = game_at(order=(GREEN, YELLOW, BLUE, RED), board=neville_ten())
    state = game.state
    give(state, RED, "windsor", "stafford")
    give(state, YELLOW, "winchester", "carisbrooke", "bishop-of-winchester")
    give(state, BLUE, "neville", zone="WC")
    state.players[RED].money = 50
    state.players[BLUE].money = 9
    state.players[RED].mercenaries = 1
    state.mercenary_supply -= 1
    return game


RED_PLAN = Orders(
    noble_moves={"stafford": "WC"},
    troops={"winchester": 3, "carisbrooke": 4},
    mercenaries={"windsor": 1},
    bribes={"stafford": "white", "neville": "black"},
)
BLUE_PLAN = Orders(noble_moves={"neville": "SE"}, troops={"winchester": 3})


def test_orders_stay_sealed_until_all_are_in() -> None:
    """WR-10, WR-20: nothing happens and nothing is shown until every plan is in."""
    game = example_game()
    game.apply(RED, RED_PLAN)
    game.apply(BLUE, BLUE_PLAN)
    assert game.phase is Phase.PLANNING and game.awaiting() == (GREEN, YELLOW)
    assert game.view(YELLOW).revealed == {} and game.view(YELLOW).my_orders is None
    assert game.view(RED).my_orders == RED_PLAN
    assert game.state.players[RED].money == 50


def test_the_whole_example_turn() -> None:
    game = example_game()
    state = game.state
    for seat, plan in ((RED, RED_PLAN), (BLUE, BLUE_PLAN), (GREEN, Orders()), (YELLOW, Orders())):
        game.apply(seat, plan)
    # WR-11: red pays 9 + 12 + 6 + 20 = 47 pounds; blue 9.
    assert state.players[RED].money == 3 and state.players[BLUE].money == 0
    # WR-12: Neville, moved to SE by blue, is bribed by red; Stafford went to WC.
    assert state.owner["neville"] == RED and state.noble_zone["neville"] == "SE"
    assert state.noble_zone["stafford"] == "WC"
    # WR-13: red takes Carisbrooke and Winchester; blue's attack stands although Neville
    # was bribed away, and blue takes Winchester from red's one troop.
    fights = [e.text for e in state.log if "attacks" in e.text]
    assert fights == [
        "Red attacks Winchester (Yellow) with 3 against 2: won, 1 left.",
        "Red attacks Carisbrooke (Yellow) with 4 against 3: won, 1 left.",
        "Blue attacks Winchester (Red) with 3 against 1: won, 2 left.",
    ]
    assert (state.owner["winchester"], state.owner["carisbrooke"]) == (BLUE, RED)
    # The mercenary on Windsor went back to the troops chart.
    assert state.players[RED].mercenaries == 0 and state.mercenary_supply == 17
    # WR-14: SE red 16 (Windsor, Neville) first, yellow's bishop beats blue's town for
    # second; WC red 12 (Carisbrooke, Stafford). WR-15: Lancaster 13 votes, red and blue
    # crowned. WR-16: red owns 2 royal castles: Constable of the Tower.
    assert state.crowned == [LANCASTER]
    assert state.award_holder["constable-of-the-tower"] == RED
    assert vp(game) == [7 + 6 + 5 + 4, 4, 0, 5]
    # WR-6: turn 2 begins, lowest score first.
    assert game.turn == 2 and game.phase is Phase.DRAW
    assert state.order == [GREEN, YELLOW, BLUE, RED]
