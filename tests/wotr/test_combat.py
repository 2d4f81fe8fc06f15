"""Combat (WR-13)."""

from __future__ import annotations

from roses.wotr.phases.combat import battle, resolve_battles
from roses.wotr.phases.draft import lay_out_cards

from .helpers import BLUE, GREEN, RED, YELLOW, game_at, give


def test_one_for_one_losses() -> None:
    """WR-13: n attackers against m defenders leave n - m or m - n, or nothing."""
    assert battle(4, 3) == (1, 0)
    assert battle(2, 5) == (0, 3)
    assert battle(3, 3) == (0, 0)


def test_winchester_and_carisbrooke_battles() -> None:
    """WR-13 examples: yellow's Carisbrooke (garrison 3) and Winchester (garrison 2). Red
    attacks Winchester with 3 (1 left) and Carisbrooke with 4 (1 left) and takes both
    cards; then blue attacks Winchester with 3, beats red's 1 and keeps 2 there."""
    state = game_at(order=(GREEN, YELLOW, BLUE, RED)).state
    give(state, YELLOW, "winchester", "carisbrooke")
    give(state, RED, "windsor")
    state.attacks = {"winchester": {RED: 3, BLUE: 3}, "carisbrooke": {RED: 4}}
    state.defence = {"windsor": 1}
    resolve_battles(state)
    fights = [e.text for e in state.log if "attacks" in e.text]
    assert fights == [
        "Red attacks Winchester (Yellow) with 3 against 2: won, 1 left.",
        "Red attacks Carisbrooke (Yellow) with 4 against 3: won, 1 left.",
        "Blue attacks Winchester (Red) with 3 against 1: won, 2 left.",
    ]
    assert state.owner["winchester"] == BLUE
    assert state.owner["carisbrooke"] == RED
    assert state.owner["windsor"] == RED


def test_defending_troops_stand_beside_the_garrison() -> None:
    """WR-13: the first attack meets the garrison plus the owner's troops and mercenaries."""
    state = game_at().state
    give(state, YELLOW, "london")
    give(state, RED, "stafford")
    state.defence = {"london": 3}
    state.attacks = {"london": {RED: 4}}
    resolve_battles(state)
    assert state.owner["london"] == YELLOW
    assert state.log[-1].text.endswith("with 4 against 5: repulsed, 1 left.")


def test_later_attackers_fight_only_what_is_left() -> None:
    """WR-13: the garrison is given once per turn; later attacks fight the troops left."""
    state = game_at(order=(RED, YELLOW, GREEN, BLUE)).state
    give(state, RED, "pontefract")
    state.attacks = {"pontefract": {BLUE: 2, GREEN: 2}}
    resolve_battles(state)
    assert state.owner["pontefract"] == GREEN  # blue: 2 v 3 leaves 1; green: 2 v 1
    assert state.log[-1].text.endswith("with 2 against 1: won, 1 left.")


def test_a_tie_makes_the_location_neutral_and_a_later_attacker_takes_it() -> None:
    """WR-13: n = m leaves the Location neutral, its card face up on the deck; a later
    attacker this turn takes the card from there."""
    state = game_at(order=(RED, YELLOW, GREEN, BLUE)).state
    give(state, RED, "kenilworth", "sandwich")
    state.attacks = {"kenilworth": {BLUE: 3, YELLOW: 1}, "sandwich": {GREEN: 1}}
    resolve_battles(state)
    assert state.owner["kenilworth"] == YELLOW and state.returned == ["sandwich"]
    assert state.owner["sandwich"] is None


def test_neutral_cards_are_laid_out_first_next_turn() -> None:
    """WR-7 with WR-13: a neutralised Location's card is laid out first next turn."""
    state = game_at(order=(RED, YELLOW, GREEN, BLUE)).state
    give(state, RED, "sandwich")
    state.attacks = {"sandwich": {GREEN: 1}}
    resolve_battles(state)
    state.turn = 2
    lay_out_cards(state)
    assert state.layout[0] == "sandwich" and len(state.layout) == 9


def test_defenders_of_a_neutralised_location_do_not_attack_it() -> None:
    """WR-13: defending troops stand with the garrison; if an attack leaves the Location
    neutral they are gone, and on their owner's own combat turn they attack nothing."""
    state = game_at(order=(RED, YELLOW, GREEN, BLUE)).state
    give(state, RED, "london")
    state.defence = {"london": 2}
    state.attacks = {"london": {YELLOW: 4}}
    resolve_battles(state)
    assert state.owner["london"] is None and state.returned == ["london"]
    assert [e.text for e in state.log if "attacks" in e.text] == [
        "Yellow attacks London (Red) with 4 against 4: both sides destroyed; "
        "the Location is neutral."
    ]
