"""Turn order (WR-6), drawing cards (WR-7) and taking them (WR-8), with the rulebook's
examples."""

from __future__ import annotations

import pytest

from roses.wotr.actions import Pick
from roses.wotr.data import default_board
from roses.wotr.errors import IllegalActionError
from roses.wotr.game import Game, Setup
from roses.wotr.phases.draft import lay_out_cards, next_turn_order, pick_sequence, take_card
from roses.wotr.state import Phase

from .helpers import BLUE, GREEN, HOUSES, RED, YELLOW, game_at

BOARD = default_board()


def test_turn_order_by_score_lowest_first() -> None:
    """WR-6 example: red 10, yellow 12, green 13, blue 16 -> red, yellow, green, blue."""
    state = game_at(order=(BLUE, GREEN, YELLOW, RED)).state
    for seat, score in ((RED, 10), (YELLOW, 12), (GREEN, 13), (BLUE, 16)):
        state.players[seat].vp = score
    next_turn_order(state)
    assert state.order == [RED, YELLOW, GREEN, BLUE]


def test_turn_order_ties_keep_previous_relative_order() -> None:
    """WR-6 continued: red and yellow tied last on 30 keep red before yellow."""
    state = game_at(order=(RED, YELLOW, GREEN, BLUE)).state
    for seat, score in ((RED, 30), (YELLOW, 30), (GREEN, 35), (BLUE, 33)):
        state.players[seat].vp = score
    next_turn_order(state)
    assert state.order == [RED, YELLOW, BLUE, GREEN]
    state.order = [YELLOW, RED, BLUE, GREEN]
    next_turn_order(state)
    assert state.order[:2] == [YELLOW, RED]


def test_snake_order_on_turn_one_straight_later() -> None:
    """WR-7: turn 1 in snake order, so player 1 takes the 1st, 8th and 9th cards; later
    turns straight, so player 1 takes the 1st and 5th."""
    assert pick_sequence([0, 1, 2, 3], 12, snake=True) == [0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3]
    assert pick_sequence([0, 1, 2, 3], 8, snake=False) == [0, 1, 2, 3, 0, 1, 2, 3]
    first = [i + 1 for i, s in enumerate(pick_sequence([0, 1, 2, 3], 12, True)) if s == 0]
    assert first == [1, 8, 9]
    assert pick_sequence([1, 0], 12, snake=True) == [1, 0, 0, 1] * 3
    assert pick_sequence([2, 0, 1], 9, snake=True) == [2, 0, 1, 1, 0, 2, 2, 0, 1]


def test_cards_laid_out_per_player_count() -> None:
    """WR-7: 12 then 8 cards with 2 or 4 players; 9 every turn with 3."""
    for players, first in ((2, 12), (3, 9), (4, 12)):
        game = Game(players, seed=3)
        assert game.phase is Phase.DRAW
        assert len(game.state.layout) == first
        assert len(game.state.picks) == first


def play_draft(game: Game) -> None:
    while game.phase is Phase.DRAW:
        seat = game.awaiting()[0]
        game.apply(seat, Pick(game.state.layout[0]))


def test_neutral_cards_laid_out_first_and_extras_leave_the_game() -> None:
    """WR-7 example: 2 face-up Location cards on the deck at turn 2 are laid out before the
    normal 8; players still take 8 in all and the 2 left over leave the game."""
    game = game_at(phase=Phase.DRAW, turn=2, order=(RED, YELLOW, GREEN, BLUE))
    state = game.state
    for card in ("windsor", "york"):
        state.deck.remove(card)
        state.returned.append(card)
    lay_out_cards(state)
    assert state.layout[:2] == ["windsor", "york"] and len(state.layout) == 10
    assert state.returned == []
    # Everyone takes from the back, so the two neutral cards are the ones left over.
    while game.phase is Phase.DRAW:
        game.apply(game.awaiting()[0], Pick(state.layout[-1]))
    assert state.removed[-2:] == ["windsor", "york"]
    assert sum(1 for holder in state.owner.values() if holder is not None) == 8 - sum(
        1 for card in state.removed if card.startswith("mercenary")
    )


def test_taking_cards_marks_icons_and_places_nobles_at_home() -> None:
    """WR-8 example: red takes Stafford, the Bishop of Winchester and Windsor; Stafford's
    token goes to South East England, the others are marked as red's."""
    game = game_at(phase=Phase.DRAW)
    state = game.state
    for card in ("stafford", "bishop-of-winchester", "windsor"):
        state.deck.remove(card)
        state.layout.append(card)
        take_card(state, RED, card)
    assert state.noble_zone == {"stafford": "SE"}
    assert {c: state.owner[c] for c in ("stafford", "bishop-of-winchester", "windsor")} == {
        "stafford": RED, "bishop-of-winchester": RED, "windsor": RED
    }  # fmt: skip
    assert state.ship_sea["ship-of-sandwich"] == "SE-sea"  # WR-8: a ship stays at its port


def test_mercenary_card_gives_the_turns_chart_number_and_leaves() -> None:
    """WR-8: the troops chart's mercenaries for this turn; the card leaves the game;
    the supply of 17 tokens limits what is handed out."""
    game = game_at(phase=Phase.DRAW, turn=3)
    state = game.state
    state.deck.remove("mercenary-1")
    state.layout.append("mercenary-1")
    take_card(state, YELLOW, "mercenary-1")
    assert state.players[YELLOW].mercenaries == BOARD.mercenaries_for_turn(3)
    assert "mercenary-1" in state.removed
    assert state.mercenary_supply == 17 - BOARD.mercenaries_for_turn(3)
    state.mercenary_supply = 1
    state.deck.remove("mercenary-2")
    state.layout.append("mercenary-2")
    take_card(state, GREEN, "mercenary-2")
    assert state.players[GREEN].mercenaries == 1 and state.mercenary_supply == 0


def test_picks_only_from_the_layout_and_only_in_turn() -> None:
    game = Game(4, setup=Setup(BOARD.deck, (2, 0, 1, 3), HOUSES))
    assert game.awaiting() == (2,)
    with pytest.raises(IllegalActionError, match="seat: 0 may not act now"):
        game.apply(0, Pick(game.state.layout[0]))
    with pytest.raises(IllegalActionError, match="is not laid out"):
        game.apply(2, Pick("london" if "london" not in game.state.layout else "nowhere"))
    game.apply(2, Pick(game.state.layout[0]))
    assert game.awaiting() == (0,)
