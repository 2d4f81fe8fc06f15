"""Quotas and rate limits per account and per address (issue 12): games created per window,
unfinished games and games with bots at once, invitations per window, guests and accounts
per address. Each refusal is 429 with a sentence (and Retry-After for windows).

The game checks are dependencies (``quotas.new_game_allowed``, ``quotas.join_allowed``) that
the game routes declare; most tests use them on stand-in routes (which create no games),
one on the real routes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import Depends, FastAPI
from fastapi.testclient import TestClient

from roses.server import Settings, create_app
from roses.server.accounts import quotas

from .conftest import Player, sign_up, two_player_game

CHECKED_NEW_GAME = "/test/checked/games"
CHECKED_JOIN = "/test/checked/join"


def _app(database_url: str, **settings: Any) -> FastAPI:
    app = create_app(Settings(database_url=database_url, **settings))

    @app.post(CHECKED_NEW_GAME, dependencies=[Depends(quotas.new_game_allowed)])
    def checked_new_game() -> dict[str, bool]:
        return {"allowed": True}

    @app.post(CHECKED_JOIN, dependencies=[Depends(quotas.join_allowed)])
    def checked_join() -> dict[str, bool]:
        return {"allowed": True}

    return app


@pytest.fixture
def make_client(database_url: str) -> Iterator[Any]:
    clients: list[TestClient] = []

    def make(**settings: Any) -> TestClient:
        client = TestClient(_app(database_url, **settings))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def _new_game(player: Player, *kinds: str, path: str = "/api/games") -> Any:
    seats: list[dict[str, str]] = [{"kind": "me"}]
    for kind in kinds:
        seat = {"kind": kind}
        if kind == "bot":
            seat |= {"bot": "random"}
        if kind == "invite":
            seat["name"] = sign_up(player.client).name
        seats.append(seat)
    return player.post(path, {"seats": seats})


def _assert_refused(response: Any, words: str, *, retry_after: bool) -> None:
    assert response.status_code == 429, response.text
    assert words in response.json()["detail"].lower()
    assert ("retry-after" in response.headers) == retry_after


def test_games_per_account_per_window(make_client: Any) -> None:
    player = sign_up(make_client(games_per_account="2/hour"))
    for _ in range(2):
        assert _new_game(player, "open", path=CHECKED_NEW_GAME).status_code == 200
    refused = _new_game(player, "open", path=CHECKED_NEW_GAME)
    _assert_refused(refused, "you have created too many games lately", retry_after=True)
    assert 3500 <= int(refused.headers["retry-after"]) <= 3600
    assert _new_game(sign_up(player.client), "open", path=CHECKED_NEW_GAME).status_code == 200


def test_invitations_per_account_per_window(make_client: Any) -> None:
    player = sign_up(make_client(invitations_per_account="3/hour"))
    assert _new_game(player, "invite", "invite", path=CHECKED_NEW_GAME).status_code == 200
    refused = _new_game(player, "invite", "invite", path=CHECKED_NEW_GAME)
    _assert_refused(refused, "too many invitations", retry_after=True)
    assert _new_game(player, "invite", path=CHECKED_NEW_GAME).status_code == 200  # the third


def test_unfinished_games_per_account(make_client: Any) -> None:
    player = sign_up(make_client(open_games_per_account=2))
    for _ in range(2):
        assert _new_game(player, "open").status_code == 201
    refused = _new_game(player, "open", path=CHECKED_NEW_GAME)
    _assert_refused(refused, "at most 2 unfinished games at once", retry_after=False)
    _assert_refused(player.post(CHECKED_JOIN), "finish or cancel one first", retry_after=False)
    game_id = player.get("/api/games/mine").json()["others"][0]["id"]
    assert player.post(f"/api/games/{game_id}/cancel").status_code == 200
    assert _new_game(player, "open", path=CHECKED_NEW_GAME).status_code == 200
    assert player.post(CHECKED_JOIN).status_code == 200


def test_the_game_routes_apply_the_quotas(make_client: Any) -> None:
    client = make_client(open_games_per_account=1)
    player, host = sign_up(client), sign_up(client)
    assert _new_game(player, "open").status_code == 201
    refused = _new_game(player, "open")
    _assert_refused(refused, "at most 1 unfinished games at once", retry_after=False)
    game_id = _new_game(host, "open").json()["id"]
    refused = player.post(f"/api/games/{game_id}/join")
    _assert_refused(refused, "at most 1 unfinished games at once", retry_after=False)
    assert host.game(game_id)["status"] == "waiting"  # nobody joined


def test_games_with_bots_per_account(make_client: Any) -> None:
    player = sign_up(make_client(bot_games_per_account=1))
    assert _new_game(player, "bot").status_code == 201
    refused = _new_game(player, "bot", path=CHECKED_NEW_GAME)
    _assert_refused(refused, "at most 1 unfinished games with bots at once", retry_after=False)
    assert _new_game(player, "open", path=CHECKED_NEW_GAME).status_code == 200


def test_guests_per_address(make_client: Any) -> None:
    client = make_client(guests_per_address="3/hour")
    for _ in range(3):
        assert client.post("/api/accounts/guest").status_code == 201
    refused = client.post("/api/accounts/guest")
    _assert_refused(refused, "too many guests were created from your address", retry_after=True)


def test_accounts_per_address(make_client: Any) -> None:
    client = make_client(registrations_per_address="2/hour")
    sign_up(client), sign_up(client)
    body = {"name": "one-too-many", "password": "long-enough"}
    refused = client.post("/api/accounts/register", json=body)
    _assert_refused(refused, "too many accounts were created", retry_after=True)
    assert client.post("/api/accounts/login", json=body).status_code == 401  # none was made


def test_the_environment_sets_the_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROSES_GUESTS_PER_ADDRESS", "1000/hour")
    monkeypatch.setenv("ROSES_OPEN_GAMES_PER_ACCOUNT", "7")
    monkeypatch.setenv("ROSES_TRUSTED_ORIGINS", "https://a.example,https://b.example")
    settings = Settings.from_env()
    assert settings.guests_per_address == "1000/hour"
    assert settings.open_games_per_account == 7
    assert settings.trusted_origins == ["https://a.example", "https://b.example"]


def _bot_game_resigned(player: Player) -> int:
    game_id: int = _new_game(player, "bot").json()["id"]
    assert player.post(f"/api/games/{game_id}/resign").status_code == 200
    return game_id


def test_a_rematch_counts_as_a_game_created(make_client: Any) -> None:
    """Resigning and asking for a rematch again and again makes no more games than creating
    them would: the rematch the bot accepts at once is a game of the window."""
    player = sign_up(make_client(games_per_account="2/hour"))
    first = _bot_game_resigned(player)
    second = player.post(f"/api/games/{first}/rematch").json()["rematch"]
    assert player.post(f"/api/games/{second}/resign").status_code == 200
    refused = player.post(f"/api/games/{second}/rematch")
    _assert_refused(refused, "you have created too many games lately", retry_after=True)
    assert player.get(f"/api/games/{second}/rematch").json()["accepted"] == []  # no vote kept


def test_a_rematch_counts_against_the_games_with_bots_at_once(make_client: Any) -> None:
    player = sign_up(make_client(bot_games_per_account=1))
    finished = _bot_game_resigned(player)
    assert _new_game(player, "bot").status_code == 201
    refused = player.post(f"/api/games/{finished}/rematch")
    _assert_refused(refused, "at most 1 unfinished games with bots at once", retry_after=False)
    assert len(player.get("/api/games/mine").json()["my_turn"]) <= 1  # no second bot game


def test_a_rematch_waits_for_room_in_every_players_quota(make_client: Any) -> None:
    """Each player's vote is checked against their quota, and the vote that starts the game
    against everyone's: a player may have taken other seats since voting."""
    client = make_client(open_games_per_account=1)
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    assert white.post(f"/api/games/{game['id']}/resign").status_code == 200
    path = f"/api/games/{game['id']}/rematch"
    assert white.post(path).json()["accepted"] == [white.name]
    assert _new_game(white, "open").status_code == 201  # white's one unfinished game
    refused = red.post(path)
    _assert_refused(
        refused, f"{white.name} has no room for another unfinished game", retry_after=False
    )
    assert red.get(path).json()["rematch"] is None
    assert _new_game(red, "open").status_code == 201
    refused = red.post(path)
    _assert_refused(refused, "at most 1 unfinished games at once", retry_after=False)
