"""Parliament: zone VP (WR-14) with WR-3's tie-breaks, and the King (WR-15)."""

from __future__ import annotations

from roses.wotr.phases.parliament import (
    crown_king,
    house_zone_winner,
    ranking,
    score_zones,
    zone_holdings,
)
from roses.wotr.state import LANCASTER, YORK, GameState

from .helpers import BLUE, GREEN, RED, YELLOW, game_at, give, vp


def ne_ranking(state: GameState) -> list[int]:
    return ranking(state, zone_holdings(state, "NE"))


def test_bishop_beats_town_when_nobles_tie() -> None:
    """WR-14 example: red 12 CP (Percy 9, Bishop of York 3) against yellow 12 CP
    (Plantagenet 9, Lincoln 3): red wins, the bishop stands left of a town on the chart."""
    state = game_at().state
    give(state, RED, "percy", "archbishop-of-york", zone="NE")
    give(state, YELLOW, "plantagenet", "lincoln", zone="NE")
    held = zone_holdings(state, "NE")
    assert (held[RED].cp, held[YELLOW].cp) == (12, 12)
    assert ne_ranking(state) == [RED, YELLOW]


def test_a_noble_beats_a_castle_northern_england_example() -> None:
    """WR-14 example: yellow 10 CP (Neville 8, Kingston 2), red 10 CP (Pontefract 6,
    York 4): yellow wins on the noble and scores 9 VP, red 6 VP."""
    game = game_at()
    state = game.state
    give(state, YELLOW, "neville", "kingston", zone="NE")
    give(state, RED, "pontefract", "york")
    score_zones(state)
    assert vp(game) == [6, 9, 0, 0]


def test_second_noble_beats_a_large_town() -> None:
    """WR-14 example: red Percy 9 + York 4 against yellow Plantagenet 9 + Herbert 4 (13
    each): yellow wins, its second noble beats a large town."""
    state = game_at().state
    give(state, RED, "percy", "york", zone="NE")
    give(state, YELLOW, "plantagenet", "herbert", zone="NE")
    assert ne_ranking(state) == [YELLOW, RED]


def test_equal_ships_tie_by_turn_order() -> None:
    """WR-14: a tie of only an equal number of ships goes by turn order."""
    state = game_at(order=(BLUE, RED, YELLOW, GREEN)).state
    give(state, RED, "ship-of-kingston")
    give(state, BLUE, "ship-of-berwick")
    state.ship_sea["ship-of-berwick"] = "NE-east"
    assert ne_ranking(state) == [BLUE, RED]
    state.order = [RED, BLUE, YELLOW, GREEN]
    assert ne_ranking(state) == [RED, BLUE]


def test_two_nobles_of_equal_rank_tie_by_turn_order() -> None:
    """WR-14: Percy 9 and Plantagenet 9, equal rank, alone in a zone: turn order decides,
    first place (9 VP in NE) to the player earlier in turn order, second (6 VP) to the other."""
    game = game_at(order=(GREEN, YELLOW, BLUE, RED))
    state = game.state
    give(state, RED, "percy", zone="NE")
    give(state, YELLOW, "plantagenet", zone="NE")
    assert ne_ranking(state) == [YELLOW, RED]
    score_zones(state)
    assert vp(game) == [6, 9, 0, 0]
    state.order = [RED, GREEN, YELLOW, BLUE]
    assert ne_ranking(state) == [RED, YELLOW]


def test_ships_count_where_they_are_sea_example() -> None:
    """WR-14 example: red 6 CP in SE (Sandwich 2, Ship of Sandwich 2, Ship of Plymouth 2),
    yellow 4 (London): red scores 7 VP, yellow 4 VP."""
    game = game_at()
    state = game.state
    give(state, RED, "sandwich", "ship-of-sandwich", "ship-of-plymouth")
    give(state, YELLOW, "london")
    state.ship_sea["ship-of-plymouth"] = "SE-sea"
    assert zone_holdings(state, "SE")[RED].cp == 6
    assert zone_holdings(state, "WC")[RED].cp == 0
    score_zones(state)
    assert vp(game) == [7, 4, 0, 0]


def test_no_cp_no_vp_and_a_lone_player_takes_first() -> None:
    """WR-14: a player with no CP in a zone scores nothing there."""
    game = game_at()
    give(game.state, GREEN, "bamburgh")
    score_zones(game.state)
    assert vp(game) == [0, 0, 4, 0]  # first in NM; nobody is second


def test_house_vote_in_a_zone_is_won_by_the_best_item() -> None:
    """WR-15 example: Lancastrians red and blue 13 CP (Pontefract 6, York 4, Lincoln 3),
    Yorkists yellow and green 13 CP (Neville 8, Archbishop of York 3, Kingston 2): the
    Yorkists win Northern England, they hold its best item, Neville."""
    state = game_at().state
    give(state, RED, "pontefract", "york")
    give(state, BLUE, "lincoln")
    give(state, YELLOW, "neville", zone="NE")
    give(state, GREEN, "archbishop-of-york", "kingston")
    assert house_zone_winner(state, zone_holdings(state, "NE")) == YORK
    assert house_zone_winner(state, zone_holdings(state, "WA")) is None  # nobody present


def test_king_vote_lancaster_beats_york() -> None:
    """WR-15 example: Lancaster holds NM (4), NE (9) and SE (7), York MI (8), WC (6) and WA
    (5): Lancaster is crowned and each Lancastrian scores 5 VP, each an event of the public
    log. (The rulebook prints "30 to 19"; with its own votes the sum is 20 to 19.)"""
    game = game_at()
    state = game.state
    give(state, RED, "bamburgh", "pontefract")
    give(state, BLUE, "windsor")
    give(state, YELLOW, "kenilworth", "carisbrooke")
    give(state, GREEN, "harlech")
    crown_king(state)
    assert state.crowned == [LANCASTER]
    assert state.log[-3].text == "Votes: Lancaster 20, York 19; Lancaster is crowned."
    assert [event.text for event in state.log[-2:]] == [
        "The King: Red scores 5 VP for the house of Lancaster.",
        "The King: Blue scores 5 VP for the house of Lancaster.",
    ]
    assert [event.scored for event in state.log[-2:]] == [(RED, 5), (BLUE, 5)]
    assert vp(game) == [5, 0, 0, 5]


def test_a_vote_of_0_to_0_crowns_nobody_and_pays_nothing() -> None:
    """WR-15 (the project's decision): when nobody is present anywhere, no house has a
    vote, nobody is crowned and nobody scores the King's 5 VP."""
    game = game_at()
    state = game.state
    crown_king(state)
    assert state.crowned == [None]
    assert vp(game) == [0, 0, 0, 0]
    assert state.log[-1].text == (
        "Votes: Lancaster 0, York 0; nobody is present anywhere, and nobody is crowned."
    )


def test_a_tie_in_votes_keeps_the_house_crowned_last() -> None:
    """WR-15 (the project's decision): a tie keeps the house crowned last, passing over
    turns that crowned nobody; Lancaster, reigning in 1450, when none has been crowned."""
    game = game_at()
    state = game.state
    give(state, RED, "bamburgh")  # Lancaster: NM, 4 votes
    give(state, YELLOW, "windsor")  # York: SE, 7 votes
    give(state, GREEN, "harlech")  # York: WA, 5 votes
    give(state, BLUE, "kenilworth")  # Lancaster: MI, 8 votes: 12 to 12
    crown_king(state)
    assert state.crowned == [LANCASTER]
    assert vp(game) == [5, 0, 0, 5]
    state.crowned = [YORK, None]
    crown_king(state)
    assert state.crowned == [YORK, None, YORK]
    assert vp(game) == [5, 5, 5, 5]
