"""Planning (WR-10): sealed orders, presence, costs and the checks made on submission."""

from __future__ import annotations

import pytest

from roses.wotr.actions import Orders
from roses.wotr.errors import IllegalActionError
from roses.wotr.payment import plan_cost
from roses.wotr.phases.planning import check_orders, presence
from roses.wotr.state import GameState

from .helpers import BLUE, GREEN, RED, YELLOW, game_at, give, neville_ten


def presence_example() -> GameState:
    """WR-10 example: red holds Windsor and Stafford, yellow the Bishop of Winchester, in
    SE; Winchester is neutral; blue's Neville stands in WC, where yellow has Carisbrooke."""
    state = game_at().state
    give(state, RED, "windsor", "stafford")
    give(state, YELLOW, "bishop-of-winchester", "carisbrooke")
    give(state, BLUE, "neville", zone="WC")
    return state


def faults(state: GameState, seat: int, orders: Orders, money: int = 100) -> list[str]:
    return [str(f) for f in check_orders(state, seat, money, 2, orders)]


def test_presence_needs_an_own_marker_in_the_zone() -> None:
    """WR-10 example: only red and yellow are present in SE; yellow may attack Windsor;
    neutral Winchester, nobles and bishops cannot be attacked."""
    state = presence_example()
    assert "SE" in presence(state, RED, Orders()) and "SE" in presence(state, YELLOW, Orders())
    assert "SE" not in presence(state, BLUE, Orders())
    assert faults(state, YELLOW, Orders(troops={"windsor": 2})) == []
    assert faults(state, BLUE, Orders(troops={"windsor": 2})) == [
        "troops.windsor: you are not present in South East England to attack it (WR-10)"
    ]
    assert faults(state, RED, Orders(troops={"winchester": 1})) == [
        "troops.winchester: is neutral and cannot be attacked (WR-10)"
    ]
    assert faults(state, RED, Orders(troops={"bishop-of-winchester": 1})) == [
        "troops.bishop-of-winchester: is not a Location (troops go on castles, towns and ports)"
    ]


def test_a_moving_noble_gives_presence_in_both_zones() -> None:
    """WR-10 example: blue moves Neville from WC to SE and may attack Windsor (SE) and
    Carisbrooke (WC) in the same turn."""
    state = presence_example()
    orders = Orders(noble_moves={"neville": "SE"}, troops={"windsor": 3, "carisbrooke": 4})
    assert faults(state, BLUE, orders) == []


def test_ships_never_give_presence() -> None:
    """WR-10: a ship sailing off a zone does not let its owner attack there."""
    state = game_at().state
    give(state, GREEN, "ship-of-berwick")
    give(state, YELLOW, "pontefract")
    assert faults(state, GREEN, Orders(ship_moves={"ship-of-berwick": "NE-east"})) == []
    orders = Orders(ship_moves={"ship-of-berwick": "NE-east"}, troops={"pontefract": 5})
    assert faults(state, GREEN, orders) == [
        "troops.pontefract: you are not present in Northern England to attack it (WR-10)"
    ]


def test_the_planning_example_costs_47_pounds() -> None:
    """WR-10 example: 3 troops on Winchester (9), Stafford to WC, 4 troops on Carisbrooke
    (12), a mercenary on Windsor (free), a white cube on Stafford (1 x 6) and a black cube
    on Neville (2 x 10): 47 pounds. This example ranks Neville at 10."""
    state = game_at(board=neville_ten()).state
    give(state, RED, "windsor", "stafford")
    give(state, YELLOW, "winchester", "carisbrooke", "bishop-of-winchester")
    give(state, BLUE, "neville", zone="WC")
    orders = Orders(
        noble_moves={"stafford": "WC"},
        troops={"winchester": 3, "carisbrooke": 4},
        mercenaries={"windsor": 1},
        bribes={"stafford": "white", "neville": "black"},
    )
    assert faults(state, RED, orders) == []
    assert plan_cost(state, orders) == 47


def test_bribe_costs_double_for_black() -> None:
    """WR-10: black = 2 x the noble's CP or the bishop's or ship's income; white = 1 x."""
    state = game_at().state
    board = state.board
    give(state, RED, "percy", "archbishop-of-york", "ship-of-kingston")
    black = Orders(bribes={"percy": "black", "archbishop-of-york": "black",
                           "ship-of-kingston": "black"})  # fmt: skip
    white = Orders(bribes={c: "white" for c in black.bribes})
    income = board.icons["archbishop-of-york"].income + board.icons["ship-of-kingston"].income
    assert plan_cost(state, black) == 2 * (9 + income)
    assert plan_cost(state, white) == 9 + income
    assert faults(state, YELLOW, black) == []
    assert faults(state, RED, white) == []


def test_cubes_only_on_owned_personalities_of_the_right_side() -> None:
    """WR-10 and WR-11's examples of illegal orders: cubes on unowned Personalities, white
    cubes on an opponent's, black cubes on one's own."""
    state = game_at().state
    give(state, RED, "percy")
    give(state, YELLOW, "herbert")
    assert faults(state, RED, Orders(bribes={"plantagenet": "black"})) == [
        "bribes.plantagenet: belongs to nobody and cannot be bribed"
    ]
    assert faults(state, RED, Orders(bribes={"herbert": "white", "percy": "black"})) == [
        "bribes.herbert: a white cube goes only on your own Personality",
        "bribes.percy: a black cube goes only on an opponent's Personality",
    ]
    assert faults(state, RED, Orders(bribes={"windsor": "black"})) == [
        "bribes.windsor: is not a Personality (nobles, bishops, ships)"
    ]


def test_moves_limits_and_bids_are_checked() -> None:
    """WR-5: nobles one adjacent zone, ships up to 2 sea zones; WR-4: 20 troops, the
    mercenaries held; WR-10: a Calais bid on MI or SE, within one's money."""
    state = game_at().state
    give(state, RED, "herbert", "ship-of-milford-haven", "harlech")  # Wales
    assert faults(state, RED, Orders(noble_moves={"herbert": "SE"})) == [
        "noble_moves.herbert: South East England is not adjacent to Wales (WR-5)"
    ]
    assert faults(state, RED, Orders(noble_moves={"percy": "NE"})) == [
        "noble_moves.percy: Percy is not yours"
    ]
    assert faults(state, RED, Orders(ship_moves={"ship-of-milford-haven": "NE-west"})) == []
    assert faults(state, RED, Orders(ship_moves={"ship-of-milford-haven": "NM-west"})) == []
    assert faults(state, RED, Orders(ship_moves={"ship-of-milford-haven": "MI-sea"})) == [
        "ship_moves.ship-of-milford-haven: "
        "the sea off Midlands is more than 2 sea zones away (WR-5)"
    ]
    assert faults(state, RED, Orders(troops={"harlech": 21})) == ["troops: 21 troops, more than 20"]
    assert faults(state, RED, Orders(mercenaries={"harlech": 3})) == [
        "mercenaries: 3 placed, you hold 2"
    ]
    assert faults(state, RED, Orders(calais_bid=5, calais_zone="NE"), money=10) == [
        "calais.zone: must be one of Midlands, South East England (WR-10)"
    ]
    assert faults(state, RED, Orders(calais_bid=11, calais_zone="SE"), money=10) == [
        "calais.bid: bids 11 but you have 10 pounds"
    ]


def test_king_s_lynn_ship_reaches_nm_or_wc() -> None:
    """WR-5 example: two sea zones take a King's Lynn ship to the Northern Marches or the
    West Country; a Plymouth ship reaches Wales, NE (west), SE or the Midlands."""
    state = game_at().state
    give(state, RED, "ship-of-kings-lynn", "ship-of-plymouth")
    for sea in ("NE-east", "NM-east", "SE-sea", "WC-sea"):
        assert faults(state, RED, Orders(ship_moves={"ship-of-kings-lynn": sea})) == []
    for sea in ("WA-sea", "NE-west", "SE-sea", "MI-sea"):
        assert faults(state, RED, Orders(ship_moves={"ship-of-plymouth": sea})) == []


def test_submission_rejects_illegal_orders_and_changes_nothing() -> None:
    game = game_at(money=10)
    give(game.state, RED, "windsor")
    with pytest.raises(IllegalActionError, match=r"^troops\.london: is neutral"):
        game.apply(RED, Orders(troops={"london": 1}))
    assert game.state.orders == {}
    game.apply(RED, Orders(troops={"windsor": 1}))
    assert set(game.state.orders) == {RED}
    with pytest.raises(IllegalActionError, match="may not act now"):
        game.apply(RED, Orders())


def test_a_plan_may_attack_where_its_own_calais_bid_would_land() -> None:
    """WR-10/WR-11: the Captain lands in the zone bid on before troops are placed, so a
    plan that attacks there is accepted at sealing (deployment judges it after the award);
    without the bid, or with a bid on the other zone, it is refused."""
    state = presence_example()
    bid = Orders(calais_bid=1, calais_zone="SE", troops={"windsor": 2})
    assert faults(state, BLUE, bid) == []
    assert faults(state, BLUE, Orders(calais_bid=1, calais_zone="MI", troops={"windsor": 2})) == [
        "troops.windsor: you are not present in South East England to attack it (WR-10)"
    ]
