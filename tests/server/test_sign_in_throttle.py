"""No lockout by strangers (issue 35): failed sign-ins are counted per source, and a name's
own count slows down only sources it has never seen, so that its owner, from an address or
a browser that signed in to it before, does not feel a stranger's failures. The sources
are real: a live server reached from 127.0.0.2 and 127.0.0.3 (any 127/8 address is this
machine), and in process the address each test client claims."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from roses.server import Settings, create_app
from roses.server.accounts.sign_in_throttle import DEVICE_COOKIE

from .conftest import unique_name
from .live_server import running_server

RIGHT = "secret-rose"
TIGHT = {  # three failures of each kind: enough to see every limit in a few requests
    "login_failures_per_account": "3/hour",
    "login_failures_per_account_address": "3/hour",
    "login_failures_per_address": "100/hour",
    "login_failures_per_device": "3/hour",
}

pytestmark = pytest.mark.timeout(120)


def _login(client: TestClient | httpx.Client, name: str, password: str, **extra: Any) -> int:
    return client.post(
        "/api/accounts/login", json={"name": name, "password": password}, **extra
    ).status_code


def test_a_stranger_elsewhere_cannot_lock_the_owner_out(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url, **TIGHT))
    with (
        TestClient(app, client=("127.0.0.2", 5)) as owner,
        TestClient(app, client=("127.0.0.3", 5)) as stranger,
        TestClient(app, client=("127.0.0.4", 5)) as traveller,
    ):
        name = unique_name("owner")
        assert (
            owner.post("/api/accounts/register", json={"name": name, "password": RIGHT}).status_code
            == 201
        )
        device = owner.cookies[DEVICE_COOKIE]
        owner.cookies.clear()
        for _ in range(3):
            assert _login(stranger, name, "guess") == 401
        answer = stranger.post("/api/accounts/login", json={"name": name, "password": RIGHT})
        assert answer.status_code == 429  # the stranger is stopped, right password or not
        assert "to this name" in answer.json()["detail"] and "Retry-After" in answer.headers
        # The owner's address signed in before: the stranger's failures do not reach it.
        assert _login(owner, name, RIGHT) == 200
        owner.cookies.clear()
        # A place the name never saw is slowed by them...
        refused = traveller.post("/api/accounts/login", json={"name": name, "password": RIGHT})
        assert refused.status_code == 429
        assert "unknown places" in refused.json()["detail"]
        # ...but not the owner's own browser, wherever it is.
        traveller.cookies.set(DEVICE_COOKIE, device)
        assert _login(traveller, name, RIGHT) == 200


def test_a_device_cookie_has_its_own_count_and_cannot_be_forged(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url, **TIGHT))
    with (
        TestClient(app, client=("127.0.0.2", 5)) as owner,
        TestClient(app, client=("127.0.0.3", 5)) as other,
    ):
        name = unique_name("owner")
        assert (
            owner.post("/api/accounts/register", json={"name": name, "password": RIGHT}).status_code
            == 201
        )
        for _ in range(3):  # the owner mistyping in their own browser
            assert _login(owner, name, "typo") == 401
        answer = owner.post("/api/accounts/login", json={"name": name, "password": RIGHT})
        assert answer.status_code == 429 and "in this browser" in answer.json()["detail"]
        # Another browser's cookie for another account, or a forged one, is no key.
        stranger = unique_name("stranger")
        assert (
            other.post(
                "/api/accounts/register", json={"name": stranger, "password": RIGHT}
            ).status_code
            == 201
        )
        theirs = other.cookies[DEVICE_COOKIE]
        other.cookies.clear()
        for cookie in (theirs, "forged.cookie", theirs):  # each counted as a stranger's
            other.cookies.set(DEVICE_COOKIE, cookie)
            assert _login(other, name, "guess") == 401
        refused = other.post("/api/accounts/login", json={"name": name, "password": RIGHT})
        assert refused.status_code == 429 and "from your address" in refused.json()["detail"]


def test_sources_on_two_loopback_addresses_of_a_live_server(tmp_path: Path) -> None:
    env = {f"ROSES_{key.upper()}": value for key, value in TIGHT.items()}
    with running_server(tmp_path, env) as live:

        def client(address: str) -> httpx.Client:
            transport = httpx.HTTPTransport(local_address=address)
            return httpx.Client(base_url=live.url, transport=transport, timeout=30)

        name = unique_name("owner")
        with client("127.0.0.2") as owner, client("127.0.0.3") as stranger:
            registered = owner.post(
                "/api/accounts/register", json={"name": name, "password": RIGHT}
            )
            assert registered.status_code == 201, registered.text
            owner.cookies.clear()  # the owner's address alone, no device cookie
            for _ in range(3):
                assert _login(stranger, name, "guess") == 401
            assert _login(stranger, name, RIGHT) == 429
            assert _login(owner, name, RIGHT) == 200
