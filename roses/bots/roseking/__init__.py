"""Rose King bots. They see only a player's view, never the hidden draw pile order (RK-20)."""

from .base import Bot, BotSpec, available_bots, make_bot

__all__ = ["Bot", "BotSpec", "available_bots", "make_bot"]
