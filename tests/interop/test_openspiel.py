"""The OpenSpiel game python_rose_king: OpenSpiel's own checks and bots."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from roses.interop import openspiel as rose_openspiel
from roses.interop.encoding import encode
from roses.roseking import IllegalMoveError, InvalidPositionError, Move, parse_card
from tests.roseking.helpers import make_position

SEATS = {2: ["r", "w"], 4: ["r1", "w1", "r2", "w2"]}


def deal(state: pyspiel.State, seed: int = 0) -> pyspiel.State:
    rng = np.random.RandomState(seed)
    while state.is_chance_node():
        cards, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(cards, p=probabilities)))
    return state


def play(
    state: pyspiel.State, choose: Callable[[pyspiel.State], int], rng: np.random.RandomState
) -> pyspiel.State:
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(cards, p=probabilities)))
        else:
            state.apply_action(choose(state))
    return state


@pytest.mark.parametrize("players", [2, 4])
def test_openspiel_random_sim_test(players: int) -> None:
    # OpenSpiel's own consistency checks: clone, serialise, legal actions, returns, lengths.
    game = pyspiel.load_game(f"python_rose_king(players={players})")
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_registered_with_its_parameters() -> None:
    assert rose_openspiel.load().num_players() == 2
    game = pyspiel.load_game("python_rose_king", {"players": 4})
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 50
    assert game.max_chance_outcomes() == 24
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    game_type = game.get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


@pytest.mark.parametrize("players", [3, 1])
def test_bad_player_counts_are_refused(players: int) -> None:
    with pytest.raises(ValueError, match="players must be 2 or 4"):
        rose_openspiel.load(players)
    with pytest.raises(ValueError, match="players must be 2 or 4"):
        pyspiel.load_game(f"python_rose_king(players={players})")


def test_the_deal_is_a_chain_of_chance_nodes() -> None:
    # RK-5: 10 cards dealt one by one; then Red moves (RK-7).
    state = rose_openspiel.load().new_initial_state()
    assert state.observation_string(1) == "w sees deal -|-"
    assert state.information_state_string(0) == "r knows"
    for dealt in range(10):
        if dealt == 6:  # hands are dealt face up (RK-5)
            assert state.observation_string(0) == "r sees deal N1,N2,N3,NE1,NE2|NE3"
        assert state.current_player() == pyspiel.PlayerId.CHANCE
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 24 - dealt
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[0][0])
    assert state.current_player() == 0
    assert state.history()[:10] == list(range(10))
    assert str(state).startswith("9/9/9/9/9/9/9/9/9 e5 r N1,N2,N3,NE1,NE2|NE3,E1,E2,E3,SE1 4|4 ")


def test_actions_are_move_action_ids_and_draws_are_followed_by_chance() -> None:
    state = deal(rose_openspiel.load().new_initial_state(), seed=1)
    board = state.table.board
    assert state.legal_actions() == sorted(m.action_id for m in board.legal_moves())
    for action in state.legal_actions():
        assert state.action_to_string(0, action) == str(Move.from_action_id(action))
    assert 48 not in state.legal_actions()  # RK-9: Red holds 5 cards
    state.apply_action(state.legal_actions()[0])  # Red plays a card (RK-8)
    state.apply_action(state.legal_actions()[0])  # White plays a card
    assert 48 in state.legal_actions()  # Red holds 4 cards now
    pile = sorted(state.table.board.draw_pile)
    state.apply_action(48)
    assert state.is_chance_node()
    assert [card for card, _ in state.chance_outcomes()] == pile
    state.apply_action(pile[-1])
    assert state.table.board.hands[0][-1] == pile[-1]
    assert state.current_player() == 1
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, parse_card("SE3")) == "SE3"


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    state = deal(rose_openspiel.load().new_initial_state(), seed=2)
    before, history = str(state), state.history()
    with pytest.raises(IllegalMoveError, match="not legal for r"):
        state.apply_action(48)  # RK-9: a full hand may not draw
    with pytest.raises(IllegalMoveError, match="not an action id"):
        state.apply_action(77)
    assert str(state) == before and state.history() == history
    start = rose_openspiel.load().new_initial_state()
    with pytest.raises(ValueError, match="chance outcome 30 is not one of the cards left"):
        start.apply_action(30)
    assert start.history() == []


@pytest.mark.parametrize("players", [2, 4])
def test_observations_hide_only_the_pile_order(players: int) -> None:
    game = rose_openspiel.load(players)
    state = deal(game.new_initial_state(), seed=3)
    for player, seat in enumerate(SEATS[players]):
        text = state.observation_string(player)
        assert text == f"{seat} sees {state}"
        pile = text.split(" ")[-1].split("/")[0].split(",")
        assert [parse_card(card) for card in pile] == sorted(map(parse_card, pile))
        tensor = np.array(state.observation_tensor(player), np.float32)
        assert np.array_equal(tensor, encode(state.table.view(player), player))
        assert state.information_state_tensor(player) == state.observation_tensor(player)


def test_the_information_state_is_the_public_history() -> None:
    state = deal(rose_openspiel.load().new_initial_state(), seed=4)
    state.apply_action(state.legal_actions()[0])
    text = state.information_state_string(1)
    names = [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a in state.history()[:10]]
    move = state.action_to_string(0, state.history()[10])
    assert text == "w knows " + " ".join(f"+{n}" for n in names) + f" r:{move}"
    other = deal(rose_openspiel.load().new_initial_state(), seed=5)
    assert other.information_state_string(1) != state.information_state_string(1)


def test_serialisation_round_trips() -> None:
    game = rose_openspiel.load(4)
    state = deal(game.new_initial_state(), seed=6)
    for _ in range(7):
        state.apply_action(state.legal_actions()[-1])
    restored = game.deserialize_state(state.serialize())
    assert str(restored) == str(state)
    assert restored.history() == state.history()
    assert restored.legal_actions() == state.legal_actions()


def test_four_player_returns_are_team_results() -> None:
    # RK-16: seats R1, W1, R2, W2; partners share +1 / -1 (0 on a draw).
    rng = np.random.RandomState(7)
    state = play(
        rose_openspiel.load(4).new_initial_state(), lambda s: rng.choice(s.legal_actions()), rng
    )
    returns = state.returns()
    assert returns[0] == returns[2] and returns[1] == returns[3] and sum(returns) == 0
    winner = state.table.board.outcome().winner
    expected = 0.0 if winner is None else (1.0 if winner == 0 else -1.0)
    assert returns[0] == expected


def test_resampling_an_information_state_gives_the_same_state() -> None:
    state = deal(rose_openspiel.load().new_initial_state(), seed=8)
    sampled = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert str(sampled) == str(state)
    assert sampled.information_state_string(0) == state.information_state_string(0)
    sampled.apply_action(sampled.legal_actions()[0])
    assert str(sampled) != str(state)


@pytest.mark.parametrize("players", [2, 4])
def test_mcts_and_ismcts_play_whole_games(players: int) -> None:
    game = rose_openspiel.load(players)
    rng = np.random.RandomState(players)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    mcts_bot = mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng)
    ismcts_bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rng)
    for bots in ((mcts_bot, ismcts_bot), (ismcts_bot, mcts_bot)):  # each bot plays each team

        def choose(state: pyspiel.State, bots: tuple[pyspiel.Bot, ...] = bots) -> int:
            return int(bots[state.current_player() & 1].step(state))

        state = play(game.new_initial_state(), choose, rng)
        assert state.is_terminal()
        assert sorted(state.returns()) in (
            [-1.0] * (players // 2) + [1.0] * (players // 2),
            [0.0] * players,
        )


def last_stone_position(players: int) -> str:
    """51 stones down; the side to move ends the game with its next card (RK-12).

    N1 (crown e5 to e6) joins its rows 5 and 7 into 19 stones and wins (RK-14: 410 to 356);
    S3 (to e2) leaves them apart and loses (226 to 356). Drawing goes on.
    """
    files = "abcdefghi"
    mover = " ".join(f"{f}{r}" for r in (5, 7) for f in files) + " a1 b1 c1 d1 e1 f1 g1"
    other = " ".join(f"{f}{r}" for r in (6, 8, 9) for f in files if f"{f}{r}" != "e6")
    if players == 2:  # Red to move
        return make_position(red=mover, white=other, turn="r", hands=["N1 S3", "E1 E2 E3 SE1 SE2"])
    return make_position(  # White 1 to move
        red=other, white=mover, turn="w1", hands=["E1", "N1 S3", "E2", "E3"]
    )


@pytest.mark.parametrize(("players", "mover"), [(2, 0), (4, 1)])
def test_a_game_can_start_from_a_position(players: int, mover: int) -> None:
    game = rose_openspiel.load(players)
    position = last_stone_position(players)
    state = game.new_initial_state(position)
    assert state.current_player() == mover
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["N1", "S3", "draw"]
    assert state.start == str(state)
    assert state.information_state_string(0).endswith(f"knows from {state} |")
    state.apply_action(0)  # N1: the 52nd stone
    assert state.is_terminal()
    assert state.returns()[mover] == 1.0 and state.returns()[mover ^ 1] == -1.0
    clone = state.clone()
    assert clone.start == state.start


def test_a_position_for_the_wrong_game_is_refused() -> None:
    with pytest.raises(ValueError, match="the position has 4 players, this game 2"):
        rose_openspiel.load(2).new_initial_state(last_stone_position(4))
    with pytest.raises(InvalidPositionError, match="field 2"):
        rose_openspiel.load(2).new_initial_state(last_stone_position(2).replace(" e5 ", " z9 "))


@pytest.mark.parametrize(("players", "mover"), [(2, 0), (4, 1)])
def test_mcts_and_ismcts_find_the_winning_last_stone(players: int, mover: int) -> None:
    # The bots maximise their own team's return: N1 wins at once (RK-12, RK-15).
    game = rose_openspiel.load(players)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = (
        mcts.MCTSBot(game, 2.0, 30, evaluator, random_state=rng),
        ismcts.ISMCTSBot(game, evaluator, 2.0, 30, random_state=rng),
    )
    for bot in bots:
        state = game.new_initial_state(last_stone_position(players))
        assert state.current_player() == mover
        assert state.action_to_string(bot.step(state)) == "N1"
