"""Bribery (WR-12)."""

from __future__ import annotations

from roses.wotr.phases.bribery import resolve_bribes

from .helpers import BLUE, GREEN, RED, YELLOW, game_at, give


def test_a_black_cube_takes_an_unguarded_personality() -> None:
    """WR-12 example: red's black cube on Neville, which blue did not guard with a white
    cube: Neville, card and token, changes to red, where it stands."""
    state = game_at().state
    give(state, BLUE, "neville", zone="SE")
    state.black_cubes = {RED: ["neville"]}
    resolve_bribes(state)
    assert state.owner["neville"] == RED
    assert state.noble_zone["neville"] == "SE"


def test_a_white_cube_stops_the_first_black_cube_only() -> None:
    """WR-12: the first black cube on a guarded Personality fails and both cubes go back;
    a later black cube (in reverse turn order) succeeds."""
    state = game_at(order=(RED, YELLOW, GREEN, BLUE)).state
    give(state, RED, "percy")
    state.white_cubes = {"percy"}
    state.black_cubes = {BLUE: ["percy"], YELLOW: ["percy"]}
    resolve_bribes(state)
    assert state.owner["percy"] == YELLOW  # blue went first (reverse order) and failed
    assert state.white_cubes == set()


def test_the_last_successful_briber_keeps_it() -> None:
    """WR-12: in reverse turn order each successful black cube takes it from the previous."""
    state = game_at(order=(GREEN, RED, YELLOW, BLUE)).state
    give(state, BLUE, "archbishop-of-york")
    state.black_cubes = {YELLOW: ["archbishop-of-york"], GREEN: ["archbishop-of-york"]}
    resolve_bribes(state)
    assert state.owner["archbishop-of-york"] == GREEN  # first in turn order, so last


def test_leftover_white_cubes_go_back() -> None:
    state = game_at().state
    give(state, RED, "ship-of-plymouth")
    state.white_cubes = {"ship-of-plymouth"}
    resolve_bribes(state)
    assert state.owner["ship-of-plymouth"] == RED and state.white_cubes == set()
