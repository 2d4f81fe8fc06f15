"""Income and French Aid (WR-9)."""

from __future__ import annotations

import pytest

from roses.wotr.actions import FrenchAid
from roses.wotr.errors import IllegalActionError
from roses.wotr.phases.income import collect_income, french_aid_amount, french_aid_candidates
from roses.wotr.state import GameState, Phase

from .helpers import BLUE, GREEN, RED, YELLOW, game_at, give


def test_income_is_the_sum_printed_on_income_cards() -> None:
    """WR-9: towns, large towns, bishops, ports and ships give income; castles and nobles
    do not."""
    state = game_at().state
    give(state, RED, "london", "winchester", "bishop-of-winchester", "sandwich",
         "ship-of-sandwich", "windsor", "stafford")  # fmt: skip
    board = state.board
    expected = sum(board.icons[c].income for c in ("london", "winchester",
                   "bishop-of-winchester", "sandwich", "ship-of-sandwich"))  # fmt: skip
    collect_income(state)
    assert state.players[RED].money == expected
    assert state.players[YELLOW].money == 0


def scored(turn: int, **scores: int) -> GameState:
    state = game_at(turn=turn, phase=Phase.INCOME).state
    seats = {"red": RED, "yellow": YELLOW, "green": GREEN, "blue": BLUE}
    for name, score in scores.items():
        state.players[seats[name]].vp = score
    return state


def test_french_aid_example_8_and_5() -> None:
    """WR-9 example: the leader has 38; red (30) could take 8 pounds, yellow (33) 5."""
    state = scored(2, red=30, yellow=33, green=38, blue=35)
    assert french_aid_amount(state, RED) == 8
    assert french_aid_amount(state, YELLOW) == 5
    assert french_aid_amount(state, GREEN) == 0  # the leader may not
    assert french_aid_candidates(state) == [RED, YELLOW, BLUE]


def test_french_aid_at_most_25_never_on_turn_one_and_once_per_game() -> None:
    """WR-9: at most 25 pounds; turns 2-5 only; the token is used once."""
    state = scored(3, red=0, yellow=40, green=10, blue=10)
    assert french_aid_amount(state, RED) == 25
    state = scored(1, red=0, yellow=40, green=10, blue=10)
    assert french_aid_amount(state, RED) == 0
    state = scored(4, red=0, yellow=40)
    state.players[RED].french_aid_used = True
    assert french_aid_amount(state, RED) == 0


def test_french_aid_asked_in_turn_order_and_paid_once() -> None:
    """WR-9: in turn order each eligible player decides; a taker gets the gap once."""
    game = game_at(turn=2, phase=Phase.DRAW, order=(YELLOW, RED, GREEN, BLUE))
    state = game.state
    for seat, score in ((RED, 30), (YELLOW, 33), (GREEN, 38), (BLUE, 38)):
        state.players[seat].vp = score
    state.picks = []  # the draft is over: entering income asks for French Aid
    game._advance()
    assert game.phase is Phase.INCOME and game.awaiting() == (YELLOW,)
    with pytest.raises(IllegalActionError, match="may not act now"):
        game.apply(RED, FrenchAid(True))
    game.apply(YELLOW, FrenchAid(False))
    game.apply(RED, FrenchAid(True))
    assert state.players[RED].money == 8 and state.players[RED].french_aid_used
    assert state.players[YELLOW].money == 0 and not state.players[YELLOW].french_aid_used
    assert game.phase is Phase.PLANNING
