"""What every route needs: the database sessions, the settings, the signed-in user."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session, sessionmaker

from . import accounts
from .errors import NotSignedIn
from .models import User
from .settings import Settings


def sessions_of(request: Request) -> sessionmaker[Session]:
    return request.app.state.sessions  # type: ignore[no-any-return]


def settings_of(request: Request) -> Settings:
    return request.app.state.settings  # type: ignore[no-any-return]


def signed_in(request: Request) -> User:
    """The signed-in user, from the session cookie; 401 otherwise."""
    token = request.cookies.get(accounts.SESSION_COOKIE)
    with sessions_of(request)() as db:
        user = accounts.user_for_token(db, token)
    if user is None:
        raise NotSignedIn("sign in first (or play as a guest)")
    return user


Sessions = Annotated[sessionmaker[Session], Depends(sessions_of)]
CurrentUser = Annotated[User, Depends(signed_in)]
