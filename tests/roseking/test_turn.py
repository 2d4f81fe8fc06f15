"""A turn: RK-8 play a card, RK-9 draw, RK-10 hero, RK-11 pass."""

import pytest

from roses.roseking import (
    DRAW_MOVE,
    PASS_MOVE,
    Board,
    IllegalMoveError,
    Move,
    Variant,
    parse_card,
    parse_square,
)

from .helpers import make_board, moves


def test_rk8_a_card_moves_the_crown_and_places_an_own_stone() -> None:
    board = make_board(hands=["N2 E1 S1 W1 NE1", "SE1 SW1 NW1 N1 E2"])
    board.push(Move.from_str("N2"))
    assert board.crown == parse_square("e7")
    assert board.red == 1 << parse_square("e7")
    assert board.white == 0
    assert board.hands[0] == tuple(map(parse_card, ["E1", "S1", "W1", "NE1"]))
    assert board.discard_pile == (parse_card("N2"),)
    assert len(board.draw_pile) == 14  # RK-8: no card is drawn
    assert board.turn == 1


def test_rk8_the_crown_jumps_over_stones_to_an_empty_square() -> None:
    board = make_board(red="e5 e6", white="e7", hands=["N3 E1 S1 W1 NE1", "SE1 SW1 NW1 N1 E2"])
    assert "N3" in moves(board)
    board.push(Move.from_str("N3"))
    assert board.crown == parse_square("e8")


def test_rk8_target_must_be_empty_and_on_the_board() -> None:
    board = make_board(
        red="i9", white="h9", crown="i9", hands=["N1 E2 W1 S1 SW1", "SE1 NW1 N2 E1 S2"]
    )
    # N1 and E2 leave the board; W1 hits White's stone (a hero play); S1 and SW1 are fine.
    assert moves(board) == {"S1", "SW1", "W1h"}
    with pytest.raises(IllegalMoveError, match="leave the board"):
        board.push(Move.from_str("N1"))
    with pytest.raises(IllegalMoveError, match="holds a stone"):
        board.push(Move.from_str("W1"))


def test_rk8_a_card_not_in_hand_cannot_be_played() -> None:
    board = make_board(hands=["N2 E1 S1 W1 NE1", "SE1 SW1 NW1 N1 E2"])
    with pytest.raises(IllegalMoveError, match="does not hold SE1"):
        board.push(Move.from_str("SE1"))


def test_rk9_draw_only_with_fewer_than_five_cards() -> None:
    full = make_board(hands=["N2 E1 S1 W1 NE1", "SE1 SW1 NW1 N1 E2"])
    assert DRAW_MOVE not in full.legal_moves()
    with pytest.raises(IllegalMoveError, match="RK-9"):
        full.push(DRAW_MOVE)
    short = make_board(hands=["N2 E1 S1 W1", "SE1 SW1 NW1 N1 E2"], discard="NE1")
    top = short.draw_pile[0]
    short.push(DRAW_MOVE)
    assert short.hands[0][-1] == top
    assert short.turn == 1


def test_rk9_the_last_card_drawn_turns_the_discard_pile_into_the_draw_pile() -> None:
    discard = "N1 N2 N3 NE1 NE2 NE3 E1 E2 E3 SE1 SE2 SE3 S1 S2"
    board = make_board(
        hands=["S3 SW1 SW2 SW3", "W1 W2 W3 NW1 NW2"], draw="NW3", discard=discard, seed=9
    )
    board.push(DRAW_MOVE)
    assert board.hands[0][-1] == parse_card("NW3")
    assert board.discard_pile == ()
    assert sorted(board.draw_pile) == sorted(map(parse_card, discard.split()))
    assert board.reshuffles == [board.draw_pile]
    board.pop()
    assert board.reshuffles == []
    assert board.draw_pile == (parse_card("NW3"),)
    board.push(DRAW_MOVE)  # the same seed reshuffles the same way again
    assert board.reshuffles == [board.draw_pile]


def test_rk10_hero_flips_an_opponent_stone_without_using_the_supply() -> None:
    board = make_board(red="e5", white="e6", hands=["N1 E2 S3 W1 NW2", "S1 SE1 SW1 E1 W2"])
    assert "N1h" in moves(board) and "N1" not in moves(board)
    supply = board.supply
    board.push(Move.from_str("N1h"))
    assert board.red == (1 << parse_square("e5")) | (1 << parse_square("e6"))
    assert board.white == 0
    assert board.supply == supply
    assert board.heroes == (3, 4)
    assert board.crown == parse_square("e6")


def test_rk10_a_hero_never_lands_on_an_empty_square_or_an_own_stone() -> None:
    board = make_board(red="e5 e6", white="f5", hands=["N1 E1 S1 W1 NW2", "S2 SE1 SW1 E2 W2"])
    legal = moves(board)
    assert "N1h" not in legal and "S1h" not in legal and "E1h" in legal
    with pytest.raises(IllegalMoveError, match="own stone"):
        board.push(Move.from_str("N1h"))
    with pytest.raises(IllegalMoveError, match="opponent's stone"):
        board.push(Move.from_str("S1h"))


def test_rk10_no_hero_left_no_hero_play() -> None:
    board = make_board(
        red="e5", white="e6", hands=["N1 E2 S3 W1 NW2", "S1 SE1 SW1 E1 W2"], heroes=[0, 4]
    )
    assert "N1h" not in moves(board)
    with pytest.raises(IllegalMoveError, match="no hero card left"):
        board.push(Move.from_str("N1h"))


def test_rk11_a_player_who_can_move_only_with_a_hero_must_use_one() -> None:
    # Red's five cards all hit stones; only N1 hits a white one.
    board = make_board(
        red="e5 f5 e4 d5 f6", white="e6", hands=["N1 E1 S1 W1 NE1", "S2 SE1 SW1 E2 W2"]
    )
    assert moves(board) == {"N1h"}


def test_rk11_pass_only_when_nothing_is_possible_and_the_opponent_moves_again() -> None:
    board = make_board(
        red="e5 f5 e4 d5 f6 e6", hands=["N1 E1 S1 W1 NE1", "S2 SE1 SW1 E2 W2"], heroes=[4, 4]
    )
    assert board.legal_moves() == (PASS_MOVE,)
    board.push(PASS_MOVE)
    assert board.turn == 1
    assert "S2" in moves(board)


def test_rk11_pass_is_illegal_while_a_move_exists() -> None:
    board = Board(seed=1)
    with pytest.raises(IllegalMoveError, match="can still move"):
        board.push(PASS_MOVE)


def test_rk16_four_players_may_not_draw_holding_three_cards() -> None:
    board = Board(Variant.FOUR_PLAYER, seed=4)
    assert DRAW_MOVE not in board.legal_moves()
    card = board.legal_moves()[0]
    board.push(card)  # R1 plays: 2 cards left
    assert board.turn == 1


def test_rk16_turn_order_is_red1_white1_red2_white2() -> None:
    board = Board(Variant.FOUR_PLAYER, seed=4)
    names = []
    for _ in range(5):
        names.append(board.seat_name())
        board.push(board.legal_moves()[0])
    assert names == ["r1", "w1", "r2", "w2", "r1"]


def test_rk16_partners_stones_are_the_team_colour_and_heroes_are_own() -> None:
    board = make_board(
        variant=Variant.FOUR_PLAYER,
        red="e5",
        white="e6",
        turn="r2",
        hands=["E1", "W1", "N1 S1", "SE1"],
        heroes=[2, 2, 0, 2],
    )
    assert "N1h" not in moves(board)  # RK-16: R2 may not use R1's heroes
    board.push(Move.from_str("S1"))
    assert board.red >> parse_square("e4") & 1  # R2 places a red stone
