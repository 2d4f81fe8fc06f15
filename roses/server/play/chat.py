"""Table talk: each game's messages, stored, and delivered live on the game's sockets as
``{"type": "chat", "game_id": n, "message": {...}}`` (``notes.py``): a message is a name, a
time, a room and a text (or a courtesy phrase's key and its text in the reader's language),
never anything of the game itself.

Two rooms at each table: the players' (read by everyone who may watch the game) and the
spectators' (read by the spectators, and by the players only once the game is over, so that
nobody watching can coach a player). Who may say what, when, is ``table.py``'s. A user may
mute another user for themselves: they no longer receive that user's messages, at any table.
A block (``accounts/blocks.py``) mutes both ways: neither of the two reads the other.
"""

from __future__ import annotations

from collections.abc import Collection
from enum import StrEnum
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from ..accounts.blocks import estranged
from ..accounts.users import other_person
from ..db.models import ChatMessage, ChatMute, User, as_utc
from ..i18n import _
from .courtesy import phrase_text

HISTORY = 200  # the latest messages a page receives when it opens


class Room(StrEnum):
    PLAYERS = "players"
    SPECTATORS = "spectators"


def message_json(row: ChatMessage) -> dict[str, Any]:
    """The message as its readers get it: a phrase in the current language."""
    return {
        "id": row.id,
        "player": row.user.name,
        "room": row.room,
        "phrase": row.phrase,
        "text": row.text if row.phrase is None else phrase_text(row.phrase),
        "at": as_utc(row.created_at).isoformat(),
    }


def translated(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` (``message_json``'s) with its phrase, if any, in the current language."""
    if message.get("phrase") is None:
        return message
    return {**message, "text": phrase_text(message["phrase"])}


def _muted_by(user_id: int) -> Any:
    return select(ChatMute.muted_user_id).where(ChatMute.user_id == user_id)


def messages(
    db: Session, game_id: int, reader: User, rooms: Collection[Room]
) -> list[dict[str, Any]]:
    """The game's latest messages in ``rooms``, oldest first, without those of users
    ``reader`` muted
    or is parted from by a block."""
    query = (
        select(ChatMessage)
        .where(
            ChatMessage.game_id == game_id,
            ChatMessage.room.in_([room.value for room in rooms]),
            ChatMessage.user_id.not_in(_muted_by(reader.id)),
            ChatMessage.user_id.not_in(estranged(reader.id)),
        )
        .order_by(ChatMessage.id.desc())
        .limit(HISTORY)
    )
    return [message_json(row) for row in reversed(list(db.scalars(query)))]


def add(
    db: Session, game_id: int, author: User, room: Room, *, text: str = "", phrase: str | None
) -> dict[str, Any]:
    """Store a message: free ``text``, or a courtesy ``phrase`` (its key; no text)."""
    row = ChatMessage(game_id=game_id, user_id=author.id, room=room.value, text=text, phrase=phrase)
    db.add(row)
    db.flush()
    db.refresh(row, ["user"])
    return message_json(row)


def muting(db: Session, author_id: int, readers: set[int]) -> set[int]:
    """Those of ``readers`` who muted ``author_id``, or who blocked or were blocked by them."""
    query = select(ChatMute.user_id).where(
        ChatMute.muted_user_id == author_id, ChatMute.user_id.in_(readers)
    )
    parted = select(User.id).where(User.id.in_(readers), User.id.in_(estranged(author_id)))
    return set(db.scalars(query)) | set(db.scalars(parted))


def muted_names(db: Session, user: User) -> list[str]:
    query = select(User.name).where(User.id.in_(_muted_by(user.id))).order_by(User.name)
    return list(db.scalars(query))


def _other(db: Session, user: User, name: str) -> User:
    return other_person(db, user, name, _("you cannot mute yourself"))


def mute(db: Session, user: User, name: str) -> None:
    other = _other(db, user, name)
    if db.get(ChatMute, (user.id, other.id)) is None:
        db.add(ChatMute(user_id=user.id, muted_user_id=other.id))


def unmute(db: Session, user: User, name: str) -> None:
    other = _other(db, user, name)
    db.execute(
        delete(ChatMute).where(ChatMute.user_id == user.id, ChatMute.muted_user_id == other.id)
    )
