"""A tiny third game that exists only in the tests, to show that the server carries any
game through ``roses.games`` alone: two seats bid at once in secret, then speak in turn.

Each seat also holds a secret code from the deal, which only that seat may ever see.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from roses.games import JSON, IllegalAction, InvalidInput, OptionField, Outcome
from roses.games.base import StandIn, TimeoutRule


@dataclass
class DuelState:
    codes: list[int]
    bids: dict[int, int] = field(default_factory=dict)
    said: list[str] = field(default_factory=list)
    log: list[tuple[int, JSON]] = field(default_factory=list)


class Duel:
    name = "duel"
    title = "Duel of bids"
    player_counts: tuple[int, ...] = (2,)
    option_fields: tuple[OptionField, ...] = ()

    def parse_options(self, players: int, raw: Mapping[str, JSON]) -> dict[str, JSON]:
        if players != 2 or raw:
            raise InvalidInput("a duel is for 2 players and has no options")
        return {}

    def seat_labels(self, players: int, options: Mapping[str, JSON]) -> list[str]:
        return ["North", "South"]

    def teams(self, players: int) -> tuple[int, ...]:
        return (0, 1)

    def setup(self, seed: int, players: int, options: Mapping[str, JSON]) -> JSON:
        rng = random.Random(seed)
        return {"codes": [rng.randrange(10**8, 10**9) for _ in range(players)]}

    def restore(self, deal: JSON, players: int, options: Mapping[str, JSON]) -> DuelState:
        return DuelState(codes=list(deal["codes"]))

    def materials(self, players: int, options: Mapping[str, JSON]) -> dict[str, JSON]:
        return {"rules": "bid 0 to 10 in secret; the higher bid wins"}

    def to_act(self, state: DuelState) -> tuple[int, ...]:
        if len(state.bids) < 2:
            return tuple(seat for seat in (0, 1) if seat not in state.bids)  # at once
        return (len(state.said),) if len(state.said) < 2 else ()

    def may_act(self, state: DuelState, seat: int) -> bool:
        return seat in self.to_act(state)

    def parse_action(self, raw: JSON) -> JSON:
        if isinstance(raw, dict) and set(raw) == {"bid"} and raw["bid"] in range(11):
            return {"bid": raw["bid"]}
        if isinstance(raw, dict) and set(raw) == {"say"} and isinstance(raw["say"], str):
            return {"say": raw["say"][:20]}
        raise InvalidInput('an action is {"bid": 0..10} or {"say": "a word"}')

    def apply(self, state: DuelState, seat: int, action: JSON) -> None:
        if seat not in self.to_act(state):
            raise IllegalAction("it is not your turn")
        if "bid" in action:
            if len(state.bids) == 2:
                raise IllegalAction("the bids are in: say something")
            state.bids[seat] = action["bid"]
        else:
            if len(state.bids) < 2:
                raise IllegalAction("bid first")
            state.said.append(action["say"])
        state.log.append((seat, action))

    def view(self, state: DuelState, seat: int | None) -> dict[str, JSON]:
        revealed = len(state.bids) == 2
        return {
            "bid_made": [s in state.bids for s in (0, 1)],  # who has bid, never how much
            "my_bid": state.bids.get(seat) if seat is not None else None,
            "bids": [state.bids[0], state.bids[1]] if revealed else None,
            "said": list(state.said),
            "my_code": state.codes[seat] if seat is not None else None,
        }

    def outcome(self, state: DuelState) -> Outcome | None:
        if self.to_act(state):
            return None
        high = max(state.bids.values())
        ranks = tuple(0 if state.bids[seat] == high else 1 for seat in (0, 1))
        return Outcome(ranks, {"bids": [state.bids[0], state.bids[1]]})

    def resign(self, state: DuelState, seat: int) -> Outcome:
        return Outcome(tuple(int(other == seat) for other in (0, 1)), {"resigned": seat})

    def timeout_rule(self, players: int, live: bool) -> TimeoutRule:
        return TimeoutRule.LOSS if live else TimeoutRule.CLAIM

    def lost_on_time(self, state: DuelState, seat: int) -> Outcome:
        return Outcome(tuple(int(other == seat) for other in (0, 1)), {"timed_out": seat})

    def stand_in(self, state: DuelState, seat: int) -> StandIn:
        return StandIn(bot="steady")

    def chat_allowed(self, state: DuelState) -> bool:
        return True

    def record(self, state: DuelState, names: Sequence[str]) -> dict[str, JSON]:
        return {"players": list(names), "codes": state.codes, "log": state.log}

    def replay(self, state: DuelState, seat: int | None) -> list[dict[str, JSON]]:
        again = DuelState(codes=state.codes)
        frames = [self.view(again, seat)]
        for mover, action in state.log:
            self.apply(again, mover, action)
            frames.append(self.view(again, seat))
        return frames

    def bots(self) -> dict[str, tuple[str, ...]]:
        return {"steady": (), "patient": ()}

    def prepare_bot(self, bot: str) -> None:
        if bot == "patient":
            time.sleep(1.0)  # like a search that compiles before its first move

    def bot_input(self, state: DuelState, seat: int) -> Any:
        return self.view(state, seat)

    def bot_action(self, bot: str, bot_input: Any, seconds: float, seed: int) -> JSON:
        bid = 9 if bot == "patient" else 5
        return {"bid": bid} if bot_input["bids"] is None else {"say": "well played"}

    def fallback_action(self, bot_input: Any, rng: random.Random) -> JSON:
        return self.bot_action("steady", bot_input, 0.0, 0)

    def tutorial(self) -> None:
        return None  # no tutorial


DUEL = Duel()
