"""Accounts: register, sign in and out, guests; argon2 hashes; HttpOnly SameSite cookies."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select, update

from roses.server.accounts.users import SESSION_COOKIE
from roses.server.db.models import LoginSession, User

from .conftest import sign_up, unique_name


def test_register_sets_an_httponly_samesite_session_cookie(client: TestClient) -> None:
    name = unique_name("ann")
    response = client.post("/api/accounts/register", json={"name": name, "password": "long-enough"})
    assert response.status_code == 201
    assert response.json()["name"] == name
    cookie = response.headers["set-cookie"]
    assert f"{SESSION_COOKIE}=" in cookie
    assert "HttpOnly" in cookie
    assert "samesite=lax" in cookie.lower()
    assert client.get("/api/me").json()["name"] == name


def test_passwords_are_stored_as_argon2_hashes(client: TestClient, database_url: str) -> None:
    player = sign_up(client)
    engine = create_engine(database_url)
    with engine.connect() as connection:
        stored = connection.execute(
            select(User.password_hash).where(User.name == player.name)
        ).scalar_one()
    engine.dispose()
    assert stored.startswith("$argon2id$")
    assert "secret-rose" not in stored


def test_login_logout_and_wrong_password(client: TestClient) -> None:
    player = sign_up(client)
    wrong = client.post("/api/accounts/login", json={"name": player.name, "password": "nope"})
    assert wrong.status_code == 401
    assert wrong.json()["detail"] == "Wrong name or password."
    right = client.post(
        "/api/accounts/login", json={"name": player.name, "password": "secret-rose"}
    )
    assert right.status_code == 200
    assert client.get("/api/me").status_code == 200
    assert client.post("/api/accounts/logout").status_code == 204
    assert client.get("/api/me").status_code == 401


def test_logout_ends_the_session_on_the_server(client: TestClient) -> None:
    player = sign_up(client)
    assert player.get("/api/me").status_code == 200
    assert player.post("/api/accounts/logout").status_code == 204
    # The old cookie is dead even if a browser keeps sending it.
    assert player.get("/api/me").status_code == 401


def test_a_taken_name_is_a_conflict(client: TestClient) -> None:
    player = sign_up(client)
    again = client.post("/api/accounts/register", json={"name": player.name, "password": "x" * 8})
    assert again.status_code == 409
    assert "taken" in again.json()["detail"]


def test_bad_registrations_name_the_field(client: TestClient) -> None:
    short = client.post("/api/accounts/register", json={"name": "ok-name", "password": "short"})
    assert short.status_code == 422
    assert short.json()["errors"][0]["field"] == "password"
    bad = client.post("/api/accounts/register", json={"name": "no spaces!", "password": "x" * 8})
    assert bad.status_code == 422
    assert bad.json()["errors"][0]["field"] == "name"
    missing = client.post("/api/accounts/register", json={"password": "x" * 8})
    assert missing.status_code == 422
    assert missing.json()["errors"][0]["field"] == "name"
    not_json = client.post(
        "/api/accounts/register", content=b"{", headers={"content-type": "application/json"}
    )
    assert not_json.status_code == 422


def test_guests_get_a_name_and_a_session(client: TestClient) -> None:
    response = client.post("/api/accounts/guest")
    assert response.status_code == 201
    me = client.get("/api/me").json()
    assert me["guest"] is True
    assert me["name"].startswith("guest-")
    # A guest has no password to sign in with.
    login = client.post("/api/accounts/login", json={"name": me["name"], "password": "anything"})
    assert login.status_code == 401


def test_everything_but_signing_in_needs_a_session(client: TestClient) -> None:
    assert client.get("/api/me").status_code == 401
    assert client.get("/api/games/mine").status_code == 401
    assert client.post("/api/games", json={"seats": []}).status_code == 401
    assert client.get("/api/games/1").status_code == 401
    assert client.post("/api/games/1/moves", json={"move": "N1", "version": 0}).status_code == 401
    forged = client.get("/api/me", headers={"cookie": f"{SESSION_COOKIE}=forged"})
    assert forged.status_code == 401


def test_expired_sessions_are_refused_and_swept(client: TestClient, database_url: str) -> None:
    player = sign_up(client)
    engine = create_engine(database_url)
    with engine.begin() as connection:
        user_id = connection.execute(select(User.id).where(User.name == player.name)).scalar_one()
        connection.execute(
            update(LoginSession)
            .where(LoginSession.user_id == user_id)
            .values(expires_at=datetime.now(UTC) - timedelta(minutes=1))
        )
    assert player.get("/api/me").status_code == 401
    login = client.post(
        "/api/accounts/login", json={"name": player.name, "password": "secret-rose"}
    )
    assert login.status_code == 200
    with engine.connect() as connection:
        left = connection.execute(
            select(func.count()).where(LoginSession.user_id == user_id)
        ).scalar_one()
    engine.dispose()
    assert left == 1  # the new session only
