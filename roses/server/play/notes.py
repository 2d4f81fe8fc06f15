"""Notes about a game that are not changes of it: a chat message, a rematch offer. They go
to the game's watchers as messages of their own type (``{"type": "chat", ...}``), in this
process and, through the relay, in the others; they never carry a view."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from ..i18n import speaking
from ..services import Services
from . import chat
from .hub import encode

AUTHOR = "author"  # a chat note's author's id: used to honour mutes, never sent to clients
KEPT_FROM = "kept_from"  # the users a note is not for (players, of spectators' talk): never sent


def _muting(sessions: sessionmaker[Session], author: int, readers: set[int]) -> set[int]:
    with sessions() as db:
        return chat.muting(db, author, readers)


def _in(language: str, told: dict[str, Any]) -> dict[str, Any]:
    """A chat note with its phrase, if any, in ``language``; another note as it is."""
    if told.get("type") != "chat":
        return told
    with speaking(language):
        return {**told, "message": chat.translated(told["message"])}


async def deliver(app: Services, game_id: int, note: dict[str, Any]) -> None:
    """To this process's watchers of the game, except those who muted the note's author and
    those it is kept from; a courtesy phrase in each watcher's language."""
    kept_from = set(note.get(KEPT_FROM, ()))
    watchers = [w for w in app.hub.game_watchers(game_id) if w.user_id not in kept_from]
    muting: set[int] = set()
    if AUTHOR in note and watchers:
        readers = {watcher.user_id for watcher in watchers}
        muting = await asyncio.to_thread(_muting, app.sessions, note[AUTHOR], readers)
    message = {key: value for key, value in note.items() if key not in (AUTHOR, KEPT_FROM)}
    encoded: dict[str, str] = {}  # by language: each encoded once
    for watcher in watchers:
        if watcher.user_id in muting:
            continue
        if watcher.language not in encoded:
            encoded[watcher.language] = encode(_in(watcher.language, message))
        watcher.send_text(encoded[watcher.language])


async def tell(app: Services, game_id: int, note: dict[str, Any]) -> None:
    """To every watcher of the game, in every server process."""
    await deliver(app, game_id, note)
    if app.relay is not None:
        app.relay.publish_note(game_id, note)
