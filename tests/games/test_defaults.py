"""What ``GameModule`` gives a game that writes only its core: a countdown without bots,
where the seats take turns taking 1 or 2 from a pile and whoever takes the last wins."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import pytest

from roses.games import (
    JSON,
    Forfeit,
    GameModule,
    IllegalAction,
    InvalidInput,
    OptionField,
    Outcome,
    Playthrough,
    bots_offered,
    with_bots,
)
from roses.games.base import TableTalk, TimeoutRule


class Countdown(GameModule[list[int], int]):
    """The state is ``[pile, seat to move, last taker, players]``; an action is how many
    to take."""

    name = "countdown"
    title = "Countdown"
    player_counts = (2, 3)
    option_fields = (OptionField("long", "A pile of 12 instead of 5", False, (2,)),)

    def setup(self, seed: int, players: int, options: Mapping[str, JSON]) -> JSON:
        return {"pile": 12 if options["long"] else 5}

    def restore(self, deal: JSON, players: int, options: Mapping[str, JSON]) -> list[int]:
        return [deal["pile"], 0, -1, players]

    def to_act(self, state: list[int]) -> tuple[int, ...]:
        return (state[1],) if state[0] else ()

    def parse_action(self, raw: JSON) -> int:
        if raw not in (1, 2) or isinstance(raw, bool):
            raise InvalidInput("take 1 or 2")
        return int(raw)

    def action_json(self, action: int) -> JSON:
        return action

    def apply(self, state: list[int], seat: int, action: int) -> None:
        if seat != state[1] or action > state[0]:
            raise IllegalAction("not now")
        state[0] -= action
        state[1], state[2] = (seat + 1) % state[3], seat

    def view(self, state: list[int], seat: int | None) -> dict[str, JSON]:
        return {"pile": state[0], "to_move": state[1]}

    def outcome(self, state: list[int]) -> Outcome | None:
        if state[0]:
            return None
        return Outcome(tuple(int(seat != state[2]) for seat in range(state[3])), {})


COUNTDOWN = Countdown()


def played(players: int, actions: list[tuple[int, int]]) -> Playthrough[list[int], int]:
    options = COUNTDOWN.parse_options(players, {})
    deal = COUNTDOWN.setup(0, players, options)
    state = COUNTDOWN.restore(deal, players, options)
    for seat, action in actions:
        COUNTDOWN.apply(state, seat, action)
    return Playthrough(players, options, deal, tuple(actions), state)


def test_options_are_checked_against_their_fields() -> None:
    assert COUNTDOWN.parse_options(2, {}) == {"long": False}
    assert COUNTDOWN.parse_options(2, {"long": True}) == {"long": True}
    refused: list[tuple[int, dict[str, Any], str]] = [
        (4, {}, "Countdown cannot be played by this number of players (4); choose 2, 3"),
        (2, {"long": 1}, "the option 'long' is true or false"),
        (3, {"long": True}, "the option 'long' is not offered for this number of players (3)"),
        (2, {"fast": True}, "Countdown has no option 'fast'"),
    ]
    for players, raw, reason in refused:
        with pytest.raises(InvalidInput, match=re.escape(reason)):
            COUNTDOWN.parse_options(players, raw)


def test_seats_are_numbered_each_its_own_team_and_act_when_awaited() -> None:
    assert COUNTDOWN.seat_labels(3, {}) == ["Seat 1", "Seat 2", "Seat 3"]
    assert COUNTDOWN.teams(3) == (0, 1, 2)
    state = played(3, []).state
    assert [COUNTDOWN.may_act(state, seat) for seat in range(3)] == [True, False, False]
    assert COUNTDOWN.table_talk(state) is TableTalk.FREE and COUNTDOWN.materials(3, {}) == {}
    assert COUNTDOWN.tutorial() is None


def test_a_forfeit_puts_the_seat_last_and_the_others_first() -> None:
    state = played(3, [(0, 1)]).state
    outcome = COUNTDOWN.forfeit(state, 3, 1, Forfeit.TIME)
    assert outcome == Outcome((0, 1, 0), {"termination": "time", "forfeited": 1})


def test_without_bots_time_running_out_loses_and_nobody_stands_in() -> None:
    assert with_bots(COUNTDOWN) is None and bots_offered(COUNTDOWN) == {}
    for players in (2, 3):
        assert COUNTDOWN.timeout_rule(players, live=True) is TimeoutRule.LOSS
        assert COUNTDOWN.timeout_rule(players, live=False) is TimeoutRule.CLAIM
    with pytest.raises(TypeError, match="countdown has no bots"):
        COUNTDOWN.stand_in(played(2, []).state, 0)


def test_the_record_holds_what_plays_the_game_again_and_the_replay_each_view() -> None:
    game = played(2, [(0, 2), (1, 2), (0, 1)])
    record = json.loads(json.dumps(COUNTDOWN.record(game, ["ann", "bob"])))
    assert record == {
        "game": "countdown",
        "names": ["ann", "bob"],
        "players": 2,
        "options": {"long": False},
        "deal": {"pile": 5},
        "actions": [[0, 2], [1, 2], [0, 1]],
    }
    again = COUNTDOWN.restore(record["deal"], 2, record["options"])
    for seat, action in record["actions"]:
        COUNTDOWN.apply(again, seat, COUNTDOWN.parse_action(action))
    assert COUNTDOWN.outcome(again) == COUNTDOWN.outcome(game.state) == Outcome((0, 1), {})
    frames: list[Any] = COUNTDOWN.replay(game, None)
    assert [frame["pile"] for frame in frames] == [5, 3, 1, 0]
