"""RK-5, RK-6, RK-7 (set-up and who starts) and RK-16 (four-player deal)."""

from collections import Counter

from roses.roseking import Board, Variant, parse_square
from roses.roseking.board import shuffled_deck


def test_rk5_deal_five_cards_each_fourteen_in_the_draw_pile() -> None:
    board = Board(seed=11)
    assert [len(hand) for hand in board.hands] == [5, 5]
    assert len(board.draw_pile) == 14
    assert board.discard_pile == ()
    assert sorted(c for hand in board.hands for c in hand) + sorted(board.draw_pile) != []
    assert sorted([*board.hands[0], *board.hands[1], *board.draw_pile]) == list(range(24))


def test_rk5_the_deal_follows_the_deck_order_in_seat_order() -> None:
    deck = shuffled_deck(5)
    board = Board(seed=5)
    assert board.hands == (deck[:5], deck[5:10])
    assert board.draw_pile == deck[10:]


def test_rk5_seeds_give_reproducible_and_different_deals() -> None:
    assert Board(seed=3).position() == Board(seed=3).position()
    assert len({Board(seed=s).position() for s in range(50)}) == 50


def test_rk6_heroes_and_crown_on_the_empty_sun_square() -> None:
    board = Board(seed=1)
    assert board.heroes == (4, 4)
    assert board.crown == parse_square("e5")
    assert board.red == board.white == 0
    assert board.supply == 52


def test_rk7_red_moves_first_in_the_kosmos_rules() -> None:
    assert all(Board(seed=s).turn == 0 for s in range(20))


def test_rk7_random_start_draws_the_first_player() -> None:
    firsts = Counter(Board(Variant.RANDOM_START, seed=s).turn for s in range(400))
    assert set(firsts) == {0, 1}
    assert 150 < firsts[0] < 250


def test_rk16_four_players_get_three_cards_and_two_heroes() -> None:
    board = Board(Variant.FOUR_PLAYER, seed=2)
    assert board.seats == 4
    assert [len(hand) for hand in board.hands] == [3, 3, 3, 3]
    assert board.heroes == (2, 2, 2, 2)
    assert len(board.draw_pile) == 12
    assert board.position().split()[2] == "r1"
