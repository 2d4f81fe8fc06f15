"""The end of the game: RK-12 (the last stone), RK-13 (nobody can move), RK-17 (four players)."""

from roses.roseking import Move, Termination, Variant

from .helpers import make_board, moves

ALL_SQUARES = [f + r for r in "123456789" for f in "abcdefghi"]


def _fifty_one_stones() -> tuple[str, str]:
    stones = ALL_SQUARES[:51]  # ranks 1-5 and a6..f6; e8 stays empty
    red = " ".join(sq for i, sq in enumerate(stones) if i % 2 == 0)
    white = " ".join(sq for i, sq in enumerate(stones) if i % 2 == 1)
    return red, white


def test_rk12_placing_the_52nd_stone_ends_the_game_at_once() -> None:
    red, white = _fifty_one_stones()
    assert "e5" in red.split()
    board = make_board(red=red, white=white, hands=["N3 E1 S1 W1 NE1", "N1 N2 S2 SE1 SW1"])
    assert board.supply == 1
    board.push(Move.from_str("N3"))
    assert board.supply == 0
    assert board.is_over()
    assert board.legal_moves() == ()
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.LAST_STONE


def test_rk12_a_flip_never_uses_a_stone_so_it_never_ends_the_game() -> None:
    red, white = _fifty_one_stones()
    board = make_board(red=red, white=white, hands=["W1 N3 S2 SW1 NE3", "N1 N2 S1 SE1 E1"])
    assert "W1h" in moves(board)  # d5 is White's
    board.push(Move.from_str("W1h"))
    assert board.supply == 1
    assert not board.is_over()


def test_rk13_the_game_ends_when_neither_player_can_act() -> None:
    # From a1 every card of both hands leaves the board; both hands are full.
    board = make_board(
        red="a1", crown="a1", hands=["S1 S2 S3 W1 W2", "W3 SW1 SW2 SW3 SE1"], turn="w"
    )
    assert board.legal_moves() == ()
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.NO_MOVES
    assert outcome.winner is not None and outcome.winner.label == "red"  # 1 (1, 1) to 0


def test_rk13_not_over_while_the_opponent_can_still_draw() -> None:
    board = make_board(red="a1", crown="a1", hands=["S1 S2 S3 W1 W2", "W3 SW1 SW2 SW3"], turn="r")
    assert moves(board) == {"pass"}
    assert not board.is_over()


def test_rk17_four_players_end_when_no_player_can_act() -> None:
    hands = ["S1 S2 S3", "W1 W2 W3", "SW1 SW2 SW3", "SE1 SE2 SE3"]
    board = make_board(variant=Variant.FOUR_PLAYER, red="a1", crown="a1", hands=hands, turn="w1")
    assert board.is_over()
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_MOVES


def test_rk17_a_four_player_seat_that_cannot_move_passes() -> None:
    hands = ["S1 S2 S3", "W1 W2 W3", "N1 SW2 SW3", "SE1 SE2 SE3"]
    board = make_board(variant=Variant.FOUR_PLAYER, red="a1", crown="a1", hands=hands, turn="w1")
    assert moves(board) == {"pass"}
    board.push(Move.from_str("pass"))
    assert board.seat_name() == "r2"
    assert moves(board) == {"N1"}
