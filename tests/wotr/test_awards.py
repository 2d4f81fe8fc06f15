"""Special awards (WR-16) and bonuses (WR-17)."""

from __future__ import annotations

from roses.wotr.phases.awards import refresh_awards, score_awards, score_bonuses

from .helpers import BLUE, GREEN, RED, YELLOW, game_at, give, vp

ADMIRAL = "lord-high-admiral"
CANTERBURY = "archbishop-of-canterbury"


def test_first_to_own_two_takes_the_tile_and_keeps_it_on_a_tie() -> None:
    """WR-16: the first player to own 2 ships takes the Lord High Admiral and keeps it
    while nobody owns more."""
    state = game_at(order=(RED, YELLOW, GREEN, BLUE)).state
    give(state, YELLOW, "ship-of-berwick", "ship-of-kingston")
    refresh_awards(state)
    assert state.award_holder[ADMIRAL] == YELLOW
    give(state, RED, "ship-of-plymouth", "ship-of-sandwich")
    refresh_awards(state)
    assert state.award_holder[ADMIRAL] == YELLOW  # a tie: the holder keeps it
    give(state, RED, "ship-of-kings-lynn")
    refresh_awards(state)
    assert state.award_holder[ADMIRAL] == RED  # more ships take it


def test_holder_below_two_passes_to_first_in_turn_order_with_most_or_back() -> None:
    """WR-16: when the holder owns fewer than 2, the first player in turn order with the
    most (at least 2) takes the tile, or it goes back."""
    state = game_at(order=(BLUE, GREEN, RED, YELLOW)).state
    give(state, YELLOW, "bamburgh", "pontefract")
    give(state, GREEN, "windsor", "kenilworth")
    give(state, BLUE, "harlech", "carisbrooke")
    state.award_holder["constable-of-the-tower"] = YELLOW
    state.owner["pontefract"] = None
    refresh_awards(state)
    assert state.award_holder["constable-of-the-tower"] == BLUE
    for castle in ("harlech", "windsor"):
        state.owner[castle] = None
    refresh_awards(state)
    assert state.award_holder["constable-of-the-tower"] is None


def test_the_archbishop_of_york_counts_as_a_bishop() -> None:
    """WR-16: the Archbishop of York counts toward the Archbishop of Canterbury."""
    state = game_at().state
    give(state, GREEN, "archbishop-of-york", "bishop-of-exeter")
    refresh_awards(state)
    assert state.award_holder[CANTERBURY] == GREEN


def test_awards_and_calais_score_4_vp_each() -> None:
    """WR-16: 4 VP per tile held at the end of Parliament; the Captain of Calais too."""
    game = game_at()
    state = game.state
    state.award_holder = {ADMIRAL: RED, CANTERBURY: RED, "warden-of-the-cinque-ports": BLUE}
    state.calais = (YELLOW, "SE")
    score_awards(state)
    assert vp(game) == [8, 4, 0, 4]
    assert state.players[YELLOW].vp_by_source["calais"] == 4


def test_trade_and_church_bonuses() -> None:
    """WR-17: 2 VP for a port with its own ship (wherever the ship is); 3 VP for a
    cathedral town with its bishop."""
    game = game_at()
    state = game.state
    give(state, RED, "plymouth", "ship-of-plymouth", "winchester", "bishop-of-winchester")
    state.ship_sea["ship-of-plymouth"] = "NE-west"
    give(state, YELLOW, "sandwich", "ship-of-berwick", "london", "archbishop-of-york")
    score_bonuses(state)
    assert vp(game) == [5, 0, 0, 0]
    assert state.players[RED].vp_by_source["trade"] == 2
    assert state.players[RED].vp_by_source["church"] == 3
