"""Every game the server offers, by name. The server knows games only through this
registry and the ``GameModule`` interface (``roses.games.base``).

A game is its engine's folder (``roses/<name>/``), its plug here (``roses/games/<name>.py``,
a ``GameModule``) and one line in ``GAMES``; its bots, command line and web client live in
folders of its name (``roses/bots/<name>/``, ``roses/cli/<name>/``, ``roses/web/<name>/``).
The layout test takes its list of games from here; the message extraction (``babel.cfg``)
and the command line find them without a list."""

from __future__ import annotations

from typing import Any

from .base import (
    JSON,
    BotWords,
    Forfeit,
    GameError,
    GameModule,
    HasBots,
    IllegalAction,
    InvalidInput,
    OptionField,
    Outcome,
    Playthrough,
    TableTalk,
    bot_player,
    bots_described,
    bots_offered,
    with_bots,
)
from .roseking import ROSE_KING
from .wotr import WOTR

GAMES: dict[str, GameModule[Any, Any]] = {ROSE_KING.name: ROSE_KING, WOTR.name: WOTR}


def game_module(name: str) -> GameModule[Any, Any]:
    """The game called ``name``; ``InvalidInput`` naming the choices for an unknown one."""
    try:
        return GAMES[name]
    except KeyError:
        raise InvalidInput(
            "there is no game '{name}' (choose from: {choices})",
            name=name,
            choices=", ".join(sorted(GAMES)),
        ) from None


def register(module: GameModule[Any, Any]) -> None:
    """Offer another game (a plug-in, or a test's own game)."""
    GAMES[module.name] = module


__all__ = [
    "GAMES",
    "JSON",
    "BotWords",
    "Forfeit",
    "GameError",
    "GameModule",
    "HasBots",
    "IllegalAction",
    "InvalidInput",
    "OptionField",
    "Outcome",
    "Playthrough",
    "TableTalk",
    "bot_player",
    "bots_described",
    "bots_offered",
    "game_module",
    "register",
    "with_bots",
]
