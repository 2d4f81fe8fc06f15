"""Rose King bots. They see only a player's view, never the hidden draw pile order (RK-20)."""

from .base import INSTANT, STRONGEST, Bot, BotSpec, available_bots, make_bot, prepare

__all__ = ["INSTANT", "STRONGEST", "Bot", "BotSpec", "available_bots", "make_bot", "prepare"]
