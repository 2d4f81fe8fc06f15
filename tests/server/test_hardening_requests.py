"""Requests (issue 12): state-changing requests from another site are refused (403) and change
nothing, bodies must be JSON (415) and small (413)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.server import Settings, create_app
from roses.server.http.guards import RequestGuard

from .conftest import Player, sign_up

OTHER_PORT = {"origin": "http://testserver:8001", "sec-fetch-site": "same-site"}
FORM = {"content-type": "application/x-www-form-urlencoded"}


def _waiting_game(player: Player) -> int:
    created = player.post("/api/games", {"seats": [{"kind": "me"}, {"kind": "open"}]})
    assert created.status_code == 201, created.text
    return int(created.json()["id"])


def _post(player: Player, path: str, headers: dict[str, str], content: bytes = b"") -> Any:
    return player.client.post(path, content=content, headers={**player.headers, **headers})


def test_a_form_posted_from_another_port_cancels_nothing(client: TestClient) -> None:
    player = sign_up(client)
    game_id = _waiting_game(player)
    refused = _post(player, f"/api/games/{game_id}/cancel", {**OTHER_PORT, **FORM})
    assert refused.status_code == 403
    assert refused.json()["detail"] == "Requests from other sites may not change anything here."
    assert player.game(game_id)["status"] == "waiting"


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://testserver:8001"},  # a browser that sends no Sec-Fetch-Site
        {"origin": "null"},  # a sandboxed frame or a file
        {"origin": "https://testserver"},  # another scheme is another origin
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site", "origin": "http://testserver"},
    ],
)
def test_other_origins_may_not_sign_out_join_or_become_guests(
    client: TestClient, headers: dict[str, str]
) -> None:
    player, other = sign_up(client), sign_up(client)
    game_id = _waiting_game(player)
    assert _post(other, f"/api/games/{game_id}/join", headers).status_code == 403
    assert _post(player, "/api/accounts/logout", headers).status_code == 403
    assert player.get("/api/me").status_code == 200  # still signed in
    assert client.post("/api/accounts/guest", headers=headers).status_code == 403
    assert client.get("/api/me").status_code == 401
    assert player.game(game_id)["status"] == "waiting"


def test_the_page_itself_and_clients_without_origin_may(client: TestClient) -> None:
    player = sign_up(client)
    own = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
    assert _post(player, f"/api/games/{_waiting_game(player)}/cancel", own).status_code == 200
    assert _post(player, f"/api/games/{_waiting_game(player)}/cancel", {}).status_code == 200


def test_trusted_origins_may(sqlite_url: str) -> None:
    settings = Settings(database_url=sqlite_url, trusted_origins=["https://roses.example"])
    with TestClient(create_app(settings)) as client:
        origin = {"origin": "https://roses.example"}
        assert client.post("/api/accounts/guest", headers=origin).status_code == 201


def test_bodies_must_be_json(client: TestClient) -> None:
    body = b'{"name": "plain-text", "password": "long-enough"}'
    for content_type in ["text/plain", "application/x-www-form-urlencoded", ""]:
        refused = client.post(
            "/api/accounts/register", content=body, headers={"content-type": content_type}
        )
        assert refused.status_code == 415, content_type
        assert "as JSON" in refused.json()["detail"]
    assert client.get("/api/me").status_code == 401
    login = {"name": "plain-text", "password": "long-enough"}
    assert client.post("/api/accounts/login", json=login).status_code == 401  # never created


def test_large_bodies_are_refused_before_they_are_read(client: TestClient) -> None:
    padding = "x" * (64 * 1024)
    big = client.post("/api/accounts/register", json={"name": "big-one", "password": padding})
    assert big.status_code == 413
    assert big.json()["detail"] == (
        "The request body is larger than 65536 bytes, the most accepted."
    )

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"name": "big-one", "password": "'
        for _ in range(100):
            yield b"x" * 1024
        yield b'"}'

    streamed = client.post(
        "/api/accounts/register", content=chunks(), headers={"content-type": "application/json"}
    )
    assert streamed.status_code == 413
    assert "larger than 65536 bytes" in streamed.json()["detail"]
    login = {"name": "big-one", "password": padding}
    assert client.post("/api/accounts/login", json=login).status_code != 200


def test_a_content_length_that_is_no_number_is_refused() -> None:
    """uvicorn's parser refuses it first; the guard does not rely on that."""
    sent: list[dict[str, Any]] = []

    async def never_called(*_: Any) -> None:
        raise AssertionError("the app was called")

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    guard = RequestGuard(never_called, max_body_bytes=1024)
    scope = {
        "type": "http",
        "method": "POST",
        "scheme": "http",
        "headers": [(b"host", b"testserver"), (b"content-length", b"12x")],
    }
    asyncio.run(guard(scope, receive, send))
    assert sent[0]["status"] == 400
    assert b"Content-Length" in sent[1]["body"]
