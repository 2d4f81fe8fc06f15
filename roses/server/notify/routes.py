"""The notifications API: the games waiting for me (the badge), my notification settings,
and the unsubscribe links of e-mails (which work without signing in)."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy.orm import Session, sessionmaker

from ..accounts.signed_in import CurrentUser
from ..errors import Conflict, NotFound, Unprocessable
from ..http.schemas import ERROR_ANSWERS
from ..i18n import _
from ..services import Sessions, services
from . import mail
from .digest import UNSUBSCRIBE_SECRET
from .notifications import (
    MailKind,
    NotificationSettings,
    WaitingGame,
    invitations,
    read_unsubscribe_token,
    server_secret,
    settings_for,
    waiting_games,
)

router = APIRouter(prefix="/api", responses=ERROR_ANSWERS)

UnsubscribeToken = Annotated[
    str, Path(min_length=8, max_length=200, description="the token of an e-mail's link")
]


class WaitingGameOut(BaseModel):
    id: int
    game: str = Field(description="the game's name (GET /api/catalog)")
    title: str
    turn_since: str = Field(description="waiting for me since, ISO 8601 in UTC")


class Waiting(BaseModel):
    """The games that wait for me: being played and my seat to act (my turn, or my plan to
    make), or not started and inviting me by name. ``count`` counts both (the badge)."""

    count: int
    games: list[WaitingGameOut] = Field(description="waiting longest first")
    invitations: list[WaitingGameOut] = Field(
        default_factory=list, description="games inviting me, the oldest first"
    )


class NotificationChoices(BaseModel):
    model_config = ConfigDict(extra="forbid")

    email: str | None = Field(
        default=None, max_length=254, description="where e-mails go; null or empty: none"
    )
    digest: bool = Field(default=False, description="a daily e-mail of the games waiting for me")
    deadline_warning: bool = Field(
        default=False, description="an e-mail when a correspondence game's time runs short"
    )
    browser: bool = Field(default=False, description="a browser notification when it is my turn")
    sound: bool = Field(default=False, description="a sound when it is my turn")

    @field_validator("email")
    @classmethod
    def _address(cls, email: str | None) -> str | None:
        if email is None or not email.strip():
            return None
        return mail.normal_address(email)  # ValueError saying why: 422 naming the field


class NotificationSettingsOut(NotificationChoices):
    email_available: bool = Field(description="whether this server sends e-mail at all")


class Unsubscription(BaseModel):
    token: str = Field(min_length=8, max_length=200, description="the token of an e-mail's link")


class UnsubscribeOut(BaseModel):
    kind: MailKind = Field(description="which e-mails the link stops")
    subscribed: bool = Field(description="whether those e-mails still come")


def _settings_json(row: NotificationSettings, email_available: bool) -> NotificationSettingsOut:
    return NotificationSettingsOut(
        email=row.email,
        digest=row.digest,
        deadline_warning=row.deadline_warning,
        browser=row.browser,
        sound=row.sound,
        email_available=email_available,
    )


@router.get("/notifications/waiting", tags=["notifications"])
async def waiting(user: CurrentUser, sessions: Sessions) -> Waiting:
    """How many games wait for me, and which (the badge and the page title count them)."""

    def read() -> Waiting:
        with sessions() as db:
            games = waiting_games(db, user.id)
            invited = invitations(db, user.id)

        def out(g: WaitingGame) -> WaitingGameOut:
            return WaitingGameOut(
                id=g.id, game=g.game, title=g.title, turn_since=g.turn_since.isoformat()
            )

        return Waiting(
            count=len(games) + len(invited),
            games=[out(g) for g in games],
            invitations=[out(g) for g in invited],
        )

    return await asyncio.to_thread(read)


@router.get("/settings/notifications", tags=["notifications"])
async def get_settings(
    user: CurrentUser, sessions: Sessions, request: Request
) -> NotificationSettingsOut:
    """My notification settings, and whether this server can send e-mail."""

    def read() -> NotificationSettingsOut:
        with sessions() as db:
            return _settings_json(
                settings_for(db, user.id), services(request).settings.smtp_url is not None
            )

    return await asyncio.to_thread(read)


@router.put("/settings/notifications", tags=["notifications"])
async def put_settings(
    body: NotificationChoices, user: CurrentUser, sessions: Sessions, request: Request
) -> NotificationSettingsOut:
    """Change my notification settings (all of them at once). E-mails need an address, and
    a server that sends e-mail (409 otherwise); nothing changes when refused."""
    email_available = services(request).settings.smtp_url is not None
    wants_mail = body.digest or body.deadline_warning
    if wants_mail and body.email is None:
        field = "digest" if body.digest else "deadline_warning"
        raise Unprocessable(field, _("e-mails need an e-mail address: add one first"))
    if wants_mail and not email_available:
        raise Conflict(_("this server sends no e-mail (it has no mail server set up)"))

    def write() -> NotificationSettingsOut:
        with sessions.begin() as db:
            row = settings_for(db, user.id)
            row.email = body.email
            row.digest, row.deadline_warning = body.digest, body.deadline_warning
            row.browser, row.sound = body.browser, body.sound
            return _settings_json(row, email_available)

    return await asyncio.to_thread(write)


def _unsubscribing(sessions: sessionmaker[Session], token: str, turn_off: bool) -> UnsubscribeOut:
    """What the link names (in a thread); ``turn_off``: that opt-in is turned off."""
    with sessions.begin() as db:
        named = read_unsubscribe_token(server_secret(db, UNSUBSCRIBE_SECRET), token)
        row = None if named is None else db.get(NotificationSettings, named[0])
        if named is None or row is None:
            raise NotFound(_("this unsubscribe link is not valid: was it cut short?"))
        kind = named[1]
        if turn_off:
            setattr(row, kind, False)
        return UnsubscribeOut(kind=kind, subscribed=getattr(row, kind))


@router.get("/unsubscribe/{token}", tags=["notifications"])
async def unsubscription(token: UnsubscribeToken, sessions: Sessions) -> UnsubscribeOut:
    """What an e-mail's unsubscribe link stops, and whether it still comes (no sign-in:
    the link itself is the proof). Changes nothing: the page asks first."""
    return await asyncio.to_thread(_unsubscribing, sessions, token, False)


@router.post("/unsubscribe", tags=["notifications"])
async def unsubscribe(body: Unsubscription, sessions: Sessions) -> UnsubscribeOut:
    """Stop the e-mails an unsubscribe link names (no sign-in needed)."""
    return await asyncio.to_thread(_unsubscribing, sessions, body.token, True)
