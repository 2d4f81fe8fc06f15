"""What a player may see (WR-20): no other player's money or sealed orders, never the
deck's order."""

from __future__ import annotations

from roses.wotr.actions import Orders, Pick
from roses.wotr.game import Game
from roses.wotr.state import Phase

from .helpers import BLUE, GREEN, RED, YELLOW


def planning_game() -> Game:
    game = Game(4, seed=11)
    while game.phase is Phase.DRAW:
        game.apply(game.awaiting()[0], Pick(game.state.layout[0]))
    assert game.phase is Phase.PLANNING
    return game


def test_money_is_behind_each_screen() -> None:
    """WR-20: a player sees their own money only; a spectator sees none."""
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
