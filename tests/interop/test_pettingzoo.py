"""The PettingZoo AEC environment: PettingZoo's own tests, masks, team rewards, errors."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from roses.interop import pettingzoo as rose_pettingzoo
from roses.interop.encoding import encode
from roses.roseking import IllegalMoveError


# Recommendations that do not fit a dict observation with a mask or readable agent names;
# PettingZoo's own classic games (chess, connect four) draw them too.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:We recommend agents to be named")
@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_test(players: int) -> None:
    api_test(rose_pettingzoo.env(players=players), num_cycles=1000)


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: rose_pettingzoo.env(players=players), num_cycles=500)


def test_agents_are_the_seats_in_turn_order() -> None:
    # RK-16: Red 1, White 1, Red 2, White 2.
    assert rose_pettingzoo.env().possible_agents == ["red", "white"]
    env = rose_pettingzoo.env(players=4)
    assert env.possible_agents == ["red_1", "white_1", "red_2", "white_2"]
    env.reset(seed=0)
    assert env.agent_selection == "red_1"  # RK-7
    env.step(int(np.flatnonzero(env.observe("red_1")["action_mask"])[0]))
    assert env.agent_selection == "white_1"


@pytest.mark.parametrize("players", [3, 0])
def test_bad_player_counts_are_refused(players: int) -> None:
    with pytest.raises(ValueError, match="players must be 2 or 4"):
        rose_pettingzoo.env(players=players)


def test_bad_render_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        rose_pettingzoo.env(render_mode="rgb_array")


def test_the_mask_holds_the_legal_moves_of_the_agent_to_move_only() -> None:
    env = rose_pettingzoo.env()
    env.reset(seed=3)
    board = env.table.board
    mask = env.observe("red")["action_mask"]
    assert mask.dtype == np.int8
    assert np.flatnonzero(mask).tolist() == sorted(m.action_id for m in board.legal_moves())
    assert not env.observe("white")["action_mask"].any()


def test_the_observation_is_the_shared_encoding() -> None:
    env = rose_pettingzoo.env(players=4)
    env.reset(seed=4)
    for seat, agent in enumerate(env.possible_agents):
        observation = env.observe(agent)["observation"]
        assert env.observation_space(agent)["observation"].contains(observation)
        assert np.array_equal(observation, encode(env.table.view(seat), seat))


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = rose_pettingzoo.env()
    env.reset(seed=5)
    before = env.table.public_text()
    with pytest.raises(IllegalMoveError, match="not legal"):
        env.step(48)  # RK-9: a full hand may not draw
    with pytest.raises(IllegalMoveError, match="not an action id"):
        env.step(1.5)  # type: ignore[arg-type]
    assert env.table.public_text() == before
    assert env.agent_selection == "red"


def test_draws_are_resolved_inside_the_environment() -> None:
    env = rose_pettingzoo.env()
    env.reset(seed=6)
    env.step(int(np.flatnonzero(env.observe("red")["action_mask"])[0]))
    env.step(int(np.flatnonzero(env.observe("white")["action_mask"])[0]))
    hand = len(env.table.board.hands[0])
    env.step(48)  # Red holds 4 cards and draws (RK-9)
    assert not env.table.is_chance_node()
    assert len(env.table.board.hands[0]) == hand + 1
    assert env.agent_selection == "white"


def test_same_seed_same_deal_and_other_seeds_differ() -> None:
    deals = set()
    for seed in (1, 1, 2):
        env = rose_pettingzoo.env()
        env.reset(seed=seed)
        deals.add(env.table.public_text())
    assert len(deals) == 2


@pytest.mark.parametrize("players", [2, 4])
def test_rewards_at_the_end_are_team_results(players: int) -> None:
    # RK-15, RK-16: +1 for each agent of the winning team, -1 for the others, 0 on a draw.
    env = rose_pettingzoo.env(players=players)
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        assert not truncation
        if termination:
            env.step(None)
            continue
        assert reward == 0
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    outcome = env.table.board.outcome()
    assert outcome is not None
    for seat, agent in enumerate(env.possible_agents):
        expected = 0.0 if outcome.winner is None else 1.0 if seat & 1 == outcome.winner else -1.0
        assert totals[agent] == expected
    assert env.agents == []


def test_render_shows_the_board() -> None:
    env = rose_pettingzoo.env(render_mode="ansi")
    env.reset(seed=8)
    text = env.render()
    assert text is not None and "(north: White)" in text and "-> Red" in text
    with pytest.warns(UserWarning, match="render_mode"):
        assert rose_pettingzoo.env().render() is None
