"""Games nobody came to: a game still waiting for players ``open_game_days`` after it was
created is cancelled (its seats stop counting against anyone's quota). The server looks
every ``expiry_check_seconds`` and whenever a list of games is read."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

from fastapi import Request
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..accounts.signed_in import CurrentUser
from ..db.models import Game, GameStatus, utcnow
from ..services import Services, services
from ..workers.periodic import repeated

log = logging.getLogger("roses.server")


def expire_open_games(db: Session, days: float) -> list[int]:
    """Cancel the games waiting for players since before ``days`` ago; their ids."""
    cutoff = utcnow() - timedelta(days=days)
    stale = (Game.status == GameStatus.WAITING, Game.created_at < cutoff)
    ids = list(db.scalars(select(Game.id).where(*stale)))
    if ids:
        db.execute(
            update(Game)
            .where(Game.id.in_(ids), *stale)
            .values(status=GameStatus.CANCELLED, version=Game.version + 1)
        )
    return ids


async def expire(app: Services) -> None:
    """Expire what is due and tell the games' watchers and lobbies."""

    def run() -> list[int]:
        with app.sessions.begin() as db:
            return expire_open_games(db, app.settings.open_game_days)

    for game_id in await asyncio.to_thread(run):
        await app.games.changed_elsewhere(game_id)


async def expired_first(request: Request, _: CurrentUser) -> None:
    """Dependency of the routes that list games (signed in): nothing expired is listed."""
    await expire(services(request))


@asynccontextmanager
async def checks(app: Services) -> AsyncIterator[None]:
    """The periodic check, for as long as the server runs."""
    seconds = lambda: app.settings.expiry_check_seconds  # noqa: E731
    async with repeated(lambda: expire(app), seconds, "expiring open games"):
        yield
