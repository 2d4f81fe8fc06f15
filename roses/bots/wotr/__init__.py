"""Computer players for Wars of the Roses. They see only a player's ``PlayerView`` (WR-20)."""

from .base import WotrBot, available_wotr_bots, make_wotr_bot

__all__ = ["WotrBot", "available_wotr_bots", "make_wotr_bot"]
