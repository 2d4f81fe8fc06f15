"""RK-22 (moves) and RK-23 (positions): parsed and written exactly, typed errors."""

import pytest

from roses.roseking import (
    ALL_MOVES,
    Board,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Variant,
    parse_move,
)

RULEBOOK_START = (
    "9/9/9/9/9/9/9/9/9 e5 r N1,E2,S3,SW1,NW2|NE1,NE3,W1,S1,E3 4|4 "
    "N2,N3,NE2,E1,SE1,SE2,SE3,S2,SW2,SW3,W2,W3,NW1,NW3/-"
)


@pytest.mark.parametrize("text", ["N2", "SE3", "NW1h", "draw", "pass"])
def test_rk22_moves_round_trip(text: str) -> None:
    assert str(parse_move(text)) == text
    assert Move.from_str(text) is parse_move(text)


def test_rk22_every_move_has_a_fixed_action_id() -> None:
    assert [m.action_id for m in ALL_MOVES] == list(range(50))
    assert all(Move.from_action_id(m.action_id) is m for m in ALL_MOVES)
    with pytest.raises(InvalidMoveError):
        Move.from_action_id(50)


@pytest.mark.parametrize("bad", ["", "n2", "N4", "N2H", "Draw", " N2", "N2 ", "hN2", "X1"])
def test_rk22_bad_moves_raise_invalid_move_error(bad: str) -> None:
    with pytest.raises(InvalidMoveError, match="not a move"):
        parse_move(bad)


def test_rk23_rulebook_start_round_trips() -> None:
    board = Board.from_position(RULEBOOK_START)
    assert board.position() == RULEBOOK_START
    assert board.turn == 0 and board.supply == 52


def test_rk23_four_player_round_trip() -> None:
    board = Board(Variant.FOUR_PLAYER, seed=8)
    for _ in range(9):
        board.push(board.legal_moves()[-1])
    text = board.position()
    parsed = Board.from_position(text)
    assert parsed.position() == text
    assert parsed.variant is Variant.FOUR_PLAYER
    assert parsed == board


def test_rk23_board_field_writes_runs_of_empty_squares() -> None:
    board = Board.from_position(RULEBOOK_START)
    board.push(Move.from_str("N1"))
    assert board.position().split()[0] == "9/9/9/4r4/9/9/9/9/9"


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        ("9/9/9 e5 r N1|N2 4|4", "position", "6 space-separated"),
        (RULEBOOK_START.replace("9/9/9/9/9/9/9/9/9", "9/9/9/9/9/9/9/9"), "field 1", "9 ranks"),
        (RULEBOOK_START.replace("9/9/9/9/9/9/9/9/9", "9/9/9/9/8/9/9/9/9"), "field 1", "8 squares"),
        (RULEBOOK_START.replace("9/9/9/9/9/9/9/9/9", "9/9/9/9/x8/9/9/9/9"), "field 1", "'x'"),
        (RULEBOOK_START.replace(" e5 ", " z5 "), "field 2", "not a square"),
        (RULEBOOK_START.replace(" e5 ", " a1 "), "field 2", "e5"),
        (RULEBOOK_START.replace(" r ", " r1 "), "field 3", "'r1'"),
        (RULEBOOK_START.replace("N1,E2", "N1,Q2"), "field 4", "'Q2'"),
        (RULEBOOK_START.replace("4|4", "4|5"), "field 5", "0..4"),
        (RULEBOOK_START.replace("4|4", "4"), "field 5", "2 hero counts"),
        (RULEBOOK_START.replace("NW3/-", "NW3"), "field 6", "discard pile"),
        (RULEBOOK_START.replace("N2,N3,", "N2,N2,N3,"), "cards", "N2"),
        (RULEBOOK_START.replace("N2,N3,", "N3,"), "cards", "missing: N2"),
    ],
)
def test_rk23_errors_name_the_field(text: str, field: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message) as caught:
        Board.from_position(text)
    assert str(caught.value).startswith(field)


def test_rk23_hands_over_the_limit_are_rejected() -> None:
    text = RULEBOOK_START.replace("N1,E2,S3,SW1,NW2", "N1,E2,S3,SW1,NW2,N2").replace(
        "N2,N3,", "N3,"
    )
    with pytest.raises(InvalidPositionError, match="holds 6 cards"):
        Board.from_position(text)


def test_rk23_an_empty_draw_pile_is_impossible() -> None:
    text = "9/9/9/9/4r4/9/9/9/9 e5 w N1,E2,S3,SW1,NW2|NE1,NE3,W1,S1,E3 4|4 -/" + (
        "N2,N3,NE2,E1,SE1,SE2,SE3,S2,SW2,SW3,W2,W3,NW1,NW3"
    )
    with pytest.raises(InvalidPositionError, match="draw pile is empty"):
        Board.from_position(text)


def test_rk23_the_crown_stands_on_a_stone() -> None:
    text = RULEBOOK_START.replace("9/9/9/9/9/9/9/9/9", "9/9/9/9/r8/9/9/9/9")
    with pytest.raises(InvalidPositionError, match="must stand on a stone"):
        Board.from_position(text)
