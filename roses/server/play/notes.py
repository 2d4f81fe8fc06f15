"""Notes about a game that are not changes of it: a chat message, a rematch offer. They go
to the game's watchers as messages of their own type (``{"type": "chat", ...}``), in this
process and, through the relay, in the others; they never carry a view."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from ..services import Services
from . import chat

AUTHOR = "author"  # a chat note's author's id: used to honour mutes, never sent to clients


def _muting(sessions: sessionmaker[Session], author: int, readers: set[int]) -> set[int]:
    with sessions() as db:
        return chat.muting(db, author, readers)


async def deliver(app: Services, game_id: int, note: dict[str, Any]) -> None:
    """To this process's watchers of the game, except those who muted the note's author."""
    watchers = app.hub.game_watchers(game_id)
    muting: set[int] = set()
    if AUTHOR in note and watchers:
        readers = {watcher.user_id for watcher in watchers}
        muting = await asyncio.to_thread(_muting, app.sessions, note[AUTHOR], readers)
    message = {key: value for key, value in note.items() if key != AUTHOR}
    for watcher in watchers:
        if watcher.user_id not in muting:
            watcher.send(message)


async def tell(app: Services, game_id: int, note: dict[str, Any]) -> None:
    """To every watcher of the game, in every server process."""
    await deliver(app, game_id, note)
    if app.relay is not None:
        app.relay.publish_note(game_id, note)
