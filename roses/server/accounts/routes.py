"""The accounts API: register, sign in and out, guests; the password changed or reset, the
signed-in browsers listed and signed out, one's data downloaded, the account deleted.

Signing in is throttled by source (``sign_in_throttle``), and password hashing runs in a
few slots at a time (``quotas.Limiter``): a burst of sign-ins waits instead of filling
memory. (Asking for a reset link and confirming an e-mail address send e-mail: their
routes are ``notify``'s.)"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from sqlalchemy.orm import Session

from ..db.models import User
from ..errors import Conflict, Forbidden, NotFound, NotSignedIn
from ..http.schemas import (
    ERROR_ANSWERS,
    Credentials,
    LanguageChoice,
    Registration,
    storable_text,
)
from ..i18n import LANGUAGE_COOKIE, LANGUAGES, N_, _, current
from ..services import Services, Sessions, services
from . import sign_in_throttle, sign_outs, tokens, users
from .bot_accounts import make_bot
from .data import account_data
from .deletion import Deleted, delete_account
from .guest_upgrade import seated_game_ids, upgrade_guest
from .passwords import PasswordChanged, change_password, check_reset_token, reset_password
from .quotas import client_address
from .sessions import SESSION_ID_LENGTH, sessions_of
from .sessions import end_sessions as end_account_sessions
from .signed_in import CurrentUser

router = APIRouter(prefix="/api", responses=ERROR_ANSWERS)


def user_json(user: User) -> dict[str, Any]:
    return {
        "id": user.id,
        "name": user.name,
        "guest": user.is_guest,
        "bot": user.is_bot,
        "language": user.language,
    }


def _remember_language(request: Request, response: Response, language: str) -> None:
    response.set_cookie(
        LANGUAGE_COOKIE,
        language,
        max_age=365 * 86400,
        samesite="lax",
        secure=services(request).settings.secure_cookies,
    )


def _chosen_language(request: Request) -> str | None:
    """The language this browser chose with the switcher (its cookie), if any."""
    return current() if request.cookies.get(LANGUAGE_COOKIE) in LANGUAGES else None


def _user_agent(request: Request) -> str | None:
    return request.headers.get("user-agent")


def _signed_in_response(
    request: Request, user: User, token: str, status: int, device: str | None = None
) -> JSONResponse:
    """The account as ``/api/me`` answers, with the session cookie (and, for a registered
    account, the device cookie that spares this browser the name's throttle)."""
    response = JSONResponse(user_json(user), status_code=status)
    if user.language:  # signing in brings the account's language to this browser
        _remember_language(request, response, user.language)
    settings = services(request).settings
    cookies = [(users.SESSION_COOKIE, token, settings.session_days)]
    if device is not None:
        cookies.append((sign_in_throttle.DEVICE_COOKIE, device, sign_in_throttle.DEVICE_DAYS))
    for name, value, days in cookies:  # for this server's pages only, never for scripts
        response.set_cookie(name, value, max_age=days * 86400, httponly=True, samesite="lax",
                            secure=settings.secure_cookies)  # fmt: skip
    return response


def _known_source(request: Request, db: Session, user: User) -> str:
    """``user`` signed in here: this address and browser are known sources from now on;
    the browser's new device cookie."""
    sign_in_throttle.remember_address(db, user.id, client_address(request))
    device = sign_in_throttle.read_device(db, request.cookies.get(sign_in_throttle.DEVICE_COOKIE))
    return sign_in_throttle.device_cookie(db, device, user.id)


@router.post("/accounts/register", status_code=201, tags=["accounts"])
async def register(body: Registration, request: Request, sessions: Sessions) -> JSONResponse:
    """Create an account (the password is stored as an argon2 hash) and sign in."""
    limiter = services(request).limiter
    await run_in_threadpool(
        limiter.hit,
        "registrations_per_address",
        client_address(request),
        N_("too many accounts were created from your address lately"),
    )

    def create() -> tuple[User, str, str]:
        with sessions.begin() as db:
            user = users.register(db, body.name, body.password)
            user.language = _chosen_language(request)
            days = services(request).settings.session_days
            token = users.start_session(db, user, days, _user_agent(request))
            return user, token, _known_source(request, db, user)

    user, token, device = await limiter.hashing(create)
    return _signed_in_response(request, user, token, 201, device)


@router.post("/accounts/login", tags=["accounts"])
async def login(body: Credentials, request: Request, sessions: Sessions) -> JSONResponse:
    """Sign in; the name's case and Unicode form do not matter. After repeated failures
    from one source, 429 with Retry-After; a name's owner, from an address or a browser
    that signed in to it before, is not slowed by strangers' failures (docs/configuration.md)."""
    limiter = services(request).limiter
    account, address = users.name_key(body.name), client_address(request)
    device_cookie = request.cookies.get(sign_in_throttle.DEVICE_COOKIE)

    def sign_in() -> tuple[User, str, str]:
        with sessions.begin() as db:
            device = sign_in_throttle.read_device(db, device_cookie)
            known = users.find_user(db, body.name)
            limits = sign_in_throttle.limits_for(db, known, account, address, device)
            # Checked in the hashing slot, after any wait: of a burst of wrong passwords
            # only as many are hashed as the limits allow, the rest are refused at once.
            for limit in limits:
                limiter.check(limit.window, limit.key, limit.message)
            try:
                user = users.authenticate(db, body.name, body.password)
            except NotSignedIn:
                for limit in limits:
                    limiter.count(limit.window, limit.key)
                raise
            user.language = user.language or _chosen_language(request)
            days = services(request).settings.session_days
            token = users.start_session(db, user, days, _user_agent(request))
            return user, token, _known_source(request, db, user)

    user, token, device = await limiter.hashing(sign_in)
    return _signed_in_response(request, user, token, 200, device)


@router.post("/accounts/guest", status_code=201, tags=["accounts"])
def guest(request: Request, sessions: Sessions) -> JSONResponse:
    """Play without an account: a guest name, valid as long as the session."""
    services(request).limiter.hit(
        "guests_per_address",
        client_address(request),
        N_("too many guests were created from your address lately"),
    )
    with sessions.begin() as db:
        user = users.create_guest(db)
        user.language = _chosen_language(request)
        days = services(request).settings.session_days
        token = users.start_session(db, user, days, _user_agent(request))
    return _signed_in_response(request, user, token, 201)


@router.post("/accounts/logout", status_code=204, tags=["accounts"])
async def logout(request: Request, sessions: Sessions) -> Response:
    """Sign out: this browser's session ends, and its open WebSockets are closed (in every
    server process)."""
    token = request.cookies.get(users.SESSION_COOKIE)
    if token:

        def end() -> users.EndedSession | None:
            with sessions.begin() as db:
                return users.end_session(db, token)

        ended = await asyncio.to_thread(end)
        if ended is not None:
            sign_outs.session_ended(services(request), ended.token_hash)
    response = Response(status_code=204)
    response.delete_cookie(users.SESSION_COOKIE)
    return response


@router.get("/me", tags=["accounts"])
def me(user: CurrentUser) -> dict[str, Any]:
    return user_json(user)


@router.put("/language", status_code=204, tags=["accounts"])
async def choose_language(body: LanguageChoice, request: Request, sessions: Sessions) -> Response:
    """Choose the site's language: this browser keeps it in the ``lang`` cookie and, when
    someone is signed in, their account keeps it too (signing in elsewhere brings it)."""
    token = request.cookies.get(users.SESSION_COOKIE)
    if token:

        def save() -> None:
            with sessions.begin() as db:
                user = users.user_for_token(db, token)
                if user is not None:
                    user.language = body.language

        await asyncio.to_thread(save)
        cached = services(request).signed_in.get(users.token_hash(token))
        if cached is not None:  # this process answers in the new language at once
            cached.language = body.language
        sign_outs.account_changed(services(request), users.token_hash(token))  # the others
    response = Response(status_code=204)
    _remember_language(request, response, body.language)
    return response


@router.post("/accounts/upgrade", tags=["accounts"])
async def upgrade(
    body: Registration, user: CurrentUser, request: Request, sessions: Sessions
) -> dict[str, Any]:
    """Turn my guest account into a registered one with this name and password: every game
    I play stays mine, and I stay signed in. 409 if I am registered already or the name is
    taken (nothing changes then)."""
    if not user.is_guest:  # refused before any hashing
        raise Conflict(_("this account is registered already; only a guest account can be"))

    def change() -> tuple[User, list[int]]:
        with sessions.begin() as db:
            upgraded = upgrade_guest(db, user.id, body.name, body.password)
            return upgraded, seated_game_ids(db, user.id)

    upgraded, game_ids = await services(request).limiter.hashing(change)
    # This process's copies: who this cookie is, and the names games show (read again).
    token = request.cookies[users.SESSION_COOKIE]
    services(request).signed_in.put(users.token_hash(token), upgraded)
    games = services(request).games
    for game_id in game_ids:
        games.evict(game_id)
    sign_outs.account_changed(services(request), users.token_hash(token), game_ids)
    return user_json(upgraded)  # as GET /api/me answers


# -- the account's lifecycle ----------------------------------------------------------------

NewPassword = Annotated[str, Field(min_length=8, max_length=200)]


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    current: str = Field(min_length=1, max_length=200, description="the password now")
    new: NewPassword = Field(description="the new password, at least 8 characters")


class PasswordReset(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str = Field(min_length=8, max_length=300, description="the token of the e-mail's link")
    password: NewPassword = Field(description="the new password, at least 8 characters")


class ResetLink(BaseModel):
    name: str = Field(description="the account the link resets")


class Deletion(BaseModel):
    model_config = ConfigDict(extra="forbid")

    password: str = Field(min_length=1, max_length=200, description="the account's password")


class SessionOut(BaseModel):
    id: str = Field(description="names the session here; it signs nobody in")
    created_at: str = Field(description="when it signed in, ISO 8601 in UTC")
    expires_at: str
    browser: str | None = Field(description="the browser's User-Agent as it signed in")
    current: bool = Field(description="whether it is the session asking")


ResetToken = Annotated[str, Path(min_length=8, max_length=300)]
SessionId = Annotated[
    str, Path(pattern=f"^[0-9a-f]{{{SESSION_ID_LENGTH}}}$", description="a session's id")
]


def _session_hash(request: Request) -> str:
    return users.token_hash(request.cookies.get(users.SESSION_COOKIE, ""))


@contextmanager
def _password_guessing(request: Request, user: User) -> Iterator[None]:
    """A password given while signed in (to change it, to delete the account) is counted
    like a sign-in from this address: a stolen session cannot guess it at leisure."""
    limiter = services(request).limiter
    key = f"{users.name_key(user.name)}|{client_address(request)}"
    message = N_("too many wrong passwords from your address")
    limiter.check("login_failures_per_account_address", key, message)
    try:
        yield
    except Forbidden:
        limiter.count("login_failures_per_account_address", key)
        raise


def _signed_out(app: Services, ended: list[str]) -> None:
    for token_hash in ended:
        sign_outs.session_ended(app, token_hash)


def _without_session_cookie(status: int = 204) -> Response:
    response = Response(status_code=status)
    response.delete_cookie(users.SESSION_COOKIE)
    return response


@router.post("/accounts/password", status_code=204, tags=["accounts"])
async def new_password(
    body: PasswordChange, user: CurrentUser, request: Request, sessions: Sessions
) -> Response:
    """Change my password, giving the current one (403 if wrong; 409 for a guest). Every
    other browser signed in to my account is signed out; this one stays signed in."""
    keep = _session_hash(request)

    def change() -> PasswordChanged:
        with _password_guessing(request, user), sessions.begin() as db:
            return change_password(db, user.id, body.current, body.new, keep)

    changed = await services(request).limiter.hashing(change)
    _signed_out(services(request), changed.ended)
    return Response(status_code=204)


@router.get("/accounts/password-reset/{token}", tags=["accounts"])
async def reset_link(token: ResetToken, request: Request, sessions: Sessions) -> ResetLink:
    """Whether a reset link still works (404 saying why not), and for which account."""

    def check() -> ResetLink:
        with sessions.begin() as db:  # (the key is made here if no link was ever made)
            return ResetLink(name=check_reset_token(db, token, services(request).now()).name)

    return await asyncio.to_thread(check)


@router.post("/accounts/password-reset/complete", tags=["accounts"])
async def complete_reset(body: PasswordReset, request: Request, sessions: Sessions) -> JSONResponse:
    """Set a new password through an e-mail's reset link (it works once, within the hour:
    404 saying why otherwise). Every session of the account is signed out, and this browser
    signed in."""

    def reset() -> tuple[PasswordChanged, str, str]:
        with sessions.begin() as db:
            changed = reset_password(db, body.token, body.password, services(request).now())
            days = services(request).settings.session_days
            token = users.start_session(db, changed.user, days, _user_agent(request))
            return changed, token, _known_source(request, db, changed.user)

    changed, token, device = await services(request).limiter.hashing(reset)
    _signed_out(services(request), changed.ended)
    return _signed_in_response(request, changed.user, token, 200, device)


@router.get("/accounts/sessions", tags=["accounts"])
async def list_sessions(
    user: CurrentUser, request: Request, sessions: Sessions
) -> list[SessionOut]:
    """The browsers signed in to my account, newest first."""
    current_hash = _session_hash(request)

    def read() -> list[SessionOut]:
        with sessions() as db:
            return [
                SessionOut(
                    id=info.id,
                    created_at=info.created_at.isoformat(),
                    expires_at=info.expires_at.isoformat(),
                    browser=info.user_agent,
                    current=info.current,
                )
                for info in sessions_of(db, user.id, current_hash)
            ]

    return await asyncio.to_thread(read)


@router.delete("/accounts/sessions", status_code=204, tags=["accounts"])
async def sign_out_everywhere(user: CurrentUser, request: Request, sessions: Sessions) -> Response:
    """Sign out everywhere: every browser signed in to my account, this one included (their
    sockets close in every server process)."""

    def end() -> list[str]:
        with sessions.begin() as db:
            return end_account_sessions(db, user.id)

    _signed_out(services(request), await asyncio.to_thread(end))
    return _without_session_cookie()


@router.delete("/accounts/sessions/{session}", status_code=204, tags=["accounts"])
async def sign_out_one(
    session: SessionId, user: CurrentUser, request: Request, sessions: Sessions
) -> Response:
    """Sign one of my browsers out (404 if no session of mine has that id)."""

    def end() -> list[str]:
        with sessions.begin() as db:
            return end_account_sessions(db, user.id, only=session)

    ended = await asyncio.to_thread(end)
    if not ended:
        raise NotFound(_("no browser of yours is signed in with that session"))
    _signed_out(services(request), ended)
    if _session_hash(request) in ended:
        return _without_session_cookie()
    return Response(status_code=204)


@router.get("/accounts/data", tags=["accounts"])
async def download_data(user: CurrentUser, request: Request, sessions: Sessions) -> JSONResponse:
    """Everything the server keeps of my account, as a JSON file: the account, settings,
    sessions, games (their envelopes: never a deal, another seat's hand or plan), chat and
    ratings."""
    current_hash = _session_hash(request)

    def read() -> dict[str, Any]:
        with sessions() as db:
            fresh = db.get(User, user.id)
            assert fresh is not None
            return account_data(db, fresh, current_hash)

    data = await asyncio.to_thread(read)
    filename = f"roses-account-{user.id}.json"
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@router.post("/accounts/delete", status_code=204, tags=["accounts"])
async def delete(
    body: Deletion, user: CurrentUser, request: Request, sessions: Sessions
) -> Response:
    """Delete my account, giving its password (403 if wrong; 409 for a guest or while I sit
    in an unfinished game). My data goes; my finished games stay, my seat in them shown as
    a deleted player; my ratings leave the leaderboards. Every browser is signed out."""

    def remove() -> Deleted:
        with _password_guessing(request, user), sessions.begin() as db:
            return delete_account(db, user.id, body.password)

    deleted = await services(request).limiter.hashing(remove)
    app = services(request)
    _signed_out(app, deleted.ended)
    for game_id in deleted.game_ids:
        app.games.evict(game_id)
    sign_outs.account_changed(app, "", deleted.game_ids)
    return _without_session_cookie()


# -- programs: bot accounts and API tokens ---------------------------------------------------


@router.post("/accounts/bot", tags=["accounts"])
async def become_bot(user: CurrentUser, request: Request, sessions: Sessions) -> dict[str, Any]:
    """Mark my account as a bot account, for good (409 for a guest, or an account that has
    played a rated game): it is listed as a bot, rated on the bots' ladder, and seated in a
    rated game beside people only if the game's creator accepts bot accounts."""

    def change() -> tuple[User, list[int]]:
        with sessions.begin() as db:
            return make_bot(db, user.id), seated_game_ids(db, user.id)

    marked, game_ids = await asyncio.to_thread(change)
    app = services(request)
    token = request.cookies.get(users.SESSION_COOKIE, "")
    app.signed_in.put(users.token_hash(token), marked)
    for game_id in game_ids:  # their seats show the mark
        app.games.evict(game_id)
    sign_outs.account_changed(app, users.token_hash(token), game_ids)
    return user_json(marked)


class TokenOut(BaseModel):
    id: int = Field(description="names the token here (to revoke it); it signs nobody in")
    label: str
    scopes: list[tokens.Scope]
    created_at: str = Field(description="ISO 8601 in UTC")
    last_used_at: str | None = Field(description="ISO 8601 in UTC, to the minute; None: unused")


class NewTokenOut(TokenOut):
    token: str = Field(description="the secret: shown this once, never again")


class NewToken(BaseModel):
    model_config = ConfigDict(extra="forbid")

    label: Annotated[str, AfterValidator(storable_text)] = Field(
        min_length=1, max_length=64, description="what the token is for"
    )
    scopes: list[tokens.Scope] = Field(
        min_length=1,
        max_length=2,
        description="read: GET the games, lists, ratings and streams; play: also create, "
        "join and play games (it reads too)",
    )


def _token_out(info: tokens.TokenInfo) -> dict[str, Any]:
    return {
        "id": info.id,
        "label": info.label,
        "scopes": info.scopes,
        "created_at": info.created_at.isoformat(),
        "last_used_at": None if info.last_used_at is None else info.last_used_at.isoformat(),
    }


@router.get("/accounts/tokens", tags=["accounts"])
async def list_tokens(user: CurrentUser, sessions: Sessions) -> list[TokenOut]:
    """My personal API tokens, newest first: never their secrets."""

    def read() -> list[TokenOut]:
        with sessions() as db:
            return [TokenOut(**_token_out(info)) for info in tokens.tokens_of(db, user.id)]

    return await asyncio.to_thread(read)


@router.post("/accounts/tokens", status_code=201, tags=["accounts"])
async def make_token(body: NewToken, user: CurrentUser, sessions: Sessions) -> NewTokenOut:
    """A new personal API token: its secret is in this answer alone (only its sha256 is
    kept). A program sends it as ``Authorization: Bearer <token>`` (docs/api.md)."""

    def create() -> tuple[str, tokens.TokenInfo]:
        with sessions.begin() as db:
            return tokens.create_token(db, user, body.label, set(body.scopes))

    token, info = await asyncio.to_thread(create)
    return NewTokenOut(**_token_out(info), token=token)


TokenId = Annotated[int, Path(ge=1, le=2**31 - 1, description="a token's id")]


@router.delete("/accounts/tokens/{token_id}", status_code=204, tags=["accounts"])
async def revoke(
    token_id: TokenId, user: CurrentUser, request: Request, sessions: Sessions
) -> Response:
    """Revoke one of my API tokens: refused from now on, its sockets closed everywhere."""

    def end() -> str:
        with sessions.begin() as db:
            return tokens.revoke_token(db, user.id, token_id)

    _signed_out(services(request), [await asyncio.to_thread(end)])
    return Response(status_code=204)
