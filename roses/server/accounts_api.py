"""The accounts API: register, sign in and out, guests."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from . import accounts
from .deps import CurrentUser, Sessions, settings_of
from .models import User
from .schemas import Credentials, Registration

router = APIRouter(prefix="/api")


def _user_json(user: User) -> dict[str, Any]:
    return {"id": user.id, "name": user.name, "guest": user.is_guest}


def _signed_in_response(request: Request, user: User, token: str, status: int) -> JSONResponse:
    response = JSONResponse(_user_json(user), status_code=status)
    settings = settings_of(request)
    response.set_cookie(
        accounts.SESSION_COOKIE,
        token,
        max_age=settings.session_days * 86400,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
    )
    return response


@router.post("/accounts/register", status_code=201, tags=["accounts"])
def register(body: Registration, request: Request, sessions: Sessions) -> JSONResponse:
    """Create an account (the password is stored as an argon2 hash) and sign in."""
    with sessions.begin() as db:
        user = accounts.register(db, body.name, body.password)
        token = accounts.start_session(db, user, settings_of(request).session_days)
    return _signed_in_response(request, user, token, 201)


@router.post("/accounts/login", tags=["accounts"])
def login(body: Credentials, request: Request, sessions: Sessions) -> JSONResponse:
    with sessions.begin() as db:
        user = accounts.authenticate(db, body.name, body.password)
        token = accounts.start_session(db, user, settings_of(request).session_days)
    return _signed_in_response(request, user, token, 200)


@router.post("/accounts/guest", status_code=201, tags=["accounts"])
def guest(request: Request, sessions: Sessions) -> JSONResponse:
    """Play without an account: a guest name, valid as long as the session."""
    with sessions.begin() as db:
        user = accounts.create_guest(db)
        token = accounts.start_session(db, user, settings_of(request).session_days)
    return _signed_in_response(request, user, token, 201)


@router.post("/accounts/logout", status_code=204, tags=["accounts"])
def logout(request: Request, sessions: Sessions) -> Response:
    token = request.cookies.get(accounts.SESSION_COOKIE)
    if token:
        with sessions.begin() as db:
            accounts.end_session(db, token)
    response = Response(status_code=204)
    response.delete_cookie(accounts.SESSION_COOKIE)
    return response


@router.get("/me", tags=["accounts"])
def me(user: CurrentUser) -> dict[str, Any]:
    return _user_json(user)
