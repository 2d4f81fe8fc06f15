"""RK-14 (territories score n x n), RK-15 (tie-breaks), RK-21 (the score's display)."""

from hypothesis import given
from hypothesis import strategies as st

from roses.roseking import Team, parse_square, territories, territory_sizes
from roses.roseking.scoring import leader, team_score

from .helpers import make_board


def bb(squares: str) -> int:
    return sum(1 << parse_square(sq) for sq in squares.split())


# The rulebook's figure: White 8 + 2 + 1, Red 5 + 2 + 2 + 1.
WHITE = "a9 b9 c9 d9 a8 b8 c8 d8 g9 h9 i7"
RED = "a1 b1 c1 d1 e1 a3 b3 g1 h1 i5"


def test_rk14_rulebook_example_69_to_34() -> None:
    assert territory_sizes(bb(WHITE)) == [8, 2, 1]
    assert territory_sizes(bb(RED)) == [5, 2, 2, 1]
    assert team_score(bb(WHITE)).score == 64 + 4 + 1 == 69
    assert team_score(bb(RED)).score == 25 + 4 + 4 + 1 == 34


def test_rk14_example_through_a_board_and_rk21_display() -> None:
    board = make_board(red=RED + " e5", white=WHITE, hands=["N1", "S1"])
    red, white = board.team_scores()
    assert str(white) == "69 (8, 11)"
    assert str(red) == "35 (5, 11)"  # the crown's stone on e5 adds a single


def test_rk14_corners_do_not_connect() -> None:
    assert territory_sizes(bb("a1 b2 c3")) == [1, 1, 1]
    assert territory_sizes(bb("a1 a2 b2")) == [3]


def test_rk14_board_edges_do_not_wrap() -> None:
    assert territory_sizes(bb("i1 a2")) == [1, 1]  # i1 and a2 are neighbours as bits only
    assert territory_sizes(bb("i5 a6 i6")) == [2, 1]


def test_rk15_higher_score_wins() -> None:
    assert leader(team_score(bb("a1 a2")), team_score(bb("i9"))) is Team.RED


def test_rk15_tie_on_score_larger_territory_wins() -> None:
    red = team_score(bb("a1 a2 a3 c1 e1 g1 i1 c9"))  # 3,1,1,1,1,1 -> 14
    white = team_score(bb("a5 a6 c5 c6 e5 e6 g5 i5"))  # 2,2,2,1,1 -> 14
    assert red.score == white.score == 14
    assert leader(red, white) is Team.RED


def test_rk15_then_more_stones_wins() -> None:
    red = team_score(bb("a1 a2 c1 e1 g1 i1"))  # 2,1,1,1,1 -> 8, largest 2, 6 stones
    white = team_score(bb("a5 a6 c5 c6"))  # 2,2 -> 8, largest 2, 4 stones
    assert (red.score, red.largest) == (white.score, white.largest)
    assert leader(red, white) is Team.RED
    assert leader(white, red) is Team.WHITE


def test_rk15_still_tied_is_a_draw() -> None:
    assert leader(team_score(bb("a1 a2 c9")), team_score(bb("i1 i2 e5"))) is None


@given(st.sets(st.integers(0, 80)))
def test_rk14_territories_partition_the_stones(squares: set[int]) -> None:
    stones = sum(1 << sq for sq in squares)
    sizes = territory_sizes(stones)
    assert sum(sizes) == len(squares)
    score = team_score(stones)
    assert score.score == sum(n * n for n in sizes)
    assert score.largest == (max(sizes) if sizes else 0)
    assert score.score >= len(squares)  # every stone scores at least 1
    groups = territories(stones)
    assert [group.bit_count() for group in groups] == sizes
    assert sum(groups) == stones  # disjoint groups covering every stone
