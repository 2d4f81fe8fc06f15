"""JSON nested deep sent to every route that takes a body (issue 38): each answers 4xx with a
sentence, never 500, logs no traceback, and does not repeat the value back whole."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import sign_up, two_player_game

# 5,000 deep: more than Python's parser can read; 100 deep: it reads it, the checks must not
# keep it; 900 deep: it may read it, and then a view holding it could not be encoded.
UNPARSABLE = 5000
PARSABLE = 100
BARELY_PARSABLE = 900
# A refusal names the field and the rule; it never carries the value sent back whole.
MOST_ANSWER_BYTES = 4096


def _nested_lists(depth: int) -> str:
    return "[" * depth + "]" * depth


def _nested_objects(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


def _routes_with_bodies(client: TestClient) -> list[tuple[str, str, list[str]]]:
    """Each route of the OpenAPI schema that reads a JSON body: method, path, its fields."""
    schema = client.app.openapi()  # type: ignore[attr-defined]
    routes = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method not in {"post", "put", "patch"}:
                continue
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is None:
                continue  # reads no body (sign-out, resign): what is sent is never parsed
            reference = body["schema"].get("$ref", "")
            model = schema["components"]["schemas"].get(reference.rsplit("/", 1)[-1], {})
            routes.append((method.upper(), path, list(model.get("properties", {}))))
    return routes


def test_every_route_with_a_body_is_swept(client: TestClient) -> None:
    """The sweep below finds the routes; it must find the ones known to take JSON values."""
    paths = {path for _, path, _ in _routes_with_bodies(client)}
    assert {"/api/games/{game_id}/moves", "/api/games/{game_id}/draft", "/api/games"} <= paths
    assert len(paths) >= 14


def _bodies(value: str, fields: list[str]) -> list[str]:
    """``value`` as the whole body, and as each field of it at once."""
    return [value, "{" + ", ".join(f'"{field}": {value}' for field in fields) + "}"]


VALUES = {
    "lists-5000-deep": _nested_lists(UNPARSABLE),
    "lists-100-deep": _nested_lists(PARSABLE),
    "objects-5000-deep": _nested_objects(UNPARSABLE),
    "objects-100-deep": _nested_objects(PARSABLE),
    "lists-900-deep": _nested_lists(BARELY_PARSABLE),
    "objects-900-deep": _nested_objects(BARELY_PARSABLE),
    "a-long-text": '"' + "x" * 60_000 + '"',
}


@pytest.mark.parametrize("value", list(VALUES.values()), ids=list(VALUES))
def test_json_nested_deep_is_refused_with_a_sentence_everywhere(
    client: TestClient, value: str, caplog: pytest.LogCaptureFixture
) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    values = {"game_id": str(game["id"]), "game": "roseking", "index": "0", "name": white.name}
    caplog.set_level(logging.WARNING)
    failures: list[str] = []
    for method, template, fields in _routes_with_bodies(client):
        path = re.sub(r"\{(\w+)\}", lambda match: values[match.group(1)], template)
        for body in _bodies(value, fields):
            answer = client.request(
                method,
                path,
                content=body.encode(),
                headers={**red.headers, "content-type": "application/json"},
            )
            detail: Any = None
            if answer.headers.get("content-type") == "application/json":
                detail = answer.json().get("detail") if isinstance(answer.json(), dict) else None
            if not (400 <= answer.status_code < 500 and isinstance(detail, str) and detail):
                failures.append(f"{method} {path}: {answer.status_code} {answer.text[:200]}")
            elif len(answer.content) > MOST_ANSWER_BYTES:
                failures.append(f"{method} {path}: an answer of {len(answer.content)} bytes")
    assert not failures, "\n".join(failures)
    assert red.get("/api/me").status_code == 200  # still signed in: every route was reached
    tracebacks = [record.getMessage() for record in caplog.records if record.exc_info]
    assert not tracebacks, tracebacks


def test_a_body_too_deep_to_parse_is_a_422_in_the_readers_language(client: TestClient) -> None:
    player = sign_up(client)
    headers = {**player.headers, "content-type": "application/json"}
    body = _nested_lists(UNPARSABLE).encode()
    english = client.put("/api/games/1/draft", content=body, headers=headers)
    assert english.status_code == 422
    assert english.json()["detail"] == "The request body is nested more than 32 levels deep."
    german = client.post("/api/games", content=body, headers={**headers, "accept-language": "de"})
    assert german.status_code == 422
    assert (
        german.json()["detail"]
        == "Der Inhalt der Anfrage ist mehr als 32 Ebenen tief verschachtelt."
    )


def test_a_body_that_is_not_text_is_a_400_with_a_sentence(client: TestClient) -> None:
    player = sign_up(client)
    headers = {**player.headers, "content-type": "application/json"}
    answer = client.post("/api/games", content=b'{"seats": "\xff\xfe"}', headers=headers)
    assert answer.status_code == 400
    assert answer.json()["detail"] == "The request body is not JSON that can be read."
