"""Playing whole games between bots: each bot is asked only with its own player's view."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from roses.wotr.data import BoardData
from roses.wotr.game import Game

from .base import WotrBot

Observer = Callable[[Game], None]


def play_out(game: Game, bots: Sequence[WotrBot], after_each: Observer | None = None) -> Game:
    """Ask each awaited seat's bot for its decision until the game is over."""
    while not game.is_over():
        for seat in game.awaiting():
            game.apply(seat, bots[seat].act(game.view(seat)))
            if after_each is not None:
                after_each(game)
    return game


def bot_game(
    bots: Sequence[WotrBot],
    *,
    seed: int | None = None,
    board: BoardData | None = None,
    after_each: Observer | None = None,
) -> Game:
    """A complete game between ``bots`` (one per seat), its chance drawn from ``seed``."""
    return play_out(Game(len(bots), board=board, seed=seed), bots, after_each)
