"""Wars of the Roses through the server's game interface only (roses.games.wotr): what each
seat sees (WR-20), bad input, the outcome (WR-18), records and bots. What every game shares
(random games, restore and replay, private fields) is tests/games/test_every_game.py."""

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

from roses.games import IllegalAction, InvalidInput, Playthrough
from roses.games.wotr import BOARD_WORDS, WOTR
from roses.wotr import Game, Orders, Phase, default_board, parse_board, replay
from roses.wotr.actions import Pick, Unseal
from roses.wotr.phases.planning import presence
from tests.server.hidden import walk
from tests.wotr.helpers import game_at, give

Log = list[tuple[int, Any]]


def new_game(players: int, seed: int) -> tuple[Any, Game]:
    deal = WOTR.setup(seed, players, {})
    return deal, WOTR.restore(json.loads(json.dumps(deal)), players, {})


def step(game: Game, rng: random.Random) -> tuple[int, Any]:
    """One random legal action of one of the seats the game waits for."""
    seat = rng.choice(WOTR.to_act(game))
    action = WOTR.fallback_action(WOTR.bot_input(game, seat), rng)
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


def test_a_game_is_fixed_by_its_seed() -> None:
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
    WOTR.apply(game, first, orders)
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
    WOTR.apply(game, order[0], Pick(game.state.layout[0]))
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


def test_a_drafts_preview_is_the_engines_reckoning_for_its_seat() -> None:
    """WR-11 and WR-10: the preview the server answers a saved draft with is the engine's
    preview of that plan for the seat (cost, money left, what a shortfall cancels, the
    faults) and the zones where the seat would be present with its nobles' moves."""
    game = planning_game(4, 12)
    rng = random.Random(12)
    shortfalls = 0
    for seat in WOTR.to_act(game):
        for _ in range(20):
            orders = WOTR.action_json(WOTR.fallback_action(WOTR.bot_input(game, seat), rng))[
                "orders"
            ]
            for location in list(orders.get("troops", {}))[:2]:  # often short of money
                orders["troops"][location] += rng.randint(0, 6)
            draft = json.loads(json.dumps({"turn": game.turn, "orders": orders}))
            preview = WOTR.preview(game, seat, draft)
            plan = Orders.from_json(orders)
            expected = game.view(seat).preview(plan).to_json()
            assert {k: v for k, v in preview.items() if k != "present"} == expected
            assert preview["present"] == sorted(presence(game.view(seat), seat, plan))
            shortfalls += bool(preview["cancelled"])
    assert shortfalls >= 5  # the paying order of a shortfall was exercised


def test_a_noble_moving_is_present_in_both_zones_in_the_preview_wr10() -> None:
    game = game_at(2, phase=Phase.PLANNING, turn=2, money=20)
    give(game.state, 0, "percy", "windsor")  # Percy at home in the Northern Marches
    still = WOTR.preview(game, 0, {"turn": 2, "orders": {}})["present"]
    assert "NE" not in still
    moved = WOTR.preview(game, 0, {"turn": 2, "orders": {"noble_moves": {"percy": "NE"}}})
    assert moved["present"] == sorted({*still, "NE"})


@pytest.mark.parametrize(
    ("draft", "field"),
    [
        ([1, 2], "draft"),
        ({"orders": {"troops": {"windsor": "many"}}}, "orders.troops.windsor"),
        ({"orders": {"fleet": {}}}, "orders.fleet"),
        ({"orders": "all in"}, "orders"),
    ],
)
def test_a_malformed_draft_gets_a_preview_that_says_what_is_wrong(draft: Any, field: str) -> None:
    game = planning_game(2, 5)
    preview = WOTR.preview(game, WOTR.to_act(game)[0], draft)
    assert preview["problem"]["field"] == field and preview["problem"]["message"]


def test_a_plan_naming_what_is_not_there_is_previewed_with_its_faults() -> None:
    game = planning_game(2, 5)
    seat = WOTR.to_act(game)[0]
    orders = {"troops": {"nowhere": 3}, "bribes": {"nobody": "black"},
              "noble_moves": {"ghost": "NE"}, "calais": {"bid": 999, "zone": "X"}}  # fmt: skip
    preview = WOTR.preview(game, seat, {"turn": game.turn, "orders": orders})
    assert preview["faults"] and "problem" not in preview


PLAN_WORDS = st.sampled_from(
    ["calais", "bid", "zone", "troops", "mercenaries", "bribes", "noble_moves", "ship_moves",
     "percy", "windsor", "york", "neville", "white", "black", "NE", "SE", "orders", "turn"]
)  # fmt: skip
ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | PLAN_WORDS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(PLAN_WORDS, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(orders=ANY_JSON)
def test_any_draft_gets_a_preview_and_never_an_exception(orders: Any) -> None:
    """The server previews whatever a client saves: a plan the game would refuse gets its
    faults, a malformed one a ``problem``; never an exception (a 500)."""
    game = game_at(2, phase=Phase.PLANNING, turn=2, money=20)
    give(game.state, 0, "percy", "windsor")
    give(game.state, 1, "york", "neville")
    for draft in ({"turn": 2, "orders": orders}, orders):
        json.dumps(WOTR.preview(game, 0, draft))


def test_nothing_is_previewed_outside_the_seats_planning() -> None:
    game = planning_game(3, 4)
    first = WOTR.to_act(game)[0]
    assert WOTR.preview(game, first, {"turn": game.turn - 1, "orders": {}}) is None  # stale
    WOTR.apply(game, first, Orders())
    assert WOTR.preview(game, first, {"turn": game.turn, "orders": {}}) is None  # sealed
    drawing, _ = new_game(2, 1)
    assert WOTR.preview(WOTR.restore(drawing, 2, {}), 0, {"orders": {}}) is None


def test_a_preview_depends_on_nothing_another_seat_hides_wr20() -> None:
    """The preview is the seat's own reckoning: others' money and sealed plans, behind
    their screens, change nothing in it."""
    game = planning_game(3, 7)
    me, *others = WOTR.to_act(game)
    draft = {"turn": game.turn, "orders": {"calais": {"bid": 2, "zone": "SE"}}}
    before = WOTR.preview(game, me, draft)
    for other in others:
        game.state.players[other].money += 17
    WOTR.apply(
        game, others[0], WOTR.fallback_action(WOTR.bot_input(game, others[0]), random.Random(1))
    )
    assert WOTR.preview(game, me, draft) == before


def test_a_sealed_plan_can_be_taken_back_until_the_last_seal() -> None:
    game = planning_game(3, 4)
    first, *others = WOTR.to_act(game)
    WOTR.apply(game, first, Orders())
    assert first not in WOTR.to_act(game)
    assert WOTR.may_act(game, first)  # the server lets the seat in to take it back
    assert WOTR.view(game, first)["state"]["can_unseal"]  # WR-10
    WOTR.apply(game, first, WOTR.parse_action({"unseal": True}))
    assert first in WOTR.to_act(game)
    assert WOTR.view(game, first)["state"]["my_orders"] is None
    for seat in (first, *others):
        WOTR.apply(game, seat, Orders())
    assert game.phase is not Phase.PLANNING  # the last seal reveals every plan at once
    assert [WOTR.may_act(game, seat) for seat in range(3)] == [
        seat in WOTR.to_act(game) for seat in range(3)
    ]
    with pytest.raises(IllegalAction, match="no plans are sealed"):
        WOTR.apply(game, first, Unseal())


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
        WOTR.apply(game, 1 - seat, Pick(game.state.layout[0]))
    with pytest.raises(IllegalAction, match="is not laid out"):
        WOTR.apply(game, seat, Pick("no-such-card"))
    with pytest.raises(IllegalAction, match="no orders are given in draw cards"):
        WOTR.apply(game, seat, Orders())
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
        assert WOTR.parse_action(WOTR.action_json(action)) == action


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


def played(deal: Any, game: Game, log: Log) -> Playthrough[Game, Any]:
    return Playthrough(game.players, {}, deal, tuple(log), game)


def test_the_record_replays_to_the_same_result() -> None:
    deal, game, log = play(3, 6)
    record = json.loads(json.dumps(WOTR.record(played(deal, game, log), ["ann", "bob", "cy"])))
    assert record["names"] == ["ann", "bob", "cy"]
    assert len(record["actions"]) == len(log)
    assert replay(record).outcome() == game.outcome()


def test_replay_frames_one_per_action_as_the_seat_sees_them() -> None:
    deal, game, log = play(2, 8)
    for seat in viewers(2):
        frames = WOTR.replay(played(deal, game, log), seat)
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
    with pytest.raises(InvalidInput, match="choose 2, 3, 4"):
        WOTR.parse_options(5, {})
    with pytest.raises(InvalidInput, match="no option 'light'"):
        WOTR.parse_options(2, {"light": True})
    assert WOTR.seat_labels(2, {}) == ["Red", "Yellow"]
