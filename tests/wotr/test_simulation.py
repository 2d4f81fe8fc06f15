"""Random full games with 2, 3 and 4 players (WR-1..WR-20), checking invariants after
every decision, and that each game's record replays to the same result."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roses.bots.wotr import make_wotr_bot
from roses.bots.wotr.match import bot_game
from roses.wotr.game import Game
from roses.wotr.record import record_of, replay
from roses.wotr.state import Phase

from .helpers import NO_SHRINK


def check_invariants(game: Game) -> None:
    state = game.state
    board = state.board
    # Money is never negative (WR-11 shortfall).
    assert all(player.money >= 0 for player in state.players)
    # Cards are conserved: deck, layout, face-up neutrals, box and hands hold all 54 (WR-4).
    held = sum(1 for holder in state.owner.values() if holder is not None)
    cards = len(state.deck) + len(state.layout) + len(state.returned) + len(state.removed)
    assert cards + held == len(board.deck)
    assert len(set(state.deck) | set(state.layout) | set(state.returned) | set(state.removed)) == (
        cards
    )
    # Mercenary tokens are conserved (WR-4: 17).
    tokens = state.mercenary_supply + state.mercenaries_placed
    tokens += sum(player.mercenaries for player in state.players)
    assert tokens == board.model.troops.mercenary_tokens
    # At most 20 troops each (WR-4), at most 6 cubes of each colour.
    for orders in [*state.orders.values(), *state.revealed.values()]:
        assert sum(orders.troops.values()) <= board.model.troops.per_player
        for colour in ("white", "black"):
            assert sum(1 for c in orders.bribes.values() if c == colour) <= 6
    # Nobles on the board are exactly the owned nobles; neutral Locations' cards are
    # face up on the deck or out of the game.
    assert set(state.noble_zone) == {n for n in board.nobles if state.owner[n] is not None}
    for card in state.returned:
        assert state.owner[card] is None and board.icons[card].is_location
    # Scores never go down.
    assert all(player.vp == sum(player.vp_by_source.values()) for player in state.players)


def simulate(players: int, seed: int, bots: str = "random") -> Game:
    names = bots.split(",") if "," in bots else [bots] * players
    seats = [make_wotr_bot(name, seed=seed * 7 + seat) for seat, name in enumerate(names)]
    previous: list[int] = [0] * players

    def after_each(game: Game) -> None:
        check_invariants(game)
        vp = [player.vp for player in game.state.players]
        assert all(now >= then for now, then in zip(vp, previous, strict=True))
        previous[:] = vp

    return bot_game(seats, seed=seed, after_each=after_each)


@settings(max_examples=100, deadline=None, derandomize=True, phases=NO_SHRINK)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_random_games_keep_the_invariants_and_replay(players: int, seed: int) -> None:
    game = simulate(players, seed)
    assert game.phase is Phase.OVER and game.turn == 5
    result = game.outcome()
    assert result is not None and set(result.ranking) == set(range(players))
    record = json.loads(json.dumps(record_of(game)))
    again = replay(record)
    assert again.outcome() == result
    assert again.state.owner == game.state.owner
    assert [e.text for e in again.state.log] == [e.text for e in game.state.log]


def test_the_same_seed_plays_the_same_game() -> None:
    one = record_of(simulate(4, 99))
    two = record_of(simulate(4, 99))
    assert one == two
    assert one != record_of(simulate(4, 100))


def test_heuristic_and_random_mixed_games_keep_the_invariants() -> None:
    for players, bots in ((4, "heuristic,heuristic,random,random"), (3, "heuristic"),
                          (2, "heuristic,random")):  # fmt: skip
        game = simulate(players, 5, bots)
        assert game.is_over()
        assert replay(record_of(game)).outcome() == game.outcome()


def test_games_see_battles_bribes_shortfalls_and_french_aid() -> None:
    """The random games reach every part of the rules at least once."""
    texts = []
    for seed in range(12):
        texts += [event.text for event in simulate(4, seed).state.log]
    for needle in ("attacks", "won,", "repulsed", "neutral", "bribes", "fails to bribe",
                   "short of money", "French Aid", "Captain of Calais", "is crowned",
                   "goes to", "Trade bonus"):  # fmt: skip
        assert any(needle in text for text in texts), needle


@pytest.mark.parametrize("bots", ["heuristic", "random", "heuristic,random,heuristic,random"])
def test_every_vp_is_an_event_of_the_public_log(bots: str) -> None:
    """WR-14..WR-17: every VP a player gains, the King's 5 VP (WR-15) included, is an event
    of the log, so each seat's logged VP add up to its total, over seeded 4-player games."""
    for seed in range(10):
        game = simulate(4, seed, bots)
        logged, king = [0] * 4, [0] * 4
        for event in game.view(None).log:
            if event.scored is not None:
                seat, gained = event.scored
                logged[seat] += gained
                assert event.phrase.params["vp"] == gained
                assert event.phrase.params["seat"] == game.state.name(seat)
                if event.phrase.template.startswith("The King:"):
                    king[seat] += gained
        players = game.state.players
        assert logged == [player.vp for player in players], seed
        assert king == [player.vp_by_source["king"] for player in players], seed
        assert any(king), seed  # a 4-player game crowns a King
