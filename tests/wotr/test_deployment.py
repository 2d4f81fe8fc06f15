"""Deployment (WR-11): the Calais bids, paying in reverse turn order, the shortfall order,
moves and troop placement."""

from __future__ import annotations

from roses.wotr.actions import Orders
from roses.wotr.phases.deployment import deploy
from roses.wotr.phases.parliament import ranking, zone_holdings
from roses.wotr.state import GameState, Phase

from .helpers import BLUE, GREEN, RED, YELLOW, game_at, give


def deployed(state: GameState, **orders: Orders) -> GameState:
    seats = {"red": RED, "yellow": YELLOW, "green": GREEN, "blue": BLUE}
    state.orders = {seat: Orders() for seat in range(state.player_count)}
    state.orders.update({seats[name]: o for name, o in orders.items()})
    state.phase = Phase.DEPLOYMENT
    deploy(state)
    return state


def test_all_bids_are_paid_and_the_highest_wins_ties_by_turn_order() -> None:
    """WR-11: every bid goes to the bank; the highest wins, a tie goes to the player first
    in turn order, and the tile lands in the zone bid on."""
    state = game_at(order=(GREEN, BLUE, RED, YELLOW), money=10).state
    deployed(state, red=Orders(calais_bid=5, calais_zone="SE"),
             blue=Orders(calais_bid=5, calais_zone="MI"),
             yellow=Orders(calais_bid=2, calais_zone="SE"))  # fmt: skip
    assert state.calais == (BLUE, "MI")
    assert [p.money for p in state.players] == [5, 8, 10, 5]


def test_no_bid_no_captain() -> None:
    """WR-11: when nobody bids the award is not given this turn."""
    state = deployed(game_at(money=10).state)
    assert state.calais is None


def test_calais_counts_as_a_noble_of_4_in_its_zone() -> None:
    """WR-11 example: red's Calais in SE (4 CP) beats yellow's London (4 CP): Calais ranks
    as a noble, and nobles beat large towns."""
    state = game_at(money=10).state
    give(state, YELLOW, "london")
    deployed(state, red=Orders(calais_bid=1, calais_zone="SE"))
    held = zone_holdings(state, "SE")
    assert held[RED].cp == held[YELLOW].cp == 4
    assert ranking(state, held) == [RED, YELLOW]


def test_shortfall_buys_troops_in_the_zone_with_more_votes() -> None:
    """WR-11 example: red has 2 troops on Pontefract and 2 on Kenilworth but money for
    one set: it buys Pontefract's, Northern England (9 votes) before the Midlands (8)."""
    state = game_at(money=6).state
    give(state, RED, "pontefract", "kenilworth")
    deployed(state, red=Orders(troops={"kenilworth": 2, "pontefract": 2}))
    assert state.defence == {"pontefract": 2}
    assert state.players[RED].money == 0
    assert "cancelled: 2 troops on Kenilworth" in state.log[-2].text


def test_shortfall_order_white_black_then_troops_by_chart() -> None:
    """WR-11: short of money, pay white cubes, then black cubes (nobles first, by rank),
    then troops (castles before towns); unaffordable items are cancelled."""
    state = game_at(money=16).state
    give(state, RED, "stafford", "windsor", "winchester")
    give(state, YELLOW, "percy", "herbert")
    orders = Orders(
        bribes={"stafford": "white", "herbert": "black", "percy": "black"},
        troops={"winchester": 1, "windsor": 1},
    )
    deployed(state, red=orders)
    # white Stafford 6, then black Percy (18) is too dear, black Herbert 8; 2 left: no troop.
    assert state.white_cubes == {"stafford"}
    assert state.black_cubes == {RED: ["herbert"]}
    assert state.defence == {} and state.attacks == {}
    assert state.players[RED].money == 2


def test_troops_are_bought_one_by_one_as_money_allows() -> None:
    """WR-11: 'pay what they can': 7 pounds buy 2 of the 3 troops ordered."""
    state = game_at(money=7).state
    give(state, RED, "windsor")
    deployed(state, red=Orders(troops={"windsor": 3}))
    assert state.defence == {"windsor": 2}
    assert state.players[RED].money == 1


def test_pieces_move_and_mercenaries_are_placed_free() -> None:
    """WR-11: nobles and ships move, troops and mercenaries are placed; mercenaries cost
    nothing and leave the player's hand."""
    state = game_at(money=3).state
    give(state, RED, "stafford", "windsor", "ship-of-sandwich")
    state.players[RED].mercenaries = 2
    deployed(state, red=Orders(noble_moves={"stafford": "WC"},
                               ship_moves={"ship-of-sandwich": "MI-sea"},
                               troops={"windsor": 1}, mercenaries={"windsor": 2}))  # fmt: skip
    assert state.noble_zone["stafford"] == "WC"
    assert state.ship_sea["ship-of-sandwich"] == "MI-sea"
    assert state.defence == {"windsor": 3}
    assert state.players[RED].mercenaries == 0 and state.players[RED].money == 0
    assert state.mercenaries_placed == 2
    assert state.log[-1].text == "Red places 1 troop and 2 mercenaries to defend Windsor."


def test_the_log_says_what_is_placed_in_singular_and_plural() -> None:
    """WR-11: troops and mercenaries are named apart, '1 troop', '2 troops', '1 mercenary'."""
    state = game_at(money=9).state
    give(state, RED, "windsor", "london", "stafford")
    give(state, YELLOW, "winchester")
    state.players[RED].mercenaries = 1
    deployed(state, red=Orders(troops={"windsor": 1, "winchester": 2},
                               mercenaries={"london": 1}))  # fmt: skip
    texts = [event.text for event in state.log]
    assert "Red places 1 troop to defend Windsor." in texts
    assert "Red places 2 troops to attack Winchester." in texts
    assert "Red places 1 mercenary to defend London." in texts
    assert all(event.phase is Phase.DEPLOYMENT and event.turn == 1 for event in state.log)


def test_the_troops_placed_are_those_paid_for_not_those_ordered() -> None:
    """WR-11 example: red with 7 pounds orders 2 troops on Pontefract and 2 on Kenilworth;
    Pontefract's are bought (NE, 9 votes, before MI, 8) and Kenilworth's cancelled, so the
    public record of the reveal places troops on Pontefract only."""
    state = game_at(money=7).state
    give(state, RED, "pontefract", "kenilworth")
    deployed(state, red=Orders(troops={"kenilworth": 2, "pontefract": 2}))
    assert state.troops_placed == {"pontefract": {RED: 2}}
    assert state.defence == {"pontefract": 2}
    assert not any("Kenilworth" in event.text and "places" in event.text for event in state.log)
    assert state.players[RED].money == 1


def test_the_troops_left_after_the_battles_are_kept_with_the_reveal() -> None:
    """WR-13: after combat the reveal's record holds what stands on each Location: the
    winner's survivors where a battle was fought, the defenders where none was."""
    from roses.wotr.phases.combat import resolve_battles

    state = game_at(money=30).state
    give(state, RED, "windsor", "stafford", "london")
    give(state, YELLOW, "winchester")
    deployed(state, red=Orders(troops={"winchester": 5, "london": 1}))
    assert state.troops_placed == {"winchester": {RED: 5}, "london": {RED: 1}}
    resolve_battles(state)
    # Winchester (a town, garrison 2) falls to 5 troops: 3 are left, now Red's.
    assert state.troops_after_combat == {"winchester": {RED: 3}, "london": {RED: 1}}


def test_ships_sail_to_sea_zones_named_in_words() -> None:
    """WR-5: the log names a sea zone in words, never by its id."""
    state = game_at(money=0).state
    give(state, RED, "ship-of-sandwich")
    deployed(state, red=Orders(ship_moves={"ship-of-sandwich": "MI-sea"}))
    assert "Red sails Ship of Sandwich to the sea off Midlands." in [e.text for e in state.log]
    board = state.board
    names = [str(board.sea_name(sea)) for sea in board.sea_order]
    assert names[0] == "the west sea off Northern Marches"
    assert names[-1] == "the east sea off Northern Marches"
    assert len(set(names)) == len(names)


def test_an_attack_on_the_strength_of_a_won_calais_bid_stands() -> None:
    """WR-10/WR-11: the Captain of Calais's cylinder lands before troops are placed, and
    presence is judged at placement ("era presente ... durante la fase di Collocamento,
    quando sono state disposte le Truppe"): the winner of a bid on SE may attack there."""
    state = game_at(money=20).state
    give(state, YELLOW, "windsor")
    give(state, RED, "kenilworth")
    deployed(state, red=Orders(calais_bid=2, calais_zone="SE", troops={"windsor": 4}))
    assert state.calais == (RED, "SE")
    assert state.attacks == {"windsor": {RED: 4}}
    assert state.players[RED].money == 20 - 2 - 12


def test_an_attack_on_the_strength_of_a_lost_calais_bid_is_cancelled_free() -> None:
    """WR-10/WR-11: another player wins Calais, so the bidder is not present in SE when
    troops are placed: the attack is an illegal order, cancelled at no cost; the rest of
    the plan is paid and placed."""
    state = game_at(money=20).state
    give(state, YELLOW, "windsor")
    give(state, RED, "kenilworth")
    state.players[RED].mercenaries = 1
    deployed(state, red=Orders(calais_bid=2, calais_zone="SE", troops={"windsor": 4,
                                                                       "kenilworth": 1},
                               mercenaries={"windsor": 1}),
             blue=Orders(calais_bid=3, calais_zone="MI"))  # fmt: skip
    assert state.calais == (BLUE, "MI")
    assert state.attacks == {} and state.troops_placed == {"kenilworth": {RED: 1}}
    assert state.players[RED].money == 20 - 2 - 3
    assert state.players[RED].mercenaries == 1
    assert "Red is not present to attack Windsor: cancelled at no cost." in [
        event.text for event in state.log
    ]


def test_an_attack_whose_troops_are_all_cancelled_fights_no_battle() -> None:
    """WR-11, WR-13: cancelled troops are not placed; a Location none reach is not
    attacked (its garrison is never replaced, nothing is logged for it)."""
    from roses.wotr.phases.combat import resolve_battles

    state = game_at(money=2).state
    give(state, RED, "windsor")
    give(state, YELLOW, "winchester")
    deployed(state, red=Orders(troops={"winchester": 2}))
    assert state.attacks == {} and state.troops_placed == {}
    resolve_battles(state)
    assert state.owner["winchester"] == YELLOW
    assert not any("attacks Winchester" in event.text for event in state.log)
