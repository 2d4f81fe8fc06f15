"""The accounts API: register, sign in and out, guests.

Signing in is throttled by name and by address, and password hashing runs in a few slots
at a time (``quotas.Limiter``): a burst of sign-ins waits instead of filling memory."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from ..db.models import User
from ..errors import Conflict, NotSignedIn
from ..http.schemas import ERROR_ANSWERS, Credentials, LanguageChoice, Registration
from ..i18n import LANGUAGE_COOKIE, LANGUAGES, N_, _, current
from ..services import Sessions, services
from . import sign_outs, users
from .guest_upgrade import seated_game_ids, upgrade_guest
from .quotas import client_address
from .signed_in import CurrentUser

router = APIRouter(prefix="/api", responses=ERROR_ANSWERS)


def user_json(user: User) -> dict[str, Any]:
    return {"id": user.id, "name": user.name, "guest": user.is_guest, "language": user.language}


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


def _signed_in_response(request: Request, user: User, token: str, status: int) -> JSONResponse:
    response = JSONResponse(user_json(user), status_code=status)
    if user.language:  # signing in brings the account's language to this browser
        _remember_language(request, response, user.language)
    settings = services(request).settings
    response.set_cookie(
        users.SESSION_COOKIE,
        token,
        max_age=settings.session_days * 86400,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
    )
    return response


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

    def create() -> tuple[User, str]:
        with sessions.begin() as db:
            user = users.register(db, body.name, body.password)
            user.language = _chosen_language(request)
            return user, users.start_session(db, user, services(request).settings.session_days)

    user, token = await limiter.hashing(create)
    return _signed_in_response(request, user, token, 201)


@router.post("/accounts/login", tags=["accounts"])
async def login(body: Credentials, request: Request, sessions: Sessions) -> JSONResponse:
    """Sign in; the name's case and Unicode form do not matter. After repeated failures
    for one name or from one address, 429 with Retry-After."""
    limiter = services(request).limiter
    account, address = users.name_key(body.name), client_address(request)

    def sign_in() -> tuple[User, str]:
        # Checked in the hashing slot, after any wait: of a burst of wrong passwords only
        # as many are hashed as the limits allow, the rest are refused at once.
        limiter.check(
            "login_failures_per_account", account, N_("too many failed sign-ins to this name")
        )
        limiter.check(
            "login_failures_per_address", address, N_("too many failed sign-ins from your address")
        )
        with sessions.begin() as db:
            try:
                user = users.authenticate(db, body.name, body.password)
            except NotSignedIn:
                limiter.count("login_failures_per_account", account)
                limiter.count("login_failures_per_address", address)
                raise
            user.language = user.language or _chosen_language(request)
            return user, users.start_session(db, user, services(request).settings.session_days)

    user, token = await limiter.hashing(sign_in)
    return _signed_in_response(request, user, token, 200)


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
        token = users.start_session(db, user, services(request).settings.session_days)
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
