"""Signing out tells the caller which session ended, so that the live layer can close that
session's WebSockets (issue 12)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from roses.server.accounts import users
from roses.server.services import services_of

from .conftest import sign_up


def _sessions(client: TestClient) -> sessionmaker[Session]:
    app = client.app
    assert isinstance(app, FastAPI)
    return services_of(app).sessions  # type: ignore[no-any-return]


def test_end_session_names_the_session_and_its_user(client: TestClient) -> None:
    player = sign_up(client)
    user_id = player.get("/api/me").json()["id"]
    with _sessions(client).begin() as db:
        ended = users.end_session(db, player.token)
    assert ended == users.EndedSession(user_id=user_id, token_hash=users.token_hash(player.token))
    with _sessions(client).begin() as db:
        assert users.user_for_token(db, player.token) is None
        assert users.end_session(db, player.token) is None  # already ended
        assert users.end_session(db, "never-issued") is None
