"""Actions to and from JSON (WR-7, WR-9, WR-10): one parser for records, terminals and
clients, with errors that name the field, and a parse error or an illegal action changes
nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roses.wotr import Game, IllegalActionError, Orders, Phase, Pick
from roses.wotr.actions import FrenchAid, Unseal, action_from_json


@pytest.mark.parametrize(
    "action",
    [
        Pick("windsor"),
        FrenchAid(True),
        FrenchAid(False),
        Unseal(),
        Orders(),
        Orders(
            3,
            "SE",
            {"stafford": "WC"},
            {"ship-of-sandwich": "MI-sea"},
            {"windsor": 2},
            {"london": 1},
            {"percy": "black", "stafford": "white"},
        ),
    ],
)
def test_every_action_round_trips_through_json(action: Any) -> None:
    text = json.dumps(action.to_json())
    assert action_from_json(json.loads(text)) == action


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], r"^action: must be a JSON object: \{\"pick\": CARD\}"),
        ({}, r"^action: must hold exactly one action, not nothing"),
        ({"pick": "a", "unseal": True}, r"^action: must hold exactly one action, not pick, unseal"),
        ({"move": 1}, r"^action: unknown action 'move'"),
        ({"pick": 3}, r"^pick: must be a card id, not 3$"),
        ({"french_aid": "yes"}, r'^french_aid: must be true or false, not "yes"$'),
        ({"unseal": False}, r"^unseal: must be true, not false$"),
        ({"orders": []}, r"^orders: must be a JSON object with any of calais, noble_moves"),
        ({"orders": {"attack": {}}}, r"^orders.attack: is not part of a plan"),
        ({"orders": {"calais": 5}}, r'^orders.calais: must be \{"bid": N, "zone": ZONE\}$'),
        (
            {"orders": {"calais": {"bid": "5"}}},
            r'^orders.calais.bid: must be a whole number, not "5"$',
        ),
        (
            {"orders": {"troops": {"windsor": 1.5}}},
            r"^orders.troops.windsor: must be a whole number, not 1.5$",
        ),
        (
            {"orders": {"troops": {"windsor": True}}},
            r"^orders.troops.windsor: must be a whole number, not true$",
        ),
        (
            {"orders": {"troops": [1]}},
            r"^orders.troops: must map Locations to numbers of troops, not \[1\]$",
        ),
        (
            {"orders": {"noble_moves": {"percy": 2}}},
            r"^orders.noble_moves.percy: must be a zone id, not 2$",
        ),
        (
            {"orders": {"bribes": {"percy": "hit"}}},
            r'^orders.bribes.percy: must be "white" or "black", not "hit"$',
        ),
    ],
)
def test_parse_errors_name_the_field(data: object, message: str) -> None:
    with pytest.raises(IllegalActionError, match=message):
        action_from_json(data)


def test_a_bad_action_changes_nothing() -> None:
    """A parse error, a wrong seat or an illegal pick leaves the game as it was."""
    game = Game(3, seed=5)
    before = copy.deepcopy(game.state), list(game.history)
    seat = game.awaiting()[0]
    other = next(s for s in range(3) if s != seat)
    for attempt in (
        lambda: game.apply(seat, action_from_json({"pick": 7})),
        lambda: game.apply(other, Pick(game.state.layout[0])),
        lambda: game.apply(seat, Pick("atlantis")),
        lambda: game.apply(seat, Orders()),
    ):
        with pytest.raises(IllegalActionError):
            attempt()
        assert (game.state, game.history) == before


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=3)
    ),
    max_leaves=10,
)
actions = st.dictionaries(
    st.sampled_from(["pick", "french_aid", "unseal", "orders", "other"]), json_values, max_size=2
) | st.fixed_dictionaries(
    {
        "orders": st.dictionaries(
            st.sampled_from(["calais", "troops", "bribes", "noble_moves"]), json_values, max_size=3
        )
    }
)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(data=actions)
def test_any_json_parses_or_is_refused_and_changes_nothing(data: dict[str, Any]) -> None:
    """Invariant: any JSON is either an action whose JSON form parses back to itself, or
    an ``IllegalActionError``; applying it either works or is refused without a change."""
    try:
        action = action_from_json(data)
    except IllegalActionError as error:
        assert error.field.split(".")[0] in ("action", *data)
        return
    assert action_from_json(action.to_json()) == action
    game = Game(2, seed=3)
    while game.phase is Phase.DRAW:
        game.apply(game.awaiting()[0], Pick(game.state.layout[0]))
    before = copy.deepcopy(game.state)
    seat = game.awaiting()[0]
    if isinstance(action, Orders):  # the planner's preview copes with any parsed plan
        preview = game.view(seat).preview(action)
        assert preview.left >= 0 and bool(preview.faults) == bool(game.view(seat).check(action))
    try:
        game.apply(seat, action)
    except IllegalActionError:
        assert game.state == before


def test_a_refusal_crosses_processes_intact() -> None:
    """Match games run in worker processes: a refusal must unpickle, not break the pool."""
    import pickle

    from roses.wotr.errors import IllegalActionError

    error = IllegalActionError("troops", "{count} troops, more than {most}", count=22, most=20)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.field, copy.template, copy.params, str(copy)) == (
        error.field, error.template, error.params, str(error))  # fmt: skip
