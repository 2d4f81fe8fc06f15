"""Positions for the rules tests: an empty table with chosen holdings, built on the real
engine so that tests drive the same code as games."""

from __future__ import annotations

from typing import Any

from hypothesis import Phase as Stage

from roses.wotr.actions import Pick
from roses.wotr.data import BoardData, default_board, default_board_json, parse_board
from roses.wotr.game import Game, Setup
from roses.wotr.state import LANCASTER, YORK, GameState, Phase

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
# For whole games drawn from a seed: a failing seed is reported as it is, not shrunk.
NO_SHRINK = (Stage.explicit, Stage.reuse, Stage.generate)
HOUSES = (LANCASTER, YORK, YORK, LANCASTER)  # Red and Blue are Lancastrians in the examples


def board_with(change: Any) -> BoardData:
    """The default board with ``change(data)`` applied to its JSON (a user's own board)."""
    data = default_board_json()
    change(data)
    return parse_board(data)


def neville_ten() -> BoardData:
    """The planning example (47 pounds) ranks Neville at 10; two others rank him 8."""

    def change(data: dict[str, Any]) -> None:
        next(n for n in data["nobles"] if n["id"] == "neville")["cp"] = 10

    return board_with(change)


def game_at(
    players: int = 4,
    order: tuple[int, ...] | None = None,
    *,
    board: BoardData | None = None,
    phase: Phase = Phase.PLANNING,
    turn: int = 1,
    money: int = 0,
) -> Game:
    """A game whose table is empty (every card still in the deck), waiting in ``phase``."""
    board = board or default_board()
    order = order or tuple(range(players))
    houses = HOUSES if players == 4 else None
    game = Game(players, board=board, setup=Setup(board.deck, order, houses))
    state = game.state
    state.deck = list(board.deck)
    state.layout, state.removed, state.log = [], [], []
    state.phase, state.turn = phase, turn
    for player in state.players:
        player.money = money
    return game


def give(state: GameState, seat: int, *cards: str, zone: str | None = None) -> None:
    """Hand ``seat`` these cards from the deck; nobles stand in ``zone`` or their home."""
    for card in cards:
        state.deck.remove(card)
        state.owner[card] = seat
        if card in state.board.nobles:
            state.noble_zone[card] = zone or state.board.nobles[card].home


def vp(game: Game) -> list[int]:
    return [player.vp for player in game.state.players]


def planning_game() -> Game:
    """A 4-player game at turn 1's Planning, every pick the first card laid out."""
    game = Game(4, seed=11)
    while game.phase is Phase.DRAW:
        game.apply(game.awaiting()[0], Pick(game.state.layout[0]))
    assert game.phase is Phase.PLANNING
    return game
