"""Sealed plans (WR-10, WR-20): a plan may be taken back and changed until the last player
seals; the others learn only that a seat has taken its plan back (at the table, its House
tile turned face up again), never anything of the plan."""

from __future__ import annotations

import pytest

from roses.wotr import IllegalActionError, Orders, Phase
from roses.wotr.actions import Unseal
from roses.wotr.record import record_of, replay

from .helpers import BLUE, GREEN, RED, YELLOW, planning_game


def test_a_sealed_plan_is_taken_back_and_sealed_again() -> None:
    """WR-10: the sealing seat unseals, plans again and seals a new plan; the reveal uses
    the last one."""
    game = planning_game()
    first = Orders(calais_bid=1, calais_zone="SE")
    game.state.players[RED].money = max(2, game.state.players[RED].money)
    game.apply(RED, first)
    assert RED not in game.awaiting() and game.view(RED).can_unseal
    game.apply(RED, Unseal())
    assert RED in game.awaiting() and game.view(RED).my_orders is None
    assert not game.view(RED).can_unseal
    second = Orders(calais_bid=2, calais_zone="MI")
    game.apply(RED, second)
    for seat in (YELLOW, GREEN, BLUE):
        game.apply(seat, Orders())
    assert game.view(YELLOW).revealed[RED] == second
    assert "Red bids 2 for Calais." in [event.text for event in game.state.log]


def test_the_log_says_planning_again_and_nothing_of_the_plan() -> None:
    """WR-20 (the project's reading of "porre il proprio Gettone Casa Reale a faccia in
    giù"): others see the seal and the take-back, as a House tile turned down and up again
    is seen at the table, in the words of the page's seat list; not the plan."""
    game = planning_game()
    game.state.players[RED].money = max(3, game.state.players[RED].money)
    before = len(game.state.log)
    game.apply(RED, Orders(calais_bid=3, calais_zone="SE"))
    game.apply(RED, Unseal())
    texts = [event.text for event in game.state.log[before:]]
    assert texts == ["Red has sealed a plan.", "Red has taken their plan back and is planning."]
    view = game.view(BLUE).to_json()
    assert view["sealed"] == [] and "Red" in view["awaiting"]
    assert view["log"][-1] == {
        "n": len(game.state.log) - 1,
        "turn": 1,
        "phase": "planning",
        "template": "{seat} has taken their plan back and is planning.",
        "params": {"seat": "Red"},
    }


def test_only_a_sealed_seat_may_unseal_and_only_during_planning() -> None:
    """WR-10: unsealing needs a sealed plan of one's own; once the last seal reveals the
    plans there is nothing to take back. A refused unseal changes nothing."""
    game = planning_game()
    with pytest.raises(IllegalActionError, match=r"^unseal: seat 2 has no sealed plan"):
        game.apply(GREEN, Unseal())
    with pytest.raises(IllegalActionError, match=r"^unseal: seat 9 has no sealed plan"):
        game.apply(9, Unseal())
    for seat in (RED, YELLOW, GREEN, BLUE):
        game.apply(seat, Orders())
    assert game.phase is not Phase.PLANNING
    history = len(game.history)
    with pytest.raises(IllegalActionError, match=r"^unseal: no plans are sealed in"):
        game.apply(BLUE, Unseal())
    assert len(game.history) == history


def test_a_record_with_unsealing_replays() -> None:
    game = planning_game()
    game.apply(GREEN, Orders())
    game.apply(GREEN, Unseal())
    record = record_of(game)
    assert {"seat": GREEN, "unseal": True} in record["actions"]
    again = replay(record)
    assert again.awaiting() == game.awaiting()
    assert [e.text for e in again.state.log] == [e.text for e in game.state.log]
