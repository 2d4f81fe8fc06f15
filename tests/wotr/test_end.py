"""The end of the game (WR-18) and the 2- and 3-player rules (WR-19)."""

from __future__ import annotations

from roses.wotr.actions import FrenchAid, Orders, Pick
from roses.wotr.game import Game
from roses.wotr.phases.ending import outcome
from roses.wotr.state import LANCASTER, YORK, Phase

from .helpers import BLUE, GREEN, RED, YELLOW, game_at, give


def test_most_vp_wins() -> None:
    state = game_at().state
    for seat, score in enumerate((40, 52, 38, 51)):
        state.players[seat].vp = score
    result = outcome(state)
    assert result.winners == (YELLOW,) and result.ranking == (YELLOW, BLUE, RED, GREEN)


def test_tie_goes_to_the_house_crowned_more_often() -> None:
    """WR-18: tied players: the one whose house was crowned more often."""
    state = game_at().state
    state.players[RED].vp = state.players[YELLOW].vp = 50  # red Lancaster, yellow York
    state.crowned = [YORK, LANCASTER, YORK, YORK, LANCASTER]
    assert outcome(state).winners == (YELLOW,)


def test_same_house_tie_by_highest_noble_then_next_then_castles() -> None:
    """WR-18: same house: highest noble, then the next noble, ..., then most royal
    castles, most large towns, and so on."""
    state = game_at().state
    state.players[YELLOW].vp = state.players[GREEN].vp = 50  # both York
    give(state, YELLOW, "percy", "herbert")
    give(state, GREEN, "plantagenet", "hastings")
    assert outcome(state).winners == (YELLOW,)  # 9 = 9, then Herbert 4 > Hastings 3
    state.owner["herbert"] = None
    give(state, GREEN, "windsor")
    give(state, YELLOW, "london", "york")
    state.owner["hastings"] = None
    assert outcome(state).winners == (GREEN,)  # nobles equal; a castle beats large towns
    standings = outcome(state).standings()[:2]
    assert [(row["seat"], row["vp"], row["crowns"], row["nobles"]) for row in standings] == [
        (GREEN, 50, 0, [9]), (YELLOW, 50, 0, [9])
    ]  # fmt: skip
    assert standings[0]["icons"]["castle"] == 1 and standings[1]["icons"]["large_town"] == 2


def test_complete_equality_shares_the_win() -> None:
    state = game_at(players=2).state
    state.players[0].vp = state.players[1].vp = 30
    assert outcome(state).winners == (0, 1)


def test_two_and_three_players_have_no_houses_and_no_king() -> None:
    """WR-19: no house tiles and no King vote with 2 or 3 players."""
    for players in (2, 3):
        game = Game(players, seed=5)
        assert all(p.house is None for p in game.state.players)
        while not game.is_over():
            for seat in game.awaiting():
                if game.phase is Phase.DRAW:
                    game.apply(seat, Pick(game.state.layout[0]))
                elif game.phase is Phase.PLANNING:
                    game.apply(seat, Orders())
                else:
                    game.apply(seat, FrenchAid(False))
        assert game.state.crowned == []
        assert all(p.vp_by_source["king"] == 0 for p in game.state.players)
        assert game.outcome() is not None
