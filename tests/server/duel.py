"""A tiny third game that exists only in the tests, to show that the server carries any
game through ``roses.games`` alone: two seats bid at once in secret, then speak in turn.

Each seat also holds a secret code from the deal, which only that seat may ever see. It
relies on ``GameModule``'s defaults for everything but the core.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from roses.games import JSON, GameModule, IllegalAction, InvalidInput, Outcome


@dataclass(frozen=True)
class Bid:
    amount: int  # 0 to 10, in secret


@dataclass(frozen=True)
class Say:
    words: str  # at most 20 characters, once the bids are in


DuelAction = Bid | Say


@dataclass
class DuelState:
    codes: list[str]
    bids: dict[int, int] = field(default_factory=dict)
    said: list[str] = field(default_factory=list)


class Duel(GameModule[DuelState, DuelAction]):
    name = "duel"
    title = "Duel of bids"
    player_counts: tuple[int, ...] = (2,)
    private_fields = ("my_bid", "my_code")

    def seat_labels(self, players: int, options: Mapping[str, JSON]) -> list[str]:
        return ["North", "South"]

    def setup(self, seed: int, players: int, options: Mapping[str, JSON]) -> JSON:
        rng = random.Random(seed)
        return {"codes": [f"code-{rng.randrange(10**8, 10**9)}" for _ in range(players)]}

    def restore(self, deal: JSON, players: int, options: Mapping[str, JSON]) -> DuelState:
        return DuelState(codes=list(deal["codes"]))

    def materials(self, players: int, options: Mapping[str, JSON]) -> dict[str, JSON]:
        return {"rules": "bid 0 to 10 in secret; the higher bid wins"}

    def to_act(self, state: DuelState) -> tuple[int, ...]:
        if len(state.bids) < 2:
            return tuple(seat for seat in (0, 1) if seat not in state.bids)  # at once
        return (len(state.said),) if len(state.said) < 2 else ()

    def parse_action(self, raw: JSON) -> DuelAction:
        if isinstance(raw, dict) and set(raw) == {"bid"} and raw["bid"] in range(11):
            return Bid(raw["bid"])
        if isinstance(raw, dict) and set(raw) == {"say"} and isinstance(raw["say"], str):
            return Say(raw["say"][:20])
        raise InvalidInput('an action is {"bid": 0..10} or {"say": "a word"}')

    def action_json(self, action: DuelAction) -> JSON:
        return {"bid": action.amount} if isinstance(action, Bid) else {"say": action.words}

    def apply(self, state: DuelState, seat: int, action: DuelAction) -> None:
        if seat not in self.to_act(state):
            raise IllegalAction("it is not your turn")
        if isinstance(action, Bid):
            if len(state.bids) == 2:
                raise IllegalAction("the bids are in: say something")
            state.bids[seat] = action.amount
        else:
            if len(state.bids) < 2:
                raise IllegalAction("bid first")
            state.said.append(action.words)

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

    def fallback_action(self, bot_input: Any, rng: random.Random) -> DuelAction:
        return self.parse_action(self.bot_action("steady", bot_input, 0.0, 0))


DUEL = Duel()
