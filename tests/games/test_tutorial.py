"""The Rose King tutorial: every step's position is reached by legal moves from a real deal,
and the engine accepts exactly the move the step asks for (RK-8..RK-15, RK-21)."""

from __future__ import annotations

import pytest

from roses.games import InvalidInput
from roses.games.roseking import ROSE_KING
from roses.roseking import ALL_MOVES, Board, parse_move, parse_square
from roses.roseking.tutorial import STEPS, Reason, Step, judge
from tests.server.hidden import assert_states_hide_the_pile, history

STEP = {step.key: step for step in STEPS}


@pytest.mark.parametrize("step", STEPS, ids=[step.key for step in STEPS])
def test_each_position_is_reached_by_legal_moves_from_its_deal(step: Step) -> None:
    board = step.board()  # Board.push refuses any illegal move (RK-8..RK-11)
    assert board.position() == step.position
    assert board.turn == 0, "the learner plays Red, who sits at the south edge (RK-1)"
    assert not board.is_over()


@pytest.mark.parametrize("step", STEPS, ids=[step.key for step in STEPS])
def test_only_the_expected_moves_are_accepted(step: Step) -> None:
    board = step.board()
    assert step.expected and all(board.is_legal(parse_move(m)) for m in step.expected)
    for move in ALL_MOVES:
        reason = judge(board, step, move)
        assert (reason is Reason.EXPECTED) == (str(move) in step.expected), move
        if board.is_legal(move) and str(move) not in step.expected:
            assert reason is Reason.NOT_ASKED
    assert board.position() == step.position, "judging changes nothing"


def test_play_card_moves_the_crown_and_places_a_red_stone() -> None:
    """RK-8: NE3 from e5 lands on h8, an own stone goes there, the card is discarded."""
    board = STEP["play-card"].board()
    board.push(parse_move("NE3"))
    assert board.crown == parse_square("h8") and board.red == 1 << parse_square("h8")
    assert board.discard_pile == (parse_move("NE3").card,) and len(board.hands[0]) == 4


def test_hero_flips_a_white_stone_and_joins_red_territory() -> None:
    """RK-10: NE2h lands on White's i8, flips it, costs a hero and no stone of the supply;
    red h8, i8 and i7 become one territory of 3 (RK-14)."""
    board = STEP["hero"].board()
    supply, i8 = board.supply, 1 << parse_square("i8")
    assert board.white & i8
    board.push(parse_move("NE2h"))
    assert board.red & i8 and not board.white & i8
    assert board.heroes == (3, 4) and board.supply == supply
    assert board.team_scores()[0].largest == 3


def test_draw_step_no_card_can_be_played() -> None:
    """RK-8, RK-9: every card of Red's four leaves the board or lands on Red's own d6, so
    drawing is the only move; the other moves are refused for the rule they break."""
    step = STEP["draw"]
    board = step.board()
    assert len(board.hands[0]) == 4 and board.legal_moves() == (parse_move("draw"),)
    assert judge(board, step, parse_move("W1")) is Reason.OFF_BOARD
    assert judge(board, step, parse_move("SE3")) is Reason.OCCUPIED
    assert judge(board, step, parse_move("SE3h")) is Reason.HERO_ON_OWN
    assert judge(board, step, parse_move("pass")) is Reason.MUST_MOVE
    assert judge(board, step, parse_move("E1")) is Reason.NOT_IN_HAND


def test_forced_hero_is_the_only_move_with_a_full_hand() -> None:
    """RK-11: five cards (no draw), no card reaches an empty square, one reaches a white
    stone: the hero must be used."""
    step = STEP["forced-hero"]
    board = step.board()
    assert len(board.hands[0]) == 5 and board.legal_moves() == (parse_move("SE2h"),)
    assert judge(board, step, parse_move("draw")) is Reason.HAND_FULL
    assert judge(board, step, parse_move("SE2")) is Reason.OCCUPIED


def test_pass_only_when_nothing_else_is_possible() -> None:
    """RK-11: five cards, none reaches an empty square or a white stone: Red passes, and
    White, who can still act, moves again."""
    step = STEP["pass"]
    board = step.board()
    assert len(board.hands[0]) == 5 and board.heroes[0] == 4
    assert board.legal_moves() == (parse_move("pass"),)
    board.push(parse_move("pass"))
    assert board.turn == 1 and not board.is_over()


def test_last_stone_ends_the_game_and_the_tie_break_decides() -> None:
    """RK-12: the 52nd stone ends the game. SW3 wins on score (RK-14); NE3 would tie the
    score at 114 and lose on the largest territory, 7 against 8 (RK-15, shown as RK-21)."""
    step = STEP["last-stone"]
    board = step.board()
    assert board.supply == 1

    def played(move: str) -> Board:
        after = board.copy()
        after.push(parse_move(move))
        return after

    win = played("SW3").outcome()
    assert win is not None and win.result() == "red"
    assert (str(win.red), str(win.white)) == ("124 (7, 26)", "114 (8, 26)")
    loss = played("NE3").outcome()
    assert loss is not None and loss.result() == "white"
    assert (str(loss.red), str(loss.white)) == ("114 (7, 26)", "114 (8, 26)")
    assert played("draw").outcome() is None


def test_the_seam_shows_each_step_as_red_sees_it_hiding_the_pile() -> None:
    """The tutorial's views are game views for Red: the draw pile only as a count (RK-20)."""
    tutorial = ROSE_KING.tutorial()
    assert tutorial.steps() == tuple(step.key for step in STEPS)
    for index, step in enumerate(STEPS):
        view = tutorial.view(index)
        assert view["state"]["legal_moves"] == [str(m) for m in step.board().legal_moves()]
        assert "draw_pile_cards" not in view["state"]
        assert assert_states_hide_the_pile(view, history(step.board())) == 1


def test_the_seam_judges_moves_and_keeps_the_position_on_a_wrong_one() -> None:
    tutorial = ROSE_KING.tutorial()
    index = [step.key for step in STEPS].index("last-stone")
    wrong = tutorial.answer(index, "NE3")
    assert not wrong.accepted and wrong.reason == "not-asked" and wrong.view is None
    assert wrong.values == {
        "move": "NE3", "card": "NE3", "target": "i8", "red": "114 (7, 26)", "white": "114 (8, 26)",
    }  # fmt: skip
    right = tutorial.answer(index, "SW3")
    assert right.accepted and right.view is not None and right.view["state"]["over"]
    off = tutorial.answer(0, "N3h")
    assert (off.accepted, off.reason, off.values["target"]) == (False, "hero-on-empty", "e8")
    with pytest.raises(InvalidInput):
        tutorial.answer(0, "undo")
    with pytest.raises(InvalidInput):
        tutorial.answer(0, "fly")
