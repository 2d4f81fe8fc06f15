"""The bots: legal decisions from a player's view only; the heuristic plays sensibly."""

from __future__ import annotations

import pytest

from roses.bots.wotr import available_wotr_bots, make_wotr_bot
from roses.bots.wotr.heuristic import HeuristicBot
from roses.bots.wotr.match import bot_game
from roses.wotr import Action, FrenchAid, Orders, Phase, Pick, PlayerView
from roses.wotr.phases.planning import check_orders

from .helpers import BLUE, GREEN, RED, YELLOW, game_at, give


def test_registry() -> None:
    assert available_wotr_bots() == ["heuristic", "random", "search", "search-model"]
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        make_wotr_bot("clever")


class Spy:
    """Wraps a bot and checks every view it is given and every order it returns."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.bot = make_wotr_bot(name, seed=seed, time_limit=0.02)
        self.views = 0

    def act(self, view: PlayerView) -> Action:
        assert isinstance(view, PlayerView) and view.viewer in view.awaiting
        if view.phase is Phase.PLANNING:  # WR-20: others' money is behind their screens
            others = [m for s, m in enumerate(view.money) if s != view.viewer]
            assert others == [None] * (view.players - 1)
        action = self.bot.act(view)
        if isinstance(action, Orders):
            assert view.check(action) == []
            if self.bot.name in ("heuristic", "search"):
                assert view.cost(action) <= view.my_money  # it never overspends
        self.views += 1
        return action


@pytest.mark.parametrize("name", ["random", "heuristic", "search"])
def test_bots_act_legally_from_their_view(name: str) -> None:
    spies = [Spy(name, seed) for seed in range(3)]
    game = bot_game(spies, seed=4)
    assert game.is_over() and all(spy.views > 10 for spy in spies)


def test_heuristic_beats_random() -> None:
    wins = 0.0
    for seed in range(8):
        names = ["heuristic", "random", "heuristic", "random"]
        game = bot_game([make_wotr_bot(n, seed=seed * 4 + s) for s, n in enumerate(names)],
                        seed=seed)  # fmt: skip
        outcome = game.outcome()
        assert outcome is not None
        wins += sum(1 / len(outcome.winners) for s in outcome.winners if names[s] == "heuristic")
    assert wins >= 6


def planning_view(seat: int, money: int = 30, **holdings: tuple[str, ...]) -> PlayerView:
    game = game_at(money=money)
    seats = {"red": RED, "yellow": YELLOW, "green": GREEN, "blue": BLUE}
    for name, cards in holdings.items():
        give(game.state, seats[name], *cards)
    return game.view(seat)


def test_heuristic_values_income_in_the_draft() -> None:
    game = game_at(phase=Phase.DRAW)
    state = game.state
    for card in ("berwick", "london"):
        state.deck.remove(card)
        state.layout.append(card)
    state.picks, state.pick_index = [RED], 0
    assert HeuristicBot(1).act(game.view(RED)) == Pick("london")


def test_heuristic_takes_french_aid_when_far_behind() -> None:
    game = game_at(phase=Phase.INCOME, turn=2)
    state = game.state
    state.players[YELLOW].vp = 20
    state.french_aid_queue = [RED]
    assert HeuristicBot(1).act(game.view(RED)) == FrenchAid(True)
    state.players[YELLOW].vp = 3
    assert HeuristicBot(1).act(game.view(RED)) == FrenchAid(False)


@pytest.mark.parametrize(("leader", "target"), [(GREEN, "coventry"), (YELLOW, "norwich")])
def test_heuristic_attacks_the_leader(leader: int, target: str) -> None:
    """Present in the Midlands beside two rivals' towns and able to pay for one attack,
    it attacks the leader's."""
    game = game_at(money=12)
    state = game.state
    give(state, RED, "kenilworth")
    give(state, YELLOW, "norwich", "bamburgh")
    give(state, GREEN, "coventry")
    state.players[leader].vp = 25
    orders = HeuristicBot(1).act(game.view(RED))
    assert isinstance(orders, Orders)
    assert list(orders.troops) == [target]
    garrison = state.board.icons[target].garrison
    assert orders.troops[target] > garrison  # enough to win against the garrison


def test_heuristic_defends_its_valuable_location_under_threat() -> None:
    game = game_at(money=12)
    state = game.state
    give(state, RED, "london")
    give(state, YELLOW, "stafford")  # a rival present in SE
    orders = HeuristicBot(1).act(game.view(RED))
    assert isinstance(orders, Orders)
    assert orders.troops.get("london", 0) + orders.mercenaries.get("london", 0) >= 1


def test_heuristic_bribes_when_it_pays() -> None:
    """A cheap bishop that wins it Northern England is bribed; a costly noble that gains
    little is not."""
    game = game_at(money=10)
    state = game.state
    give(state, RED, "lincoln")
    give(state, YELLOW, "archbishop-of-york", "clifford")
    orders = HeuristicBot(1).act(game.view(RED))
    assert isinstance(orders, Orders)
    assert orders.bribes.get("archbishop-of-york") == "black"
    assert "clifford" not in orders.bribes


def test_heuristic_places_no_more_troops_than_a_player_has() -> None:
    """WR-10: a player has 20 troops. Rich and present beside rivals' Locations in every
    zone, the heuristic still plans a legal number (it once planned 49)."""
    game = game_at(money=300)
    state = game.state
    zones: dict[str, list[str]] = {}
    for card, icon in state.board.icons.items():
        if icon.is_location:
            zones.setdefault(icon.zone, []).append(card)
    for cards in zones.values():
        give(state, RED, cards[0])
        for rival, card in zip((YELLOW, GREEN, BLUE) * 2, cards[1:], strict=False):
            give(state, rival, card)
    orders = HeuristicBot(1).act(game.view(RED))
    assert isinstance(orders, Orders)
    assert sum(orders.troops.values()) == state.board.model.troops.per_player
    assert check_orders(state, RED, 300, 0, orders) == []
