"""The timeout record (Rally the Troops' rule): a person whose tournament game runs out of
time is barred from entering tournaments for a while. One timeout bars them for
``SHORT_BAR``; ``REPEATED`` timeouts within ``MEMORY`` bar them for ``LONG_BAR``, counted
from the latest (docs/playing.md says the same numbers)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..db.models import Game, as_utc
from .store import TournamentTimeout

SHORT_BAR = timedelta(days=3)
LONG_BAR = timedelta(days=14)
REPEATED = 2
MEMORY = timedelta(days=30)


def record(db: Session, game: Game, now: datetime) -> None:
    """Note the person who lost ``game`` (a tournament's, just finished) on time, if any."""
    result: dict[str, Any] = game.result or {}
    seat = result.get("lost_on_time")
    if not isinstance(seat, int) or not 0 <= seat < len(game.seats):
        return
    user_id = game.seats[seat].user_id
    if user_id is not None and db.get(TournamentTimeout, (game.id, user_id)) is None:
        db.add(TournamentTimeout(game_id=game.id, user_id=user_id, at=now))


def barred_until(db: Session, user_id: int, now: datetime) -> datetime | None:
    """Until when the person may not enter a tournament (None: they may)."""
    recent = [
        as_utc(at)
        for at in db.scalars(
            select(TournamentTimeout.at).where(
                TournamentTimeout.user_id == user_id, TournamentTimeout.at > now - MEMORY
            )
        )
    ]
    if not recent:
        return None
    until = max(recent) + (LONG_BAR if len(recent) >= REPEATED else SHORT_BAR)
    return until if until > now else None
