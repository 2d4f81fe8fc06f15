"""The web server for online play: accounts, lobby, games, live updates and bots."""

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
