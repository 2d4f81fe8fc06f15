"""The search's fast path (a quiet ``GameState.clone`` resolved by ``resolve_reveal``)
resolves every turn exactly as the game does (WR-11..WR-17), and leaves the game alone."""

from __future__ import annotations

import copy

import pytest

from roses.bots.wotr import make_wotr_bot
from roses.wotr.actions import Action, Orders
from roses.wotr.game import Game
from roses.wotr.reveal import resolve_reveal
from roses.wotr.state import GameState, Phase


def same_turn_result(fast: GameState, game: Game) -> None:
    """What the reveal decided, compared with the game, which has since moved on to the
    next turn's draw (or the end): only the draw and the log may differ."""
    state = game.state
    assert fast.players == state.players
    assert fast.owner == state.owner
    assert fast.noble_zone == state.noble_zone
    assert fast.ship_sea == state.ship_sea
    assert fast.award_holder == state.award_holder
    assert fast.crowned == state.crowned
    assert fast.mercenary_supply == state.mercenary_supply
    assert fast.mercenaries_placed == state.mercenaries_placed == 0
    assert fast.revealed == state.revealed
    assert fast.revealed_calais == state.revealed_calais
    # A card made neutral in combat goes face up onto the deck; the next draw lays it out.
    if game.is_over():
        assert fast.returned == state.returned
    else:
        assert fast.returned == state.layout[: len(fast.returned)]
    assert fast.log == [], "a quiet copy keeps no log"


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_the_fast_path_resolves_as_the_game_does(players: int, bots: str) -> None:
    turns = 0
    for seed in range(12):
        game = Game(players, seed=seed)
        seats = [make_wotr_bot(bots, seed=seed * 8 + s) for s in range(players)]
        while not game.is_over():
            if game.phase is not Phase.PLANNING:
                seat = game.awaiting()[0]
                game.apply(seat, seats[seat].act(game.view(seat)))
                continue
            plans: dict[int, Action] = {s: seats[s].act(game.view(s)) for s in game.awaiting()}
            *first, last = plans
            for seat in first:
                game.apply(seat, plans[seat])
            fast = game.state.clone()
            untouched = copy.deepcopy(game.state)
            last_plan = plans[last]
            assert isinstance(last_plan, Orders)
            fast.orders[last] = last_plan
            resolve_reveal(fast)
            assert game.state == untouched, "resolving a copy changed the game"
            game.apply(last, plans[last])
            same_turn_result(fast, game)
            turns += 1
    assert turns == 12 * 5


def test_the_reveal_needs_every_plan() -> None:
    state = Game(2, seed=1).state.clone()
    with pytest.raises(ValueError, match=r"missing seats \[0, 1\]"):
        resolve_reveal(state)
