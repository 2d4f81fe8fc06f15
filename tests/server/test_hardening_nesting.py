"""A value nested past the interpreter's recursion, sent by one participant, hurts nobody:
a draft nested ~950 deep was once kept, and every later action in that game was committed but
answered 500, and the seat's own socket and view failed, until the process restarted."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from roses.server.db.models import utcnow
from roses.server.http.json_bounds import MAX_DEPTH, too_deep
from roses.server.services import services_of

from .conftest import act, opening, sign_up, two_player_game

pytestmark = pytest.mark.timeout(60)

DEEP = 950


def nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth - 1):
        value = {"a": value}
    return value


def test_depth_counts_objects_and_lists_without_recursion() -> None:
    assert not too_deep({"a": [1, {"b": 2}]}, most=3)
    assert too_deep({"a": [1, {"b": {}}]}, most=3)
    assert not too_deep("text") and not too_deep(None)
    assert too_deep(nested(100_000))  # the check itself never runs out of recursion


def test_a_nested_draft_is_refused_with_a_sentence_and_kept_nowhere(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    body = json.dumps({"draft": nested(DEEP)})
    refused = client.put(
        f"/api/games/{game['id']}/draft",
        content=body,
        headers={**red.headers, "content-type": "application/json"},
    )
    assert refused.status_code == 422, refused.text
    assert f"nested more than {MAX_DEPTH} levels" in refused.text
    assert len(refused.text) < 2_000  # the refusal does not repeat the value
    assert red.game(game["id"])["draft"] is None
    at_the_edge = client.put(
        f"/api/games/{game['id']}/draft",
        json={"draft": nested(MAX_DEPTH)},
        headers=red.headers,
    )
    assert at_the_edge.status_code == 200, at_the_edge.text
    assert at_the_edge.json() == {"preview": None}  # the Rose King previews no drafts


def test_a_nested_draft_kept_before_the_bound_freezes_nothing(client: TestClient) -> None:
    """A draft already in the database is not shown; the seat's view, its socket and
    everyone's moves go on (before: the view raised RecursionError and every move got 500)."""
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    with services_of(client.app).sessions.begin() as db:  # type: ignore[attr-defined]
        # As the unbounded PUT kept it: the JSON text, written past the ORM's encoder.
        data = "CAST(:data AS JSON)" if db.bind.dialect.name == "postgresql" else ":data"
        db.execute(
            text(
                f"INSERT INTO drafts (game_id, seat, data, updated_at) VALUES (:id, 0, {data}, :at)"
            ),
            {"id": game["id"], "data": json.dumps(nested(DEEP)), "at": utcnow()},
        )
    services_of(client.app).games.evict(game["id"])  # type: ignore[attr-defined]
    assert red.game(game["id"])["draft"] is None
    with red.websocket(f"/api/games/{game['id']}/ws") as socket:
        assert socket.receive_json()["type"] == "game"
        moved = act(red, game, opening(client, game))
        assert socket.receive_json()["version"] == moved["version"]
    assert white.game(game["id"])["version"] == moved["version"]


def test_a_nested_action_is_refused_on_the_api_and_the_socket(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    body = json.dumps({"move": nested(DEEP), "version": game["version"]})
    refused = client.post(
        f"/api/games/{game['id']}/moves",
        content=body,
        headers={**red.headers, "content-type": "application/json"},
    )
    assert refused.status_code == 422, refused.text
    assert f"nested more than {MAX_DEPTH} levels" in refused.text
    with red.websocket(f"/api/games/{game['id']}/ws") as socket:
        socket.receive_json()
        socket.send_text('{"type": "move", "id": 1, "move": ' + "[" * 5000 + "]" * 5000 + "}")
        unreadable = socket.receive_json()  # answered with a sentence, nothing done
        assert unreadable["type"] == "error" and unreadable["status"] == 422
        assert f"nested more than {MAX_DEPTH} levels" in unreadable["detail"]
        socket.send_json({"type": "move", "id": 2, "move": nested(64), "version": 1})
        answer = socket.receive_json()
        assert answer["type"] == "error" and answer["id"] == 2 and answer["status"] == 422
        move = {"type": "move", "id": 3, "move": opening(client, game), "version": 1}
        socket.send_json(move)  # the socket still answers moves after both frames
        assert socket.receive_json()["type"] == "game"
        assert socket.receive_json() == {"type": "ack", "id": 3, "version": 2}
    assert white.game(game["id"])["version"] == 2
