"""Who is signed in: the session cookie's user, looked up once and then cached; or, on the
routes of playing, a personal API token's (``tokens``), looked up on every request so that
revoking it takes effect at once."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from typing import Annotated

from fastapi import Depends, Request
from starlette.types import ASGIApp

from ..db.models import User
from ..errors import NotSignedIn
from ..i18n import _, use
from ..services import services_of
from . import tokens, users
from .tokens import TOKEN_TAGS


class SignedInCache:
    """Who each recent session cookie belongs to, so that a move costs no database read.

    An entry lives ``seconds``; signing out forgets it at once in every process
    (``sign_outs``), and a process honours a cookie at most ``seconds`` after it expired."""

    def __init__(self, seconds: float = 300.0, capacity: int = 100_000) -> None:
        self._seconds = seconds
        self._capacity = capacity
        self._users: OrderedDict[str, tuple[User, float]] = OrderedDict()

    def get(self, token_hash: str) -> User | None:
        entry = self._users.get(token_hash)
        if entry is None or entry[1] < time.monotonic():
            return None
        return entry[0]

    def put(self, token_hash: str, user: User) -> None:
        self._users[token_hash] = (user, time.monotonic() + self._seconds)
        self._users.move_to_end(token_hash)
        while len(self._users) > self._capacity:
            self._users.popitem(last=False)

    def forget(self, token_hash: str) -> None:
        self._users.pop(token_hash, None)


async def user_of_token(app: ASGIApp, token: str) -> User | None:
    """The account a session token belongs to (None: nobody), from the cache or, once, from
    the database."""
    cache = services_of(app).signed_in
    key = users.token_hash(token)
    user = cache.get(key)
    if user is None:

        def look_up() -> User | None:
            with services_of(app).sessions() as db:
                return users.user_for_token(db, token)

        user = await asyncio.to_thread(look_up)
        if user is not None:
            cache.put(key, user)
    return user


async def signed_in(request: Request) -> User:
    """The signed-in user, from the session cookie or an API token; 401 otherwise."""
    token = request.cookies.get(users.SESSION_COOKIE)
    api_token = None if token else tokens.bearer(request.headers.get("authorization"))
    user: User | None = None
    if api_token is not None:
        user = (await token_user(request, api_token)).user
    elif token:
        user = await user_of_token(request.app, token)
    if user is None:
        raise NotSignedIn(_("sign in first (or play as a guest)"))
    if user.language:  # the account's language comes before the browser's
        use(user.language)
    return user


def credential_hash(request: Request) -> str:
    """The hash of what signed ``request`` in, its session cookie or its API token (both
    sha256): signing out, or revoking the token, closes the streams it opened."""
    token = request.cookies.get(users.SESSION_COOKIE)
    return users.token_hash(token or tokens.bearer(request.headers.get("authorization")) or "")


async def token_user(request: Request, api_token: str) -> tokens.TokenUser:
    """The account of an API token, if this route takes tokens and the token's scopes
    cover the request (GET reads, anything else plays); ``Forbidden`` otherwise."""
    route = request.scope.get("route")
    if not TOKEN_TAGS.intersection(getattr(route, "tags", ())):
        raise tokens.refuse_here()
    signed = await api_token_user(request.app, api_token)
    needed = tokens.Scope.READ if request.method in ("GET", "HEAD") else tokens.Scope.PLAY
    tokens.check_scope(signed, needed)
    return signed


async def api_token_user(app: ASGIApp, api_token: str) -> tokens.TokenUser:
    """The account an API token signs in (its last use noted), or ``NotSignedIn``."""

    def look_up() -> tokens.TokenUser:
        with services_of(app).sessions.begin() as db:
            return tokens.user_of_token(db, api_token)

    return await asyncio.to_thread(look_up)


async def saved_language(app: ASGIApp, token: str) -> str | None:
    """The language saved by the account this session token belongs to (None: not chosen,
    or nobody). Pages ask before any route runs (``i18n.LanguageMiddleware``)."""
    user = await user_of_token(app, token)
    return None if user is None else user.language


CurrentUser = Annotated[User, Depends(signed_in)]
