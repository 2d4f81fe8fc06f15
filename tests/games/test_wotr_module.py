"""Wars of the Roses through the server's game interface only (roses.games.wotr): complete
random games, restore and replay, what each seat sees (WR-20), bad input, the outcome
(WR-18), records and bots."""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roses.games import IllegalAction, InvalidInput
from roses.games.wotr import BOARD_WORDS, WOTR
from roses.server.views import ENVELOPE_KEYS
from roses.wotr import Game, Orders, Phase, default_board, parse_board, replay
from roses.wotr.payment import charges
from tests.server.hidden import walk
from tests.wotr.helpers import game_at

Log = list[tuple[int, Any]]


def new_game(players: int, seed: int) -> tuple[Any, Game]:
    deal = WOTR.setup(seed, players, {})
    return deal, WOTR.restore(json.loads(json.dumps(deal)), players, {})


def step(game: Game, rng: random.Random) -> tuple[int, Any]:
    """One random legal action of one of the seats the game waits for."""
    seat = rng.choice(WOTR.to_act(game))
    action = WOTR.parse_action(WOTR.fallback_action(WOTR.bot_input(game, seat), rng))
    WOTR.apply(game, seat, action)
    return seat, action


def play(players: int, seed: int) -> tuple[Any, Game, Log]:
    deal, game = new_game(players, seed)
    rng, log = random.Random(seed), []
    while WOTR.to_act(game):
        log.append(step(game, rng))
    return deal, game, log


def viewers(players: int) -> list[int | None]:
    return [None, *range(players)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_and_replay_from_the_log(players: int) -> None:
    for seed in range(3):
        deal, game, log = play(players, seed)
        outcome = WOTR.outcome(game)
        assert outcome is not None and sorted(outcome.ranks)[0] == 0
        restored = WOTR.restore(deal, players, {})
        for seat, action in log:
            WOTR.apply(restored, seat, json.loads(json.dumps(action)))
        for viewer in viewers(players):
            assert WOTR.view(restored, viewer) == WOTR.view(game, viewer)
        assert WOTR.outcome(restored) == outcome


def test_a_game_is_fixed_by_its_seed() -> None:
    assert WOTR.setup(7, 4, {}) == WOTR.setup(7, 4, {})
    assert WOTR.setup(7, 4, {}) != WOTR.setup(8, 4, {})
    assert WOTR.setup(7, 2, {})["houses"] is None  # WR-19: no houses with 2 or 3 players
    assert sorted(WOTR.setup(7, 4, {})["houses"]) == ["Lancaster"] * 2 + ["York"] * 2  # WR-4


@contextmanager
def others_changed(game: Game, viewer: int | None) -> Iterator[None]:
    """Every seat but ``viewer`` with 17 pounds more and, if sealed, another plan."""
    state = game.state
    saved_money = [player.money for player in state.players]
    saved_orders = dict(state.orders)
    for seat, player in enumerate(state.players):
        if seat != viewer:
            player.money += 17
            if seat in state.orders:
                state.orders[seat] = Orders(calais_bid=1, calais_zone="MI")
    try:
        yield
    finally:
        for player, money in zip(state.players, saved_money, strict=True):
            player.money = money
        state.orders = saved_orders


def secrets_hidden(game: Game) -> int:
    """WR-20: while planning, nobody's view changes with another seat's money or plan;
    the deck's order is never shown. Returns how many views were checked."""
    checked = 0
    deck = game.state.deck
    for viewer in viewers(game.players):
        view = WOTR.view(game, viewer)
        for node in walk(view):  # no secret key anywhere
            assert len(deck) < 2 or node != deck, "the deck's order was sent"
        money = view["state"]["money"]
        if game.phase is not Phase.PLANNING:  # WR-20: the screens are put aside
            assert None not in money
        else:
            others = [m for seat, m in enumerate(money) if seat != viewer]
            assert others == [None] * len(others)
            with others_changed(game, viewer):
                assert WOTR.view(game, viewer) == view, f"seat {viewer} learns of others' plans"
            checked += 1
    return checked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_view_shows_others_plans_or_money_while_planning(players: int) -> None:
    _, game = new_game(players, 11)
    rng, checked = random.Random(11), 0
    while WOTR.to_act(game):
        checked += secrets_hidden(game)
        step(game, rng)
    assert checked >= 5 * players * (players + 1)  # every seat sealing, every turn


def test_a_viewer_sees_their_own_sealed_plan_and_nobody_elses() -> None:
    _, game = new_game(2, 3)
    rng = random.Random(3)
    while game.phase is not Phase.PLANNING:
        step(game, rng)
    first = WOTR.to_act(game)[0]
    orders = Orders(calais_bid=1, calais_zone="SE")
    WOTR.apply(game, first, orders.to_json())
    assert WOTR.view(game, first)["state"]["my_orders"] == orders.to_json()["orders"]
    other = 1 - first
    assert WOTR.view(game, other)["state"]["my_orders"] is None
    assert WOTR.view(game, other)["state"]["sealed"] == [WOTR.seat_labels(2, {})[first]]
    assert WOTR.view(game, None)["state"]["my_orders"] is None


def test_the_draft_shows_whose_pick_in_snake_order_on_turn_1() -> None:
    _, game = new_game(4, 5)
    order = game.state.order
    names = WOTR.seat_labels(4, {})
    picks = WOTR.view(game, None)["state"]["picks"]
    assert len(picks) == 12  # WR-7: 12 cards on turn 1 with 4 players
    assert picks[:8] == [names[s] for s in [*order, *order[::-1]]]  # WR-7: snake
    WOTR.apply(game, order[0], {"pick": game.state.layout[0]})
    assert WOTR.view(game, None)["state"]["picks"] == picks[1:]


def test_french_aid_is_offered_to_the_seat_it_waits_for() -> None:
    _, game = new_game(3, 2)
    rng = random.Random(2)
    while game.phase is not Phase.INCOME:
        step(game, rng)
    (seat,) = WOTR.to_act(game)
    offer = WOTR.view(game, seat)["state"]["french_aid_offer"]
    assert offer == game.french_aid_offer(seat) > 0  # WR-9: the leader's score minus one's own
    assert WOTR.view(game, None)["state"]["french_aid_offer"] == 0


def planning_game(players: int, seed: int) -> Game:
    _, game = new_game(players, seed)
    rng = random.Random(seed)
    while game.phase is not Phase.PLANNING or game.turn < 2:
        step(game, rng)
    return game


def test_the_paying_order_is_the_engines_for_any_plan() -> None:
    """WR-11: the form's paying order, cut down to a plan's parts, is the order in which
    deployment pays for that plan."""
    game = planning_game(4, 12)
    rng = random.Random(12)
    for seat in WOTR.to_act(game):
        pay_order = WOTR.view(game, seat)["pay_order"]
        for _ in range(30):
            orders = Orders.from_json(
                WOTR.fallback_action(WOTR.bot_input(game, seat), rng)["orders"]
            )
            wanted = [(c.kind, c.card) for c in charges(game.view(seat), orders)]
            cut = [(c["kind"], c["card"]) for c in pay_order if (c["kind"], c["card"]) in wanted]
            assert cut == wanted
    assert WOTR.view(game, None)["pay_order"] is None
    seat = WOTR.to_act(game)[0]
    WOTR.apply(game, seat, {"orders": {}})
    assert WOTR.view(game, seat)["pay_order"] is None  # sealed: nothing left to plan


def test_a_sealed_plan_can_be_taken_back_until_the_last_seal() -> None:
    game = planning_game(3, 4)
    first, *others = WOTR.to_act(game)
    WOTR.apply(game, first, {"orders": {}})
    assert first not in WOTR.to_act(game)
    assert WOTR.may_act(game, first)  # the server lets the seat in to take it back
    assert WOTR.view(game, first)["state"]["can_unseal"]  # WR-10
    WOTR.apply(game, first, WOTR.parse_action({"unseal": True}))
    assert first in WOTR.to_act(game)
    assert WOTR.view(game, first)["state"]["my_orders"] is None
    for seat in (first, *others):
        WOTR.apply(game, seat, {"orders": {}})
    assert game.phase is not Phase.PLANNING  # the last seal reveals every plan at once
    assert [WOTR.may_act(game, seat) for seat in range(3)] == [
        seat in WOTR.to_act(game) for seat in range(3)
    ]
    with pytest.raises(IllegalAction, match="no plans are sealed"):
        WOTR.apply(game, first, {"unseal": True})


def test_bad_input_is_refused_with_its_reason_and_changes_nothing() -> None:
    _, game = new_game(2, 1)
    before = [WOTR.view(game, seat) for seat in viewers(2)]
    for raw, reason in [
        ("york", "action"),
        ({"pick": 3}, "pick: must be a card id"),
        ({"unseal": False}, "unseal: must be true"),
        ({"orders": {"troops": {"york": "two"}}}, "orders.troops.york"),
        ({"orders": {"navy": {}}}, "orders.navy"),
    ]:
        with pytest.raises(InvalidInput, match=reason):
            WOTR.parse_action(raw)
    (seat,) = WOTR.to_act(game)
    with pytest.raises(IllegalAction, match="may not act now"):
        WOTR.apply(game, 1 - seat, {"pick": game.state.layout[0]})
    with pytest.raises(IllegalAction, match="is not laid out"):
        WOTR.apply(game, seat, {"pick": "no-such-card"})
    with pytest.raises(IllegalAction, match="no orders are given in draw cards"):
        WOTR.apply(game, seat, {"orders": {}})
    assert [WOTR.view(game, seat) for seat in viewers(2)] == before


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 30) | st.sampled_from(["york", "MI", "white"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["pick", "french_aid", "orders", "troops", "calais", "bid", "zone"]),
            inner,
            max_size=3,
        )
    ),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES)
def test_any_json_is_an_action_in_one_form_or_refused(raw: Any) -> None:
    try:
        action = WOTR.parse_action(raw)
    except InvalidInput as error:
        assert error.message
    else:
        assert WOTR.parse_action(action) == action


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ranks_follow_the_final_vp_and_its_tie_breaks(players: int) -> None:
    for seed in range(4):
        _, game, _ = play(players, seed)
        outcome = WOTR.outcome(game)
        assert outcome is not None
        vp = outcome.summary["vp"]
        by_rank = sorted(range(players), key=lambda seat: outcome.ranks[seat])
        # WR-18: more VP ranks higher; equal VP is settled by the tie-breaks, not by seat.
        assert [vp[s] for s in by_rank] == sorted(vp, reverse=True)
        names = WOTR.seat_labels(players, {})
        assert outcome.summary["ranking"] == [names[s] for s in by_rank]
        assert outcome.summary["winners"] == [names[by_rank[0]]]


def test_only_a_tie_on_every_tie_break_shares_a_place() -> None:
    game = game_at(3, phase=Phase.OVER)  # an empty table: nobody holds anything
    game.state.players[2].vp = 5
    outcome = WOTR.outcome(game)
    assert outcome is not None
    assert outcome.ranks == (1, 1, 0)  # WR-18: Red and Yellow equal in VP, crowns and chart
    game.state.owner["herbert"] = 0  # a noble breaks the tie (WR-18 by WR-3)
    assert WOTR.outcome(game).ranks == (1, 2, 0)  # type: ignore[union-attr]


def test_no_outcome_while_the_game_runs() -> None:
    _, game = new_game(4, 1)
    assert WOTR.outcome(game) is None


def test_the_record_replays_to_the_same_result() -> None:
    _, game, log = play(3, 6)
    record = json.loads(json.dumps(WOTR.record(game, ["ann", "bob", "cy"])))
    assert record["names"] == ["ann", "bob", "cy"]
    assert len(record["actions"]) == len(log)
    assert replay(record).outcome() == game.outcome()


def test_replay_frames_one_per_action_as_the_seat_sees_them() -> None:
    _, game, log = play(2, 8)
    for seat in viewers(2):
        frames = WOTR.replay(game, seat)
        assert len(frames) == len(log) + 1
        final = WOTR.view(game, seat)
        assert {**frames[-1], "state": {**frames[-1]["state"], "log": []}} == {
            **final,
            "state": {**final["state"], "log": []},
        }
        assert sum(len(frame["state"]["log"]) for frame in frames) == len(final["state"]["log"])
        for frame in frames:
            if frame["state"]["phase"] == Phase.PLANNING.value:  # WR-20
                assert sum(money is not None for money in frame["state"]["money"]) <= 1


def test_views_leave_the_servers_keys_alone() -> None:
    game = planning_game(2, 1)
    for seat in viewers(2):
        assert not WOTR.view(game, seat).keys() & ENVELOPE_KEYS


def test_materials_are_the_public_board() -> None:
    materials = WOTR.materials(4, {})
    assert parse_board(materials["board"]).zone["NE"].votes == 9  # WR-1 known data
    assert materials["seats"] == ["Red", "Yellow", "Green", "Blue"]
    for node in walk(materials):
        assert node is not None


def test_the_catalogues_know_the_boards_names_that_are_game_terms() -> None:
    """The awards (WR-16), bishops and ships are named in each language (the places and the
    nobles keep their names): the catalogues get them from BOARD_WORDS."""
    board = default_board()
    terms = [award.name for award in board.awards]
    terms += [icon.name for icon in board.icons.values() if icon.kind in ("bishop", "ship")]
    assert sorted(BOARD_WORDS) == sorted(terms)


@pytest.mark.parametrize("bot", ["random", "heuristic", "search"])
def test_bots_play_legal_actions(bot: str) -> None:
    strengths = ("quick", "normal", "strong")
    assert WOTR.bots() == {"random": (), "heuristic": (), "search": strengths}
    _, game = new_game(4, 9)
    seed = 0
    while WOTR.to_act(game) and game.turn == 1:
        for seat in WOTR.to_act(game):
            # A bot's input travels to a bot process: it survives pickling.
            bot_input = pickle.loads(pickle.dumps(WOTR.bot_input(game, seat)))
            action = WOTR.bot_action(bot, bot_input, 0.05, seed)
            WOTR.apply(game, seat, WOTR.parse_action(action))
            seed += 1
    assert game.turn == 2


def test_options_and_seats() -> None:
    assert WOTR.parse_options(3, {}) == {}
    with pytest.raises(InvalidInput, match="2, 3 or 4"):
        WOTR.parse_options(5, {})
    with pytest.raises(InvalidInput, match="no option 'light'"):
        WOTR.parse_options(2, {"light": True})
    assert WOTR.seat_labels(2, {}) == ["Red", "Yellow"]
