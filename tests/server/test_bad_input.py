"""Bad input never gets a 500: each gets its 4xx with a reason, and changes nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from .conftest import sign_up, two_player_game

NASTY_VALUES: list[Any] = [None, "", "\x00", "N2\x00", "é" * 300, -1, 2**31, 2**70, 1.5, [], {}]


def _requests(gid: int, version: int, value: Any) -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"/api/games/{gid}/moves", {"move": value, "version": version}),
        (f"/api/games/{gid}/moves", {"move": "draw", "version": value}),
        (f"/api/games/{gid}/undo", {"version": value}),
        (f"/api/games/{gid}/join", {"seat": value}),
        ("/api/games", {"seats": [{"kind": "me"}, {"kind": "invite", "name": value}]}),
        ("/api/games", {"seats": [{"kind": "me"}, {"kind": "bot", "bot": value}]}),
        ("/api/games", {"players": value, "seats": [{"kind": "me"}, {"kind": "open"}]}),
        ("/api/accounts/login", {"name": value, "password": value}),
        ("/api/accounts/register", {"name": value, "password": "long-enough"}),
    ]


def test_nasty_values_in_every_field_are_refused_cleanly(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    before = red.game(game["id"])
    gid = game["id"]
    for value in NASTY_VALUES:
        for path, body in _requests(gid, before["version"], value):
            response = red.post(path, body)
            assert 400 <= response.status_code < 500, (path, body, response.text)
            assert "Traceback" not in response.text
            assert response.json()["detail"]
    for path in ("/api/games/99999999999999999999", "/api/games/-4", "/api/games/0"):
        response = red.get(path)
        assert response.status_code in {404, 422}, response.text
    assert red.game(gid) == before
