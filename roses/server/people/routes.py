"""The people API: whom I follow and who follows me, my friends (we follow each other) and
their presence, my block list and mutes, and private messages between friends."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field, field_validator
from sqlalchemy.orm import Session

from ..accounts.blocks import parted
from ..accounts.signed_in import CurrentUser
from ..db.models import User
from ..errors import Conflict, Unprocessable
from ..http.schemas import ERROR_ANSWERS, NameInPath, storable_text
from ..i18n import N_, _
from ..play import chat
from ..play.service import in_transaction, read_db
from ..services import services
from . import messages, relations
from .news import tell
from .presence import presence

router = APIRouter(prefix="/api/people", responses=ERROR_ANSWERS, tags=["people"])


class PrivateLine(BaseModel):
    # 500 characters: a word between friends, not a letter.
    text: str = Field(min_length=1, max_length=500, description="a message to a friend")

    _storable = field_validator("text")(storable_text)


class Person(BaseModel):
    name: str
    friend: bool = Field(description="we follow each other")


class Friend(BaseModel):
    name: str
    status: str = Field(description="online, playing, away or offline")
    games: list[dict[str, Any]] = Field(
        description="while playing: the games in progress they have open, {id, title}"
    )
    unread: int = Field(description="their messages to me not yet read")


class People(BaseModel):
    friends: list[Friend]
    following: list[Person]
    followers: list[Person]
    blocked: list[str]
    muted: list[str] = Field(description="players whose table talk I do not see")


class PrivateMessageOut(BaseModel):
    id: int
    sender: str = Field(alias="from")
    to: str
    text: str
    at: str = Field(description="when, ISO 8601 in UTC")


class Conversation(BaseModel):
    messages: list[PrivateMessageOut] = Field(description="the latest, oldest first")
    may_write: bool
    why_not: str | None = Field(description="why I may not write now, in my language")


@router.get("")
async def people(user: CurrentUser, request: Request) -> People:
    """My people. Presence is shown to friends only; players parted from me by a block
    (either way) appear nowhere but in my own block list."""
    app = services(request)

    def read(db: Session) -> People:
        friends = relations.friends(db, user)
        friend_names = {f.name for f in friends}
        seen = presence(app, db, [f.id for f in friends])
        unread = messages.unread(db, user)
        return People(
            friends=[
                Friend(name=f.name, **seen[f.id], unread=unread.get(f.name, 0)) for f in friends
            ],
            following=[
                Person(name=p.name, friend=p.name in friend_names)
                for p in relations.following(db, user)
            ],
            followers=[
                Person(name=p.name, friend=p.name in friend_names)
                for p in relations.followers(db, user)
            ],
            blocked=relations.blocked(db, user),
            muted=chat.muted_names(db, user),
        )

    result: People = await read_db(request, read)
    return result


async def _changed(request: Request, change: Any) -> Response:
    """Make ``change`` (it answers whom to tell, if anyone) and tell them."""
    told: set[int] = await in_transaction(request, change)
    if told:
        tell(services(request), told, {"type": "people"})
    return Response(status_code=204)


@router.put("/follows/{name}", status_code=204)
async def follow(name: NameInPath, user: CurrentUser, request: Request) -> Response:
    """Follow ``name``; once they follow me too, we are friends. They are told (their page
    hears ``{"type": "people"}``), unless a block parts us."""

    def change(db: Session) -> set[int]:
        other = relations.follow(db, user, name)
        return set() if parted(db, user.id, other.id) else {other.id}

    return await _changed(request, change)


@router.delete("/follows/{name}", status_code=204)
async def unfollow(name: NameInPath, user: CurrentUser, request: Request) -> Response:
    """Stop following ``name`` (we are no longer friends)."""

    def change(db: Session) -> set[int]:
        other = relations.unfollow(db, user, name)
        return set() if parted(db, user.id, other.id) else {other.id}

    return await _changed(request, change)


@router.put("/blocks/{name}", status_code=204)
async def block(name: NameInPath, user: CurrentUser, request: Request) -> Response:
    """Block ``name``: our follows end both ways; neither of us sees the other's open games
    or table talk, invites the other, joins the other's games or writes to the other. They
    are not told of the block; their open pages hear ``{"type": "people"}``, as for an
    unfollow, so that their lists lose me at once."""

    def change(db: Session) -> set[int]:
        return {relations.block(db, user, name).id}

    return await _changed(request, change)


@router.delete("/blocks/{name}", status_code=204)
async def unblock(name: NameInPath, user: CurrentUser, request: Request) -> Response:
    """Unblock ``name`` (the follows that the block ended stay ended; one they made since
    shows again, and their pages hear ``{"type": "people"}``)."""

    def change(db: Session) -> set[int]:
        return {relations.unblock(db, user, name).id}  # a follow kept meanwhile shows again

    return await _changed(request, change)


@router.get("/messages/{name}")
async def conversation(name: NameInPath, user: CurrentUser, request: Request) -> Conversation:
    """The latest messages between ``name`` and me, oldest first (theirs are now read),
    and whether I may write to them now."""

    def read(db: Session) -> Conversation:
        other = relations.other_person(db, user, name)
        found = messages.conversation(db, user, other)
        why_not = messages.refusal(db, user, other)
        return Conversation.model_validate(
            {"messages": found, "may_write": why_not is None, "why_not": why_not}
        )

    result: Conversation = await in_transaction(request, read)
    return result


@router.post("/messages/{name}", status_code=201)
async def write(
    name: NameInPath, body: PrivateLine, user: CurrentUser, request: Request
) -> PrivateMessageOut:
    """Write to a friend (409 with the reason otherwise; 429 when writing too fast). Both of
    us hear ``{"type": "message", "message": {id, from, to, text, at}}`` on our sockets."""
    text = body.text.strip()
    if not text:
        raise Unprocessable("text", _("the message is empty"))
    app = services(request)

    def send(db: Session) -> tuple[dict[str, Any], User]:
        other = relations.other_person(db, user, name)
        why_not = messages.refusal(db, user, other)
        if why_not is not None:
            raise Conflict(why_not)
        app.limiter.hit(
            "private_messages_per_account",
            str(user.id),
            N_("you are writing faster than your friends can read"),
        )
        return messages.send(db, user, other, text), other

    message, other = await in_transaction(request, send)
    tell(app, {user.id, other.id}, {"type": "message", "message": message})
    return PrivateMessageOut.model_validate(message)
