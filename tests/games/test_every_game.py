"""Every registered game, and the test duel, through the seam alone (``roses.games``): random
play to the end, every step seen by each seat and a spectator, the views JSON-ready and
keeping each seat's secrets, restore and replay round trips, the outcome, forfeits. Like
pgx's ``api_test`` and OpenSpiel's ``random_sim_test``: a new game gets these for free."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from roses.games import GAMES, Forfeit, GameModule, HasBots, Playthrough, bots_offered
from roses.games.base import StandIn, TableTalk, TimeoutRule
from roses.server.play.views import ENVELOPE_KEYS
from tests.server.duel import DUEL
from tests.server.hidden import walk

Module = GameModule[Any, Any]


def option_sets(module: Module, players: int) -> list[dict[str, Any]]:
    """No options, and every option offered with ``players`` turned on."""
    offered = {o.name: True for o in module.option_fields if players in o.players}
    return [{}, offered] if offered else [{}]


CASES = [
    pytest.param(module, players, options, id=f"{name}-{players}-{'+'.join(options) or 'plain'}")
    for name, module in [*GAMES.items(), (DUEL.name, DUEL)]
    for players in module.player_counts
    for options in option_sets(module, players)
]


@dataclass
class Game:
    """One game played through the seam, with what it was made of."""

    module: Module
    players: int
    options: dict[str, Any]
    deal: Any
    state: Any
    actions: list[tuple[int, Any]] = field(default_factory=list)  # parsed

    def played(self) -> Playthrough[Any, Any]:
        return Playthrough(self.players, self.options, self.deal, tuple(self.actions), self.state)

    def views(self) -> dict[int | None, dict[str, Any]]:
        return {seat: self.module.view(self.state, seat) for seat in [None, *range(self.players)]}


def round_trip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def start(module: Module, players: int, options: dict[str, Any], seed: int) -> Game:
    parsed = module.parse_options(players, options)
    assert round_trip(parsed) == parsed
    deal = module.setup(seed, players, parsed)
    assert round_trip(deal) == deal and module.setup(seed, players, parsed) == deal
    return Game(module, players, parsed, deal, module.restore(round_trip(deal), players, parsed))


def value_at(view: Any, path: str) -> Any:
    for key in path.split("."):
        if not isinstance(view, dict):
            return None
        view = view.get(key)
    return view


def without(view: Any, paths: tuple[str, ...]) -> Any:
    """``view`` with the fields at ``paths`` taken out."""
    view = json.loads(json.dumps(view))
    for path in paths:
        *parents, last = path.split(".")
        holder = value_at(view, ".".join(parents)) if parents else view
        if isinstance(holder, dict):
            holder.pop(last, None)
    return view


def check_views(game: Game) -> dict[int | None, dict[str, Any]]:
    """Each seat's view and the spectator's: JSON-ready, apart from the server's keys, no
    secret of the deal (``walk``), and each seat's private fields seen by no one else."""
    views = game.views()
    for view in views.values():
        assert round_trip(view) == view, "a view is not JSON-ready (a tuple, a set, an object)"
        assert not view.keys() & ENVELOPE_KEYS
        walk(view)
    private = game.module.private_fields
    for path in private:
        assert value_at(views[None], path) is None, f"a spectator sees {path}"
        public = walk(views[None])
        for seat in range(game.players):
            secret = value_at(views[seat], path)
            if not isinstance(secret, str | list | dict) or not secret or secret in public:
                continue
            for other in range(game.players):
                if other != seat:
                    assert secret not in walk(without(views[other], private)), (
                        f"seat {other} sees seat {seat}'s {path}"
                    )
    return views


def check_forfeits(game: Game) -> None:
    """Whoever resigns or runs out of time ranks last with its team; the state is unchanged."""
    before = game.views()
    teams = game.module.teams(game.players)
    for seat in range(game.players):
        for reason in Forfeit:
            outcome = game.module.forfeit(game.state, game.players, seat, reason)
            assert len(outcome.ranks) == game.players and min(outcome.ranks) == 0
            last = max(outcome.ranks)
            assert [rank == last for rank in outcome.ranks] == [t == teams[seat] for t in teams]
            assert round_trip(outcome.summary) == outcome.summary
    assert game.views() == before


def check_seats(game: Game) -> None:
    module, state = game.module, game.state
    assert set(module.to_act(state)) <= set(range(game.players))
    for seat in module.to_act(state):
        assert module.may_act(state, seat)
    assert isinstance(module.table_talk(state), TableTalk)
    for live in (True, False):
        if module.timeout_rule(game.players, live) is TimeoutRule.STAND_IN:
            for seat in module.to_act(state):
                stand_in = module.stand_in(state, seat)
                assert stand_in.bot in bots_offered(module) or stand_in.bot is None
                assert stand_in.bot is not None or stand_in.action is not None


def play(game: Game, rng: random.Random, each_step: Any, stop_after: int | None = None) -> None:
    """Random legal actions (the game's own fallback) to the end or ``stop_after`` actions,
    each parsed once from its JSON form as the server would, ``each_step`` called on every
    position."""
    module = game.module
    assert isinstance(module, HasBots), f"{module.name} has no random legal actions to play"
    each_step(game)
    while module.to_act(game.state) and len(game.actions) != stop_after:
        seat = rng.choice(module.to_act(game.state))
        chosen = module.fallback_action(module.bot_input(game.state, seat), rng)
        stored = round_trip(module.action_json(chosen))
        action = module.parse_action(stored)
        assert module.action_json(action) == stored  # one JSON form, read back as it is
        module.apply(game.state, seat, action)
        game.actions.append((seat, action))
        each_step(game)


def restored(game: Game) -> Game:
    """The game rebuilt from its deal and its actions as stored (JSON)."""
    module, deal = game.module, round_trip(game.deal)
    again = Game(
        module, game.players, game.options, deal, module.restore(deal, game.players, game.options)
    )
    for seat, action in game.actions:
        parsed = game.module.parse_action(round_trip(game.module.action_json(action)))
        game.module.apply(again.state, seat, parsed)
        again.actions.append((seat, parsed))
    return again


def each_step(game: Game) -> None:
    check_views(game)
    check_seats(game)


@pytest.mark.parametrize(("module", "players", "options"), CASES)
def test_random_games_to_the_end_through_the_seam(
    module: Module, players: int, options: dict[str, Any]
) -> None:
    assert len(module.seat_labels(players, options)) == len(module.teams(players)) == players
    assert round_trip(module.materials(players, options)) == module.materials(players, options)
    for seed in (1, 2):
        game = start(module, players, options, seed)
        play(game, random.Random(seed), each_step)
        outcome = module.outcome(game.state)
        assert outcome is not None, "the game stopped waiting for anyone before its end"
        assert len(outcome.ranks) == players and min(outcome.ranks) == 0
        assert round_trip(outcome.summary) == outcome.summary
        again = restored(game)
        assert again.views() == game.views() and module.outcome(again.state) == outcome
        replays = {seat: module.replay(game.played(), seat) for seat in [None, *range(players)]}
        for seat, frames in replays.items():
            assert round_trip(frames) == frames and len(frames) >= 1
            assert module.replay(again.played(), seat) == frames
        record = module.record(game.played(), [f"player {n}" for n in range(players)])
        assert round_trip(record) == record
        walk(game.views())


@pytest.mark.parametrize(("module", "players", "options"), CASES)
def test_a_game_under_way_restores_and_forfeits(
    module: Module, players: int, options: dict[str, Any]
) -> None:
    """Half-way through, the game rebuilt from its log is the same game, and a forfeit
    by any seat ends it with that seat's team last."""
    full = start(module, players, options, seed=3)
    play(full, random.Random(3), lambda game: None)
    game = start(module, players, options, seed=3)
    play(game, random.Random(3), lambda game: None, stop_after=len(full.actions) // 2)
    assert module.outcome(game.state) is None
    assert restored(game).views() == game.views()
    check_forfeits(game)


def test_the_duel_relies_on_the_defaults() -> None:
    """The test game implements little beyond the core: the defaults make it whole."""
    own = {name for name in vars(type(DUEL)) if not name.startswith("_")}
    defaults = {"forfeit", "may_act", "replay", "record", "timeout_rule", "stand_in", "teams"}
    assert not own & defaults
    state = DUEL.restore(DUEL.setup(1, 2, {}), 2, {})
    assert DUEL.forfeit(state, 2, 0, Forfeit.RESIGNATION).ranks == (1, 0)
    assert DUEL.timeout_rule(2, live=True) is TimeoutRule.LOSS
    # A game with bots and more than two seats plays on: its first bot stands in.
    assert DUEL.timeout_rule(3, live=True) is TimeoutRule.STAND_IN
    assert DUEL.stand_in(state, 0) == StandIn(bot="steady")
    assert DUEL.tutorial() is None
