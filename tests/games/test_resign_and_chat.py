"""Resigning and table talk through the game interface: the resigner (in the Rose King team
game, the team, RK-16) ranks last; WotR ranks the others by VP now, and its players may
only exchange courtesy phrases in every phase (WR-20); the Rose King's talk is free."""

from __future__ import annotations

import json
import random

import pytest

from roses.games import Forfeit, TableTalk
from roses.games.roseking import ROSE_KING
from roses.games.wotr import WOTR
from roses.wotr import Game, Phase

RESIGNS = Forfeit.RESIGNATION


def test_a_rose_king_player_resigning_loses_with_the_scores_as_they_stand() -> None:
    state = ROSE_KING.restore(ROSE_KING.setup(3, 2, {}), 2, {})
    outcome = ROSE_KING.forfeit(state, 2, 1, RESIGNS)
    assert outcome.ranks == (0, 1)
    assert outcome.summary["winner"] == "red" and outcome.summary["termination"] == "resignation"
    assert outcome.summary["text"].startswith("White resigns · Red wins · Red 0")
    assert ROSE_KING.forfeit(state, 2, 0, RESIGNS).ranks == (1, 0)


@pytest.mark.parametrize("seat", range(4))
def test_in_the_team_game_the_team_resigns_rk16(seat: int) -> None:
    state = ROSE_KING.restore(ROSE_KING.setup(3, 4, {}), 4, {})
    ranks = ROSE_KING.forfeit(state, 4, seat, RESIGNS).ranks
    assert ranks == tuple(int(other % 2 == seat % 2) for other in range(4))


def _wotr_at_planning(players: int, seed: int) -> Game:
    game = WOTR.restore(json.loads(json.dumps(WOTR.setup(seed, players, {}))), players, {})
    rng = random.Random(seed)
    while game.phase is not Phase.PLANNING:
        seat = rng.choice(WOTR.to_act(game))
        WOTR.apply(game, seat, WOTR.fallback_action(WOTR.bot_input(game, seat), rng))
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_wotr_resigner_ranks_last_and_the_others_by_vp_now(players: int) -> None:
    game = _wotr_at_planning(players, seed=players)
    vps = [5, 9, 9, 1][:players]
    for player, vp in zip(game.state.players, vps, strict=False):
        player.vp = vp
    outcome = WOTR.forfeit(game, players, 1, RESIGNS)  # the leader resigns
    expected = {2: (0, 1), 3: (1, 2, 0), 4: (1, 3, 0, 2)}[players]
    assert outcome.ranks == expected
    assert outcome.summary["resigned"] == outcome.summary["ranking"][-1]
    assert outcome.summary["vp"] == vps


@pytest.mark.parametrize("players", [2, 3, 4])
def test_wotr_players_only_exchange_courtesy_in_every_phase_wr20(players: int) -> None:
    game = WOTR.restore(WOTR.setup(players, players, {}), players, {})
    rng = random.Random(players)
    phases = set()
    while not game.is_over():
        phases.add(game.phase)
        assert WOTR.table_talk(game) is TableTalk.COURTESY, game.phase
        seat = rng.choice(WOTR.to_act(game))
        WOTR.apply(game, seat, WOTR.fallback_action(WOTR.bot_input(game, seat), rng))
    assert Phase.PLANNING in phases and len(phases) >= 3  # not only while planning


def test_the_rose_king_table_talk_is_free() -> None:
    state = ROSE_KING.restore(ROSE_KING.setup(1, 2, {}), 2, {})
    assert ROSE_KING.table_talk(state) is TableTalk.FREE
