"""Names (issue 12, issue 15): the whole name matches the rule; letters of any language and
single inner spaces; one account per name whatever its case or Unicode form; signing in
ignores case; a name registered by several requests at once is 409, never 500."""

from __future__ import annotations

import threading
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import column, insert, select, table

from roses.server import Settings, create_app
from roses.server.accounts.users import AccountName
from roses.server.db.engine import make_engine
from roses.server.db.migrate import upgrade
from roses.server.db.models import User, utcnow
from roses.server.http.names import normal_name

from .conftest import unique_name

PASSWORD = "long-enough"


def _register(client: TestClient, name: str) -> int:
    response = client.post("/api/accounts/register", json={"name": name, "password": PASSWORD})
    client.cookies.clear()
    return response.status_code


@pytest.mark.parametrize(
    "name",
    ["admin\n", "admin\n\n", " admin", "admin ", "two  spaces", "tab\there", "a/b", "émoji😀"],
)
def test_names_breaking_the_rule_are_refused_whole(client: TestClient, name: str) -> None:
    response = client.post("/api/accounts/register", json={"name": name, "password": PASSWORD})
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["field"] == "name"
    assert "single spaces between words" in response.json()["detail"]
    assert client.get("/api/me").status_code == 401  # and nobody was signed in


def test_letters_of_any_language_and_inner_spaces(client: TestClient) -> None:
    suffix = unique_name("")[1:5]
    for name in [f"Jürgen{suffix}", f"Zoë{suffix}", f"João{suffix}", f"Anna Maria {suffix}"]:
        response = client.post("/api/accounts/register", json={"name": name, "password": PASSWORD})
        assert response.status_code == 201, response.text
        assert response.json()["name"] == name
        client.cookies.clear()


def test_one_account_per_name_whatever_its_case_or_unicode_form(client: TestClient) -> None:
    suffix = unique_name("")[1:5]
    assert _register(client, f"Zoë{suffix}") == 201
    decomposed = unicodedata.normalize("NFD", f"Zoë{suffix}")  # e + combining diaeresis
    fullwidth = "".join(chr(ord(c) + 0xFEE0) for c in "ZOË"[:2]) + f"Ë{suffix}"  # ＺＯË
    for same in [f"zoë{suffix}", f"ZOË{suffix.upper()}", decomposed, fullwidth]:
        response = client.post("/api/accounts/register", json={"name": same, "password": PASSWORD})
        assert response.status_code == 409, same
        assert "is taken" in response.json()["detail"]


def test_names_are_stored_in_nfkc() -> None:
    assert normal_name(unicodedata.normalize("NFD", "João")) == "João"
    assert normal_name("ＡＤＭＩＮ") == "ADMIN"


def test_signing_in_ignores_case_and_form(client: TestClient) -> None:
    name = f"Jürgen{unique_name('')[1:5]}"
    assert _register(client, name) == 201
    for typed in [name.upper(), name.lower(), unicodedata.normalize("NFD", name)]:
        response = client.post("/api/accounts/login", json={"name": typed, "password": PASSWORD})
        assert response.status_code == 200, typed
        assert response.json()["name"] == name  # shown as registered


def test_invitations_find_the_name_in_any_case(client: TestClient) -> None:
    host, guest = unique_name("host"), unique_name("Friend")
    assert _register(client, guest) == 201
    assert _register(client, host) == 201
    client.post("/api/accounts/login", json={"name": host, "password": PASSWORD})
    seats = [{"kind": "me"}, {"kind": "invite", "name": guest.upper()}]
    response = client.post("/api/games", json={"seats": seats})
    assert response.status_code == 201, response.text


def test_the_same_name_from_many_requests_at_once_is_one_account(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url, registrations_per_address="100/hour"))
    name = unique_name("race")
    variants = [name, name.upper(), name, name.capitalize()] * 2
    start = threading.Barrier(len(variants))

    def register(variant: str) -> int:
        start.wait()
        return client.post(
            "/api/accounts/register", json={"name": variant, "password": PASSWORD}
        ).status_code

    with TestClient(app) as client, ThreadPoolExecutor(len(variants)) as pool:
        answers = sorted(pool.map(register, variants))
    assert answers == [201] + [409] * (len(variants) - 1)
    engine = make_engine(database_url)
    with engine.connect() as connection:
        stored = connection.scalars(select(User.name).where(User.name.ilike(name))).all()
    engine.dispose()
    assert len(stored) == 1


def test_the_migration_keeps_names_that_only_the_old_rule_told_apart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = make_engine(url)
    upgrade(engine, "0001")
    # The table as 0001 made it (the model has columns added since).
    users_0001 = table("users", column("name"), column("is_guest"), column("created_at"))
    with engine.begin() as connection:
        for name in ["admin", "Admin", "admin\n", "Bob"]:
            connection.execute(
                insert(users_0001).values(name=name, is_guest=False, created_at=utcnow())
            )
    upgrade(engine)
    with engine.connect() as connection:
        keys = dict(
            connection.execute(
                select(User.name, AccountName.key).join(AccountName, AccountName.user_id == User.id)
            ).all()
        )
    engine.dispose()
    assert keys["admin"] == "admin"  # the oldest keeps the name
    assert keys["Bob"] == "bob"
    assert keys["Admin"].startswith("admin#")  # no name can reach these
    assert keys["admin\n"] == "admin\n"  # a key no valid name has: nobody signs in to it
