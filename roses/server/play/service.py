"""What the routes of the games share: a change in one transaction, then announced, and a
view answered as it is (views are JSON-ready already)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session

from ..db.models import User
from ..http.fast_json import FastJSONResponse
from ..services import services
from .live_games import LiveGame
from .views import game_view


async def in_transaction(request: Request, change: Callable[[Session], Any]) -> Any:
    def run() -> Any:
        with services(request).sessions.begin() as db:
            return change(db)

    return await asyncio.to_thread(run)


async def announce_and_view(request: Request, game_id: int, user: User) -> JSONResponse:
    """After a change made outside the game's writer: read it again, tell the watchers."""
    games = services(request).games
    await games.changed_elsewhere(game_id)
    return view_response(await games.get(game_id), user.id)


def view_response(live: LiveGame, user_id: int, status: int = 200) -> JSONResponse:
    # Views are JSON-ready already: answer them without FastAPI's generic encoding pass.
    return FastJSONResponse(game_view(live, user_id), status_code=status)


async def read_db(request: Request, reading: Callable[[Session], Any]) -> Any:
    def run() -> Any:
        with services(request).sessions() as db:
            return reading(db)

    return await asyncio.to_thread(run)
