"""The chance-node model of the deal (RK-5) and of draws (RK-9) shared by both interfaces."""

from __future__ import annotations

import copy
import math
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roses.interop.chance import (
    ChanceGame,
    max_chance_events,
    max_decisions,
    variant_for_players,
)
from roses.roseking import CARD_NAMES, Board, IllegalMoveError, Move, Variant, parse_card
from roses.roseking.moves import DRAW_MOVE
from tests.interop.helpers import play_randomly, step_randomly
from tests.roseking.helpers import make_position


def test_players_choose_the_variant() -> None:
    assert variant_for_players(2) is Variant.CLASSIC
    assert variant_for_players(4) is Variant.FOUR_PLAYER  # RK-16
    for bad in (3, 0, True, "2"):
        with pytest.raises(ValueError, match="players must be 2 or 4"):
            variant_for_players(bad)  # type: ignore[arg-type]


def test_random_start_has_no_chance_model() -> None:
    with pytest.raises(ValueError, match="random-start"):
        ChanceGame(Variant.RANDOM_START)


@pytest.mark.parametrize(("players", "hand"), [(2, 5), (4, 3)])
def test_the_deal_is_one_uniform_chance_node_per_card(players: int, hand: int) -> None:
    # RK-5 / RK-16: 5 (or 3) cards to each seat, every ordered deal equally likely.
    game = ChanceGame.for_players(players)
    probability = 1.0
    for dealt in range(players * hand):
        assert game.is_chance_node() and game.current_seat() is None
        assert game.legal_actions() == []
        outcomes = game.chance_outcomes()
        assert len(outcomes) == 24 - dealt
        assert all(p == pytest.approx(1 / (24 - dealt)) for _, p in outcomes)
        card, p = outcomes[dealt % len(outcomes)]
        probability *= p
        game.apply_chance(card)
    assert probability == pytest.approx(math.factorial(24 - players * hand) / math.factorial(24))
    assert game.board is not None and not game.is_chance_node()
    assert [len(h) for h in game.board.hands] == [hand] * players
    assert len(game.board.draw_pile) == 24 - players * hand
    assert game.current_seat() == 0  # RK-7: Red (R1) moves first


def test_cards_are_dealt_seat_by_seat() -> None:
    game = ChanceGame()
    for card in range(10):
        game.apply_chance(card)
    assert game.board is not None
    assert game.board.hands == ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9))


def test_the_deal_is_public_while_it_happens() -> None:
    game = ChanceGame()
    for card in (7, 3, 21):
        game.apply_chance(card)
    view = game.view(1)
    assert view.hands == ((7, 3, 21), ())
    assert view.draw_pile_cards == tuple(c for c in range(24) if c not in (3, 7, 21))
    assert view.heroes == (4, 4)
    assert game.public_text() == "deal E2,NE1,NW1|-"


def test_a_card_that_cannot_come_up_is_refused_and_changes_nothing() -> None:
    game = ChanceGame()
    game.apply_chance(5)
    for bad in (5, 24, -1, True, 2.0):
        with pytest.raises(ValueError, match="not one of the cards left"):
            game.apply_chance(bad)
    assert game.dealt == (5,)


def dealt_game(seed: int, players: int = 2) -> ChanceGame:
    game = ChanceGame.for_players(players)
    rng = random.Random(seed)
    while game.is_chance_node():
        step_randomly(game, rng)
    return game


def test_a_draw_is_followed_by_a_chance_node_over_the_pile() -> None:
    # RK-9: the drawn card is uniform over the draw pile's cards.
    position = make_position(hands=["N1 N2 N3 NE1", "E1 E2 E3 SE1 SE2"])
    game = ChanceGame.from_position(position)
    assert game.board is not None
    pile = sorted(game.board.draw_pile)
    game.apply_action(DRAW_MOVE.action_id)
    assert game.is_chance_node() and game.current_seat() is None
    outcomes = game.chance_outcomes()
    assert [card for card, _ in outcomes] == pile
    assert all(p == pytest.approx(1 / len(pile)) for _, p in outcomes)
    game.apply_chance(pile[3])
    assert game.board.hands[0][-1] == pile[3]
    assert sorted(game.board.draw_pile) == [c for c in pile if c != pile[3]]
    assert game.current_seat() == 1


def test_after_a_reshuffle_the_next_draws_are_uniform_over_the_old_discards() -> None:
    # RK-9: the last card drawn, the discard pile becomes the draw pile.
    discards = "S1 S2 S3 SW1 SW2 SW3 W1 W2 W3 NW1 NW2 NW3 SE3 NE2"
    position = make_position(
        hands=["N1 N2 N3 NE1", "E1 E2 E3 SE1 SE2"],
        discard=discards,
        draw="NE3",
    )
    game = ChanceGame.from_position(position)
    game.apply_action(DRAW_MOVE.action_id)
    assert game.chance_outcomes() == [(parse_card("NE3"), 1.0)]
    game.apply_chance(parse_card("NE3"))
    board = game.board
    assert board is not None and board.discard_pile == ()
    old_discards = sorted(parse_card(name) for name in discards.split())
    assert list(board.draw_pile) == old_discards  # kept sorted: no order to leak
    for move in ("E1", "N1", "draw"):  # White plays, Red plays, White draws
        game.apply_action(Move.from_str(move).action_id)
    outcomes = game.chance_outcomes()
    assert [card for card, _ in outcomes] == old_discards
    assert all(p == pytest.approx(1 / 14) for _, p in outcomes)


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    game = dealt_game(3)
    before = game.public_text()
    full_hand_draw = DRAW_MOVE.action_id  # RK-9: a full hand may not draw
    with pytest.raises(IllegalMoveError, match="not legal for r"):
        game.apply_action(full_hand_draw)
    for bad in (50, -1, True, 1.0):
        with pytest.raises(IllegalMoveError, match="not an action id"):
            game.apply_action(bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="not legal"):
        game.apply_action(49)  # RK-11: no pass while a move exists
    assert game.public_text() == before
    with pytest.raises(ValueError, match="no chance event is pending"):
        game.chance_outcomes()
    fresh = ChanceGame()
    with pytest.raises(IllegalMoveError, match="chance node"):
        fresh.apply_action(0)


def test_no_action_after_the_end() -> None:
    game = play_randomly(dealt_game(5), random.Random(5))
    assert game.legal_actions() == [] and game.current_seat() is None
    with pytest.raises(IllegalMoveError, match="after the end"):
        game.apply_action(0)


def test_pending_draw_must_be_legal() -> None:
    full = make_position(hands=["N1 N2 N3 NE1 NE2", "E1 E2 E3 SE1 SE2"])
    with pytest.raises(IllegalMoveError, match="may not draw"):
        ChanceGame.from_position(full, draw_pending=True)


def team_result(game: ChanceGame) -> list[float]:
    assert game.board is not None
    outcome = game.board.outcome()
    assert outcome is not None
    if outcome.winner is None:
        return [0.0] * game.seats
    return [1.0 if seat & 1 == outcome.winner else -1.0 for seat in range(game.seats)]


@pytest.mark.parametrize("players", [2, 4])
def test_returns_are_team_results(players: int) -> None:
    # RK-15 and RK-16: partners share the result.
    game = play_randomly(dealt_game(11, players), random.Random(11))
    returns = game.returns()
    assert returns == team_result(game)
    assert sum(returns) == 0
    if players == 4:
        assert returns[0] == returns[2] and returns[1] == returns[3]


def test_returns_before_the_end_are_zero() -> None:
    assert dealt_game(1, 4).returns() == [0.0] * 4


def test_a_drawn_game_returns_zero() -> None:
    # RK-15: same score, largest territory and stones: a draw. Neither can move (RK-13).
    position = make_position(
        red="a1", white="i9", crown="i9", turn="r",
        hands=["N1 NE1 E1 N2 NE2", "N3 NE3 E2 E3 SE3"],
    )  # fmt: skip
    game = ChanceGame.from_position(position)
    assert game.is_terminal()
    assert game.returns() == [0.0, 0.0]


def check_game(game: ChanceGame) -> None:
    copied = copy.deepcopy(game)
    assert copied.public_text() == game.public_text()
    restored = pickle.loads(pickle.dumps(game))
    assert restored.public_text() == game.public_text()
    assert restored.legal_actions() == game.legal_actions()
    if game.board is not None:
        # The pile is kept sorted: its order carries nothing (RK-20).
        assert list(game.board.draw_pile) == sorted(game.board.draw_pile)
        assert len(game.board.draw_pile) > 0
    if game.is_chance_node():
        assert sum(p for _, p in game.chance_outcomes()) == pytest.approx(1.0)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 4]))
def test_random_games_keep_the_model_exact(seed: int, players: int) -> None:
    decisions = chance_events = 0

    def count(game: ChanceGame) -> None:
        nonlocal decisions, chance_events
        check_game(game)
        if game.is_terminal():
            return
        if game.is_chance_node():
            chance_events += 1
        else:
            decisions += 1

    game = play_randomly(ChanceGame.for_players(players), random.Random(seed), count)
    assert decisions <= max_decisions(game.variant)
    assert chance_events <= max_chance_events(game.variant)


def test_copies_are_independent() -> None:
    game = dealt_game(2)
    copied = copy.deepcopy(game)
    copied.apply_action(copied.legal_actions()[0])
    assert copied.public_text() != game.public_text()
    assert game.board is not None and game.board.move_stack == []


def test_a_pending_draw_is_shown_and_survives_pickling() -> None:
    position = make_position(hands=["N1 N2 N3 NE1", "E1 E2 E3 SE1 SE2"])
    game = ChanceGame.from_position(position, draw_pending=True)
    assert game.public_text().endswith(" draw?")
    restored = pickle.loads(pickle.dumps(game))
    assert restored.is_chance_node() and restored.public_text() == game.public_text()


def test_the_pile_order_of_a_given_position_is_forgotten() -> None:
    position = make_position(hands=["N1 N2 N3 NE1", "E1 E2 E3 SE1 SE2"])
    board = Board.from_position(position)
    board.reorder_draw_pile(sorted(board.draw_pile, reverse=True))
    game = ChanceGame.from_position(board.position())
    assert game.board is not None
    assert list(game.board.draw_pile) == sorted(board.draw_pile)


@pytest.mark.parametrize("players", [2, 4])
def test_the_bounds_hold_from_empty_hands(players: int) -> None:
    # The most room a start can leave: no stones, no cards in any hand (RK-9 draws first).
    hands = "|".join(["-"] * players)
    heroes = "|".join(["4"] * 2 if players == 2 else ["2"] * 4)
    turn = "r" if players == 2 else "r1"
    pile = ",".join(CARD_NAMES)
    for seed in range(3):
        game = ChanceGame.from_position(f"9/9/9/9/9/9/9/9/9 e5 {turn} {hands} {heroes} {pile}/-")
        rng = random.Random(seed)
        decisions = chance_events = 0
        while not game.is_terminal():
            chance = game.is_chance_node()
            step_randomly(game, rng)
            chance_events += chance
            decisions += not chance
        assert decisions <= max_decisions(game.variant)
        assert chance_events <= max_chance_events(game.variant)
