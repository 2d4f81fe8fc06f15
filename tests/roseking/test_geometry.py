"""RK-1 (squares and orientation) and RK-3 (the 24 power cards)."""

import pytest

from roses.roseking import CARD_NAMES, parse_card, parse_square, square_name
from roses.roseking.geometry import TARGET


def test_rk1_squares_are_named_like_chess_squares() -> None:
    assert parse_square("a1") == 0
    assert parse_square("e5") == 40
    assert parse_square("i9") == 80
    assert [square_name(sq) for sq in (0, 8, 72, 80)] == ["a1", "i1", "a9", "i9"]


@pytest.mark.parametrize("bad", ["j1", "a0", "a10", "", "E5", "5e"])
def test_rk1_bad_square_names_are_rejected(bad: str) -> None:
    with pytest.raises(ValueError, match="not a square"):
        parse_square(bad)


def test_rk3_one_card_per_direction_and_distance() -> None:
    assert len(CARD_NAMES) == 24
    assert CARD_NAMES[:6] == ("N1", "N2", "N3", "NE1", "NE2", "NE3")
    directions = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    assert set(CARD_NAMES) == {d + str(n) for d in directions for n in (1, 2, 3)}


def test_rk3_directions_are_absolute_north_is_rank_9() -> None:
    e5 = parse_square("e5")
    assert square_name(TARGET[parse_card("N2")][e5]) == "e7"
    assert square_name(TARGET[parse_card("S3")][e5]) == "e2"
    assert square_name(TARGET[parse_card("E1")][e5]) == "f5"
    assert square_name(TARGET[parse_card("NW3")][e5]) == "b8"
    assert square_name(TARGET[parse_card("SE2")][e5]) == "g3"


def test_rk8_moves_off_the_board_have_no_target() -> None:
    assert TARGET[parse_card("N1")][parse_square("e9")] == -1
    assert TARGET[parse_card("W3")][parse_square("b5")] == -1
    assert TARGET[parse_card("SW1")][parse_square("a1")] == -1
