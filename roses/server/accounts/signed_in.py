"""Who is signed in: the session cookie's user, looked up once and then cached."""

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
from . import users


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
    """The signed-in user, from the session cookie; 401 otherwise."""
    token = request.cookies.get(users.SESSION_COOKIE)
    user = None if not token else await user_of_token(request.app, token)
    if user is None:
        raise NotSignedIn(_("sign in first (or play as a guest)"))
    if user.language:  # the account's language comes before the browser's
        use(user.language)
    return user


async def saved_language(app: ASGIApp, token: str) -> str | None:
    """The language saved by the account this session token belongs to (None: not chosen,
    or nobody). Pages ask before any route runs (``i18n.LanguageMiddleware``)."""
    user = await user_of_token(app, token)
    return None if user is None else user.language


CurrentUser = Annotated[User, Depends(signed_in)]
