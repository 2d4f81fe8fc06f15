"""Table talk: players write, everyone watching reads (live, as its own message type, never
with game state), a per-user mute, a length limit, a rate limit. WotR's courtesy phrases and
the spectators' room: ``test_table_talk.py``."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from roses.server import Settings, create_app

from .conftest import Player, sign_up, two_player_game
from .hidden import assert_chat_only, walk

pytestmark = pytest.mark.timeout(60)

MESSAGE_KEYS = {"id", "player", "room", "phrase", "text", "at"}


def test_players_talk_spectators_read_and_the_socket_carries_only_the_message(
    client: TestClient,
) -> None:
    red, white, watcher = sign_up(client), sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    chat = f"/api/games/{game['id']}/chat"
    with watcher.websocket(f"/api/games/{game['id']}/ws") as socket:
        socket.receive_json()  # the spectator's view
        sent = red.post(chat, {"text": "  good luck!  "})
        assert sent.status_code == 201, sent.text
        assert sent.json()["text"] == "good luck!" and sent.json()["player"] == red.name
        assert sent.json()["room"] == "players" and sent.json()["phrase"] is None
        pushed = socket.receive_json()
        assert pushed == {"type": "chat", "game_id": game["id"], "message": sent.json()}
        assert set(pushed["message"]) == MESSAGE_KEYS
        walk(pushed)  # no secret key anywhere
    read = watcher.get(chat).json()
    assert read["room"] == "spectators" and [m["text"] for m in read["messages"]] == ["good luck!"]
    assert white.get(chat).json()["may_write"] is True
    assert white.get(chat).json()["talk"] == "free"  # the Rose King's talk is free
    assert game["version"] == red.game(game["id"])["version"]  # talk is not a game change


def test_bad_messages_are_refused_and_nothing_is_stored(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    chat = f"/api/games/{two_player_game(red, white)['id']}/chat"
    too_long = red.post(chat, {"text": "x" * 501})
    assert too_long.status_code == 422 and too_long.json()["errors"][0]["field"] == "text"
    blank = red.post(chat, {"text": "   "})
    assert blank.status_code == 422 and blank.json()["detail"] == "The message is empty."
    assert red.post(chat, {"text": "x" * 500}).status_code == 201
    assert len(red.get(chat).json()["messages"]) == 1
    assert red.post("/api/games/999999/chat", {"text": "hi"}).status_code == 404


def test_a_muted_player_is_not_heard_by_who_muted_them(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    chat = f"/api/games/{game['id']}/chat"
    assert white.client.put(f"/api/chat/mutes/{red.name}", headers=white.headers).status_code == 204
    assert white.get("/api/chat/mutes").json() == {"muted": [red.name]}
    with white.websocket(f"/api/games/{game['id']}/ws") as socket:
        socket.receive_json()
        red.post(chat, {"text": "you will never win"})
        white.post(chat, {"text": "anyone there?"})
        message = socket.receive_json()  # only white's own: red's was not sent
        assert message["message"]["text"] == "anyone there?"
    assert [m["text"] for m in white.get(chat).json()["messages"]] == ["anyone there?"]
    assert len(red.get(chat).json()["messages"]) == 2  # a mute is for the one who muted
    self_mute = white.client.put(f"/api/chat/mutes/{white.name}", headers=white.headers)
    assert self_mute.status_code == 409
    nobody = white.client.put("/api/chat/mutes/nobody-here", headers=white.headers)
    assert nobody.status_code == 404 and "no player named" in nobody.json()["detail"]
    assert (
        white.client.delete(f"/api/chat/mutes/{red.name}", headers=white.headers).status_code == 204
    )
    assert len(white.get(chat).json()["messages"]) == 2


@pytest.fixture
def slow_chat_client(database_url: str) -> Iterator[TestClient]:
    settings = Settings(database_url=database_url, chat_messages_per_account="3/minute")
    with TestClient(create_app(settings)) as client:
        yield client


def test_chat_is_rate_limited(slow_chat_client: TestClient) -> None:
    red, white = sign_up(slow_chat_client), sign_up(slow_chat_client)
    chat = f"/api/games/{two_player_game(red, white)['id']}/chat"
    for line in range(3):
        assert red.post(chat, {"text": f"line {line}"}).status_code == 201
    fast = red.post(chat, {"text": "one more"})
    assert fast.status_code == 429 and "writing faster" in fast.json()["detail"]
    assert "Retry-After" in fast.headers
    assert len(red.get(chat).json()["messages"]) == 3


def test_a_message_on_one_server_reaches_watchers_on_another(
    database_url: str, redis_url: str
) -> None:
    channel = f"roses-test-{uuid.uuid4().hex}"  # parallel test runs do not hear each other
    settings = Settings(database_url=database_url, redis_url=redis_url, redis_channel=channel)
    with TestClient(create_app(settings)) as first, TestClient(create_app(settings)) as second:
        red, white, muter = sign_up(first), sign_up(first), sign_up(first)
        first.put("/api/language", json={"language": "de"}, headers=white.headers)
        game = two_player_game(red, white)
        muter.client.put(f"/api/chat/mutes/{red.name}", headers=muter.headers)
        elsewhere = [Player(second, p.name, p.token) for p in (white, muter)]
        path = f"/api/games/{game['id']}/ws"
        with elsewhere[0].websocket(path) as socket, elsewhere[1].websocket(path) as muted:
            socket.receive_json()
            muted.receive_json()
            said = red.post(f"/api/games/{game['id']}/chat", {"text": "over here"}).json()
            pushed = socket.receive_json()
            assert_chat_only(pushed)
            assert pushed["message"] == said  # the author's id stayed on the servers
            white.post(f"/api/games/{game['id']}/chat", {"text": "heard you"})
            assert muted.receive_json()["message"]["text"] == "heard you"  # not red's
            socket.receive_json()  # white's own
            # a phrase is put into each reader's language on the reader's server
            red.post(f"/api/games/{game['id']}/chat", {"phrase": "hello"})
            assert socket.receive_json()["message"]["text"] == "Hallo!"
