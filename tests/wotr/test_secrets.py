"""Hidden information in the JSON a client receives (WR-20): through whole random games,
no seat's view and no spectator's view depends on another seat's sealed plan, nor during
Planning on another seat's money or mercenary tokens (both lie on the Planning chart,
behind the screen). Changing those secrets must leave the JSON unchanged."""

from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from roses.bots.wotr import make_wotr_bot
from roses.wotr import Game, Orders, Phase
from roses.wotr.actions import Unseal

from .helpers import NO_SHRINK

# A plan nobody would make: if any of it reached another seat's view, the JSON would change.
DECOY = Orders(calais_bid=97, calais_zone="SE", troops={"london": 19}, bribes={"percy": "black"})


def shown(game: Game, viewer: int | None) -> str:
    return json.dumps(game.view(viewer).to_json(), sort_keys=True)


def with_other_secrets(game: Game, viewer: int | None) -> Game:
    """The same game with every other seat's sealed plan (and, while planning, money and
    mercenaries) changed."""
    shared = (game.board, game.state.log, game.history)  # not secret: no need to copy
    other = copy.deepcopy(game, {id(part): part for part in shared})
    state = other.state
    for seat in list(state.orders):
        if seat != viewer:
            state.orders[seat] = DECOY if state.orders[seat] != DECOY else Orders()
    if state.phase is Phase.PLANNING:
        for seat, player in enumerate(state.players):
            if seat != viewer:
                player.money += 1000
                player.mercenaries += 7
    return other


def check_views(game: Game) -> None:
    for viewer in [*range(game.players), None]:
        data = game.view(viewer).to_json()
        if game.phase is Phase.PLANNING:
            assert shown(with_other_secrets(game, viewer), viewer) == shown(game, viewer)
        for secret in ("money", "mercenaries"):  # WR-20: one rule for both
            if game.phase is Phase.PLANNING:
                hidden = [m for seat, m in enumerate(data[secret]) if seat != viewer]
                assert hidden == [None] * len(hidden)
                if viewer is not None:
                    assert data[secret][viewer] is not None
            else:
                assert None not in data[secret]
        if viewer is not None and viewer in game.state.orders:
            assert data["my_orders"] == game.state.orders[viewer].to_json()["orders"]
            assert data["my_preview"]["money"] == game.state.players[viewer].money


@settings(max_examples=12, deadline=None, derandomize=True, phases=NO_SHRINK)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**16))
def test_no_view_reveals_another_seats_plan_or_money(players: int, seed: int) -> None:
    bots = [make_wotr_bot("random", seed=seed * 5 + s) for s in range(players)]
    game = Game(players, seed=seed)
    check_views(game)
    while not game.is_over():
        seat = game.awaiting()[0]
        game.apply(seat, bots[seat].act(game.view(seat)))
        if seat in game.state.orders and seat % 2 == 0:
            game.apply(seat, Unseal())  # plan again, as a person might
            game.apply(seat, bots[seat].act(game.view(seat)))
        check_views(game)
    result = game.outcome()
    assert result is not None
    assert game.view(None).to_json()["outcome"] == {
        **result.to_json(),
        "standings": result.standings(),
    }


def test_the_view_json_carries_what_a_browser_draws_and_acts_on() -> None:
    """Everything for the map, the scores, the draft, French Aid and the planning form."""
    game = Game(4, seed=3)
    data = json.loads(json.dumps(game.view(game.awaiting()[0]).to_json()))
    for key in (
        "phase",
        "turn",
        "awaiting",
        "picks",
        "layout",
        "owner",
        "noble_zone",
        "ship_sea",
        "vp",
        "vp_by_source",
        "money",
        "calais",
        "award_holder",
        "crowned",
        "log",
        "sealed",
        "my_orders",
        "my_preview",
        "can_unseal",
        "french_aid_offer",
        "planning_options",
        "houses",
        "seats",
        "order",
        "mercenaries",
        "outcome",
    ):
        assert key in data, key
    assert data["phase"] == "draw cards" and len(data["picks"]) == 12
    assert data["picks"][0] == data["awaiting"][0]
    assert {"n": 0, "turn": 1, "phase": "turn order"}.items() <= data["log"][0].items()
    bots = [make_wotr_bot("random", seed=s) for s in range(4)]
    while game.phase is not Phase.PLANNING:
        seat = game.awaiting()[0]
        game.apply(seat, bots[seat].act(game.view(seat)))
    seat = game.awaiting()[0]
    options = game.view(seat).to_json()["planning_options"]
    mine = game.view(seat).owned(seat, "noble")
    assert set(options["noble_moves"]) == set(mine)
    assert options["calais_zones"] == ["MI", "SE"] and options["troop_cost"] == 3
    assert game.view(None).to_json()["planning_options"] is None
