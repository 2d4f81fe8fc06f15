"""Short private messages between friends. Closed while a block parts the two (which ends
their friendship), and while they sit together in a game in progress whose rules forbid
table talk (``GameModule.private_talk``): a private word would get round the rule. The
server asks the game; it names none."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session, aliased

from roses.games import GAMES

from ..accounts.blocks import estranged
from ..db.models import Game, GameStatus, PrivateMessage, Seat, User, as_utc, utcnow
from ..i18n import _
from .relations import are_friends

HISTORY = 100  # the latest messages of a conversation a page receives


def message_json(row: PrivateMessage) -> dict[str, Any]:
    return {
        "id": row.id,
        "from": row.sender.name,
        "to": row.recipient.name,
        "text": row.text,
        "at": as_utc(row.created_at).isoformat(),
    }


def silent_game(db: Session, one: int, other: int) -> Game | None:
    """A game in progress where both sit and whose rules forbid private talk, if any."""
    mine, theirs = aliased(Seat), aliased(Seat)
    query = (
        select(Game)
        .join(mine, (mine.game_id == Game.id) & (mine.user_id == one))
        .join(theirs, (theirs.game_id == Game.id) & (theirs.user_id == other))
        .where(Game.status == GameStatus.ACTIVE, Game.game.in_(sorted(GAMES)))
        .order_by(Game.id)
    )
    return next((g for g in db.scalars(query) if not GAMES[g.game].private_talk), None)


def refusal(db: Session, sender: User, recipient: User) -> str | None:
    """Why ``sender`` may not write to ``recipient`` now, or None."""
    if not are_friends(db, sender.id, recipient.id):
        return _(
            "you can write only to friends: players you follow who follow you back",
        )
    game = silent_game(db, sender.id, recipient.id)
    if game is not None:
        return _(
            "you play together in game {id} ({title}), whose rules forbid table talk: "
            "write once it is over",
            id=game.id,
            title=_(GAMES[game.game].title),
        )
    return None


def send(db: Session, sender: User, recipient: User, text: str) -> dict[str, Any]:
    row = PrivateMessage(sender_id=sender.id, recipient_id=recipient.id, text=text)
    db.add(row)
    db.flush()
    db.refresh(row, ["sender", "recipient"])
    return message_json(row)


def conversation(db: Session, user: User, other: User) -> list[dict[str, Any]]:
    """The latest messages between the two, oldest first; those to ``user`` are now read."""
    between = or_(
        (PrivateMessage.sender_id == user.id) & (PrivateMessage.recipient_id == other.id),
        (PrivateMessage.sender_id == other.id) & (PrivateMessage.recipient_id == user.id),
    )
    rows = db.scalars(
        select(PrivateMessage).where(between).order_by(PrivateMessage.id.desc()).limit(HISTORY)
    )
    found = [message_json(row) for row in reversed(list(rows))]
    db.execute(
        update(PrivateMessage)
        .where(
            PrivateMessage.sender_id == other.id,
            PrivateMessage.recipient_id == user.id,
            PrivateMessage.read_at.is_(None),
        )
        .values(read_at=utcnow())
    )
    return found


def unread(db: Session, user: User) -> dict[str, int]:
    """How many messages to ``user`` are unread, by sender's name."""
    query = (
        select(User.name, func.count())
        .join(PrivateMessage, PrivateMessage.sender_id == User.id)
        .where(
            PrivateMessage.recipient_id == user.id,
            PrivateMessage.read_at.is_(None),
            User.id.not_in(estranged(user.id)),
        )
        .group_by(User.name)
    )
    return {name: count for name, count in db.execute(query)}
