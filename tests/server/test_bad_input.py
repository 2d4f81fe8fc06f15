"""Bad input never gets a 500: each gets its 4xx with a reason, and changes nothing."""

from __future__ import annotations

import json
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


UNSTORABLE = ["a\x00b", "a\ud800b"]  # NUL (PostgreSQL keeps none) and half a surrogate pair


def test_unstorable_characters_are_refused_with_a_sentence_on_every_database(
    client: TestClient,
) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    gid, version = game["id"], game["version"]
    before = red.game(gid)
    headers = {**red.headers, "content-type": "application/json"}
    for text in UNSTORABLE:
        # json.dumps writes a lone surrogate as its escape, as a browser would send it.
        bodies = [
            ("POST", f"/api/games/{gid}/chat", {"text": text}),
            ("PUT", f"/api/games/{gid}/draft", {"draft": {"plan": [text]}}),
            ("PUT", f"/api/games/{gid}/draft", {"draft": {text: 1}}),
            ("POST", f"/api/games/{gid}/moves", {"move": text, "version": version}),
            ("POST", f"/api/games/{gid}/moves", {"move": {"orders": text}, "version": version}),
        ]
        for method, path, body in bodies:
            answer = client.request(method, path, content=json.dumps(body), headers=headers)
            assert answer.status_code == 422, (path, body, answer.text)
            assert answer.json()["errors"][0]["message"].endswith("."), answer.text
    for method, path in [
        ("PUT", "/api/chat/mutes/ab%00c"),
        ("DELETE", "/api/chat/mutes/ab%00c"),
        ("GET", "/api/players/ab%00c"),
    ]:
        answer = client.request(method, path, headers=red.headers)
        assert answer.status_code == 422, (path, answer.text)
        assert "NUL character" in answer.json()["errors"][0]["message"], answer.text
    assert red.get(f"/api/games/{gid}/chat").json()["messages"] == []
    assert red.game(gid) == before
