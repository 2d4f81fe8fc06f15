"""Every game the server offers, by name. The server knows games only through this
registry and the ``GameModule`` interface (``roses.games.base``)."""

from __future__ import annotations

from typing import Any

from .base import (
    JSON,
    GameError,
    GameModule,
    IllegalAction,
    InvalidInput,
    OptionField,
    Outcome,
)
from .roseking import ROSE_KING
from .wotr import WOTR

GAMES: dict[str, GameModule[Any]] = {ROSE_KING.name: ROSE_KING, WOTR.name: WOTR}


def game_module(name: str) -> GameModule[Any]:
    """The game called ``name``; ``InvalidInput`` naming the choices for an unknown one."""
    try:
        return GAMES[name]
    except KeyError:
        raise InvalidInput(
            "there is no game '{name}' (choose from: {choices})",
            name=name,
            choices=", ".join(sorted(GAMES)),
        ) from None


def register(module: GameModule[Any]) -> None:
    """Offer another game (a plug-in, or a test's own game)."""
    GAMES[module.name] = module


__all__ = [
    "GAMES",
    "JSON",
    "GameError",
    "GameModule",
    "IllegalAction",
    "InvalidInput",
    "OptionField",
    "Outcome",
    "game_module",
    "register",
]
