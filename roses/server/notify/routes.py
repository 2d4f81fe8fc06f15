"""The notifications API: the games waiting for me (the badge), my notification settings
and the confirmation of my e-mail address, web push and my webhook (``reach.py``), the
unsubscribe links of e-mails (which work without signing in), and asking for a password
reset link (which needs no sign-in either)."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import APIRouter, BackgroundTasks, Path, Request
from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session, sessionmaker

from ..accounts.quotas import TooMany, client_address
from ..accounts.secrets import server_secret
from ..accounts.signed_in import CurrentUser
from ..errors import Conflict, NotFound, Unprocessable
from ..http.schemas import ERROR_ANSWERS
from ..i18n import N_, _
from ..services import Services, Sessions, services
from . import account_mail, mail, push, reach
from .digest import UNSUBSCRIBE_SECRET
from .notifications import (
    MailKind,
    NotificationSettings,
    WaitingGame,
    invitations,
    read_unsubscribe_token,
    settings_for,
    waiting_games,
)

router = APIRouter(prefix="/api", responses=ERROR_ANSWERS)
log = logging.getLogger("roses.server.notify.mail")

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
    email_confirmed: bool = Field(
        description="whether I confirmed the address from the link sent there: no e-mail "
        "goes to it before"
    )


class Confirmation(BaseModel):
    token: str = Field(min_length=8, max_length=300, description="the token of the e-mail's link")


class Confirmed(BaseModel):
    email: str = Field(description="the address confirmed")


class ResetRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    account: str = Field(
        min_length=1, max_length=254, description="the account's name or its e-mail address"
    )


class Accepted(BaseModel):
    detail: str = Field(description="what happens now, in a sentence")


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
        email_confirmed=row.email is not None and row.email_confirmed_at is not None,
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
    body: NotificationChoices,
    user: CurrentUser,
    sessions: Sessions,
    request: Request,
    background: BackgroundTasks,
) -> NotificationSettingsOut:
    """Change my notification settings (all of them at once). E-mails need an address, and
    a server that sends e-mail (409 otherwise); nothing changes when refused. A new address
    gets a confirmation link and is used for nothing until it is opened
    (``email_confirmed``)."""
    email_available = services(request).settings.smtp_url is not None
    wants_mail = body.digest or body.deadline_warning
    if wants_mail and body.email is None:
        field = "digest" if body.digest else "deadline_warning"
        raise Unprocessable(field, _("e-mails need an e-mail address: add one first"))
    if wants_mail and not email_available:
        raise Conflict(_("this server sends no e-mail (it has no mail server set up)"))

    def write() -> tuple[NotificationSettingsOut, account_mail.Recipient | None]:
        with sessions.begin() as db:
            row = settings_for(db, user.id)
            new_address = body.email != row.email
            if new_address:  # a new address is used for nothing until confirmed
                row.email, row.email_confirmed_at = body.email, None
            row.digest, row.deadline_warning = body.digest, body.deadline_warning
            row.browser, row.sound = body.browser, body.sound
            confirm = new_address and body.email is not None and email_available
            to = account_mail.recipient(user, body.email) if confirm and body.email else None
            return _settings_json(row, email_available), to

    saved, to = await asyncio.to_thread(write)
    if to is not None:
        try:
            _count_confirmation(services(request), user.id)
            background.add_task(_send_confirmation, services(request), to)
        except TooMany:  # saved all the same: the settings page offers to send it later
            pass
    return saved


def _count_confirmation(app: Services, user_id: int) -> None:
    app.limiter.hit(
        "confirmation_mails_per_account",
        str(user_id),
        N_("you have asked for many confirmation e-mails lately"),
    )


async def _send(app: Services, message: mail.Mail) -> None:
    """Send ``message`` now; a mail server that refuses is logged (the person may ask again)."""
    assert app.settings.smtp_url is not None
    try:
        composed = mail.compose(message, app.settings.mail_from)
        await mail.send(mail.smtp_server(app.settings.smtp_url), composed)
    except Exception:
        log.exception("an account's e-mail could not be sent")


async def _send_confirmation(app: Services, to: account_mail.Recipient) -> None:
    def compose() -> mail.Mail:
        with app.sessions.begin() as db:
            token = account_mail.confirmation_token(db, to.user_id, to.email)
        return account_mail.confirmation_mail(to, token, app.settings)

    await _send(app, await asyncio.to_thread(compose))


@router.post("/settings/notifications/confirmation", status_code=202, tags=["notifications"])
async def send_confirmation(
    user: CurrentUser, sessions: Sessions, request: Request, background: BackgroundTasks
) -> Accepted:
    """Send the confirmation link to my address again (409 if I have none, it is confirmed,
    or this server sends no e-mail)."""
    app = services(request)
    if app.settings.smtp_url is None:
        raise Conflict(_("this server sends no e-mail (it has no mail server set up)"))

    def read() -> account_mail.Recipient:
        with sessions() as db:
            row = settings_for(db, user.id)
            if row.email is None:
                raise Conflict(_("add an e-mail address first"))
            if row.email_confirmed_at is not None:
                raise Conflict(_("this address is confirmed already"))
            return account_mail.recipient(user, row.email)

    to = await asyncio.to_thread(read)
    _count_confirmation(app, user.id)
    background.add_task(_send_confirmation, app, to)
    return Accepted(detail=_("A confirmation link is on its way to {email}.", email=to.email))


@router.post("/email/confirm", tags=["notifications"])
async def confirm_email(body: Confirmation, sessions: Sessions, request: Request) -> Confirmed:
    """Confirm an address from the link sent there (no sign-in: the link is the proof);
    404 saying why a link does not work."""

    def confirm() -> Confirmed:
        with sessions.begin() as db:
            return Confirmed(
                email=account_mail.confirm_address(db, body.token, services(request).now())
            )

    return await asyncio.to_thread(confirm)


@router.post("/accounts/password-reset", status_code=202, tags=["accounts"])
async def ask_for_reset(
    body: ResetRequest, request: Request, background: BackgroundTasks
) -> Accepted:
    """Ask for a link to choose a new password, by name or by e-mail address. The answer is
    the same whether or not an account matches; the link goes, after the answer, to the
    confirmed address of each registered account that matches."""
    app = services(request)
    app.limiter.hit(
        "password_resets_per_address",
        client_address(request),
        N_("too many password resets were asked for from your address lately"),
    )
    if app.settings.smtp_url is None:
        raise Conflict(_("this server sends no e-mail (it has no mail server set up)"))
    background.add_task(_send_resets, app, body.account.strip())
    return Accepted(
        detail=_(
            "If an account of that name or address has a confirmed e-mail address, a link "
            "to choose a new password is on its way there. It works once, within an hour."
        )
    )


async def _send_resets(app: Services, account: str) -> None:
    def compose() -> list[mail.Mail]:
        with app.sessions.begin() as db:
            messages = []
            for to in account_mail.reset_recipients(db, account):
                try:  # past this, no e-mail: the answer said nothing either way
                    app.limiter.hit("password_resets_per_account", str(to.user_id), "")
                except TooMany:
                    continue
                messages.append(account_mail.reset_mail_for(db, to, app.settings))
            return messages

    for message in await asyncio.to_thread(compose):
        await _send(app, message)


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


# Web push and webhooks (reach.py): what I want to hear of away from the site, my browsers'
# push subscriptions, my webhook.

_BASE64URL = r"^[A-Za-z0-9_-]+={0,2}$"


def _reachable(url: str, field: str, plain_http: bool) -> str:
    """``url`` if the server may send to it: https (or http where the settings allow it,
    a local test), to a host of the internet: not this machine or a private network's
    address given as a number (``reach_plain_http`` allows those too)."""
    allowed = ("https://", "http://") if plain_http else ("https://",)
    try:
        host = urlsplit(url).hostname
    except ValueError:
        host = None
    if not url.startswith(allowed) or not host:
        raise Unprocessable(field, _("the address must be a full https:// URL"))
    if not plain_http and _internal(host):
        raise Unprocessable(field, _("the address must be of a server on the internet"))
    return url


def _internal(host: str) -> bool:
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False  # a name
    return not address.is_global


class ReachChoicesIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    turn: bool = Field(default=False, description="a game became my turn")
    deadline: bool = Field(default=False, description="my time in a correspondence game runs short")
    tournament: bool = Field(default=False, description="a tournament round of mine starts")
    challenge: bool = Field(default=False, description="a friend invites me to a game")


class ReachChoicesOut(ReachChoicesIn):
    webhook_url: str | None = Field(description="where my webhook posts; null: none")
    browsers: int = Field(description="how many of my browsers receive push messages")
    public_key: str = Field(
        description="the server's VAPID public key (base64url), a browser's applicationServerKey"
    )


class SubscriptionKeys(BaseModel):
    p256dh: str = Field(min_length=40, max_length=200, pattern=_BASE64URL)
    auth: str = Field(min_length=8, max_length=100, pattern=_BASE64URL)


class PushSubscriptionIn(BaseModel):
    """A browser's ``PushSubscription.toJSON()`` (``expirationTime`` is ignored)."""

    endpoint: str = Field(min_length=12, max_length=1000)
    keys: SubscriptionKeys
    expirationTime: int | None = None  # the browser's own name


class PushEndpoint(BaseModel):
    endpoint: str = Field(min_length=12, max_length=1000)


class WebhookIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(min_length=12, max_length=500, description="an https:// URL")


class WebhookOut(BaseModel):
    url: str
    secret: str = Field(
        description="the key of the X-Roses-Signature header (HMAC-SHA256 of the body): "
        "shown this once; setting the webhook again makes a new one"
    )


def _reach_json(db: Session, user_id: int) -> ReachChoicesOut:
    row = reach.choices_for(db, user_id)
    browsers = db.scalar(select(func.count()).where(reach.PushSubscription.user_id == user_id))
    return ReachChoicesOut(
        turn=row.turn,
        deadline=row.deadline,
        tournament=row.tournament,
        challenge=row.challenge,
        webhook_url=row.webhook_url,
        browsers=int(browsers or 0),
        public_key=push.public_key(push.vapid_key(db)),
    )


@router.get("/settings/reach", tags=["notifications"])
async def get_reach(user: CurrentUser, sessions: Sessions) -> ReachChoicesOut:
    """What I want to hear of by web push and webhook, where my webhook posts, how many of
    my browsers receive push, and the key a browser subscribes with."""

    def read() -> ReachChoicesOut:
        with sessions.begin() as db:
            return _reach_json(db, user.id)

    return await asyncio.to_thread(read)


@router.put("/settings/reach", tags=["notifications"])
async def put_reach(
    body: ReachChoicesIn, user: CurrentUser, sessions: Sessions, request: Request
) -> ReachChoicesOut:
    """Choose what I hear of by web push and webhook (all four at once)."""

    def write() -> ReachChoicesOut:
        with sessions.begin() as db:
            row = reach.choices_for(db, user.id)
            row.turn, row.deadline = body.turn, body.deadline
            row.tournament, row.challenge = body.tournament, body.challenge
            return _reach_json(db, user.id)

    answer = await asyncio.to_thread(write)
    services(request).reach.chose(user.id, body.turn or body.challenge)
    return answer


@router.post("/push/subscriptions", status_code=201, tags=["notifications"])
async def subscribe(
    body: PushSubscriptionIn, user: CurrentUser, sessions: Sessions, request: Request
) -> ReachChoicesOut:
    """This browser receives my push messages (its subscription, made with the server's
    ``public_key``). A subscription another account made in this browser becomes mine; an
    account keeps its 10 newest browsers."""
    _reachable(body.endpoint, "endpoint", services(request).settings.reach_plain_http)

    def write() -> ReachChoicesOut:
        with sessions.begin() as db:
            found = db.scalar(
                select(reach.PushSubscription).where(
                    reach.PushSubscription.endpoint == body.endpoint
                )
            )
            if found is not None and found.user_id != user.id:
                db.delete(found)  # its messages, the other account's, go with it
                db.flush()
                found = None
            if found is None:
                _keep_newest_browsers(db, user.id)
                found = reach.PushSubscription(user_id=user.id, endpoint=body.endpoint)
                db.add(found)
            found.p256dh_key, found.auth_key = body.keys.p256dh, body.keys.auth
            db.flush()
            return _reach_json(db, user.id)

    return await asyncio.to_thread(write)


MAX_BROWSERS = 10  # push subscriptions one account keeps (a message goes to each)


def _keep_newest_browsers(db: Session, user_id: int) -> None:
    """Make room for one more subscription: all but the ``MAX_BROWSERS - 1`` newest go."""
    older = db.scalars(
        select(reach.PushSubscription.id)
        .where(reach.PushSubscription.user_id == user_id)
        .order_by(reach.PushSubscription.created_at.desc(), reach.PushSubscription.id.desc())
        .offset(MAX_BROWSERS - 1)
    ).all()
    if older:
        db.execute(delete(reach.PushSubscription).where(reach.PushSubscription.id.in_(older)))


@router.post("/push/unsubscribe", tags=["notifications"])
async def unsubscribe_push(
    body: PushEndpoint, user: CurrentUser, sessions: Sessions
) -> ReachChoicesOut:
    """This browser receives no more push messages of mine (nothing changes for an
    endpoint that is not mine)."""

    def write() -> ReachChoicesOut:
        with sessions.begin() as db:
            db.execute(
                delete(reach.PushSubscription).where(
                    reach.PushSubscription.endpoint == body.endpoint,
                    reach.PushSubscription.user_id == user.id,
                )
            )
            return _reach_json(db, user.id)

    return await asyncio.to_thread(write)


@router.put("/settings/webhook", tags=["notifications"])
async def set_webhook(
    body: WebhookIn, user: CurrentUser, sessions: Sessions, request: Request
) -> WebhookOut:
    """Post my news to ``url`` (Discord- and Slack-compatible JSON, signed: docs/api.md),
    with a new signing secret, shown in this answer only."""
    url = _reachable(body.url.strip(), "url", services(request).settings.reach_plain_http)

    def write() -> WebhookOut:
        with sessions.begin() as db:
            row = reach.choices_for(db, user.id)
            row.webhook_url, row.webhook_secret = url, reach.new_webhook_secret()
            return WebhookOut(url=url, secret=row.webhook_secret)

    return await asyncio.to_thread(write)


@router.delete("/settings/webhook", tags=["notifications"])
async def remove_webhook(user: CurrentUser, sessions: Sessions) -> ReachChoicesOut:
    """No more webhook (messages not yet sent to it are dropped)."""

    def write() -> ReachChoicesOut:
        with sessions.begin() as db:
            row = reach.choices_for(db, user.id)
            row.webhook_url, row.webhook_secret = None, None
            return _reach_json(db, user.id)

    return await asyncio.to_thread(write)
