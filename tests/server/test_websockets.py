"""WebSockets: a signed-in watcher gets the game now and after every change."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from roses.roseking import Board
from roses.server import Settings, create_app
from roses.server.play import sockets

from .conftest import act, opening, sign_up, start_from, two_player_game

# A socket that never hears its message must fail the test, not hang the run.
pytestmark = pytest.mark.timeout(60)


def test_a_watcher_gets_each_change_as_their_seat_sees_it(client: TestClient) -> None:
    red, white, spectator = sign_up(client), sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    with (
        white.websocket(f"/api/games/{game['id']}/ws") as white_ws,
        spectator.websocket(f"/api/games/{game['id']}/ws") as spectator_ws,
    ):
        assert white_ws.receive_json()["game"]["you"] == 1
        assert spectator_ws.receive_json()["game"]["you"] is None
        after = act(red, game, opening(client, game))
        pushed = white_ws.receive_json()["game"]
        assert pushed["version"] == after["version"]
        assert pushed["your_turn"] is True
        assert pushed["log"] == after["log"]
        watched = spectator_ws.receive_json()["game"]
        assert watched["your_turn"] is False and watched["log"] == after["log"]


def test_the_opening_of_these_tests_leaves_white_a_move(client: TestClient) -> None:
    """On deal 3046 Red's first listed move (SW3) forces White to pass (RK-11)."""
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    start_from(client, game["id"], Board(seed=3046))
    game = red.game(game["id"])
    assert game["state"]["legal_moves"][0] == "SW3"
    after = act(red, game, opening(client, game))
    assert after["to_act"] == [1] and after["log"][-1]["move"] != "pass"


def test_the_lobby_socket_hears_about_new_invitations(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    with white.websocket("/api/lobby/ws") as lobby:
        assert lobby.receive_json() == {"type": "hello", "user": white.name}
        seats = [{"kind": "me"}, {"kind": "invite", "name": white.name}]
        game = red.post("/api/games", {"seats": seats}).json()
        heard = lobby.receive_json()
        while heard["type"] == "tournament":  # news for every lobby: another test's, on
            heard = lobby.receive_json()  # the PostgreSQL database the tests share
        assert heard == {"type": "lobby", "game_id": game["id"]}
    mine = white.get("/api/games/mine").json()
    assert [g["id"] for g in mine["invitations"]] == [game["id"]]


def test_sockets_need_a_session_and_a_game(client: TestClient) -> None:
    player = sign_up(client)
    with client.websocket_connect("/api/lobby/ws") as anonymous:
        with pytest.raises(WebSocketDisconnect) as closed:
            anonymous.receive_json()
        assert closed.value.code == 4401
    with player.websocket("/api/games/424242/ws") as missing:
        with pytest.raises(WebSocketDisconnect) as closed:
            missing.receive_json()
        assert closed.value.code == 4404


def test_pages_of_other_sites_cannot_open_sockets(client: TestClient) -> None:
    player = sign_up(client)
    foreign = {**player.headers, "origin": "http://evil.example"}
    with client.websocket_connect("/api/lobby/ws", headers=foreign) as socket:
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4403
    own = {**player.headers, "origin": "http://testserver"}
    with client.websocket_connect("/api/lobby/ws", headers=own) as socket:
        assert socket.receive_json()["type"] == "hello"


def _refused(socket: Any) -> str:
    """The close reason of a socket refused with 4429."""
    with pytest.raises(WebSocketDisconnect) as closed:
        socket.receive_json()
    assert closed.value.code == sockets.TOO_MANY
    return str(closed.value.reason)


def test_an_account_and_an_address_hold_so_many_sockets(database_url: str) -> None:
    """One person opening sockets without end would slow every change for everyone: the
    socket past the limit is closed with a sentence, in the reader's language."""
    settings = Settings(database_url=database_url, sockets_per_account=2, sockets_per_address=3)
    with TestClient(create_app(settings)) as client:
        red, white = sign_up(client), sign_up(client)
        game = two_player_game(red, white)
        path = f"/api/games/{game['id']}/ws"
        with red.websocket(path) as first, red.websocket("/api/lobby/ws") as second:
            assert first.receive_json()["type"] == "game"
            assert second.receive_json()["type"] == "hello"
            for refused_path in (path, "/api/lobby/ws"):
                with red.websocket(refused_path) as third:
                    assert "too many connections open" in _refused(third)
            with white.websocket(path) as others:  # the address's third
                assert others.receive_json()["type"] == "game"
                german = {**white.headers, "accept-language": "de"}
                with client.websocket_connect("/api/lobby/ws", headers=german) as fourth:
                    assert "zu viele Verbindungen" in _refused(fourth)
        with red.websocket(path) as again:  # the closed ones count no more
            assert again.receive_json()["type"] == "game"


def test_signing_out_closes_the_sockets_of_that_sign_in(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    with (
        red.websocket(f"/api/games/{game['id']}/ws") as socket,
        red.websocket("/api/lobby/ws") as lobby,
    ):
        assert socket.receive_json()["version"] == game["version"]
        assert lobby.receive_json()["type"] == "hello"
        assert red.post("/api/accounts/logout").status_code == 204
        for closed in (socket, lobby):
            with pytest.raises(WebSocketDisconnect):
                closed.receive_json()


def test_binary_frames_are_ignored_and_versions_arrive_in_order(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    with white.websocket(f"/api/games/{game['id']}/ws?version={game['version']}") as socket:
        socket.send_bytes(b"\x00\xff")  # nothing a client sends can break its socket
        socket.send_text("not json")
        view = game
        versions = []
        for _ in range(6):
            mover = red if view["turn"] == "Red" else white
            view = act(
                mover, mover.game(game["id"]), mover.game(game["id"])["state"]["legal_moves"][0]
            )
            versions.append(socket.receive_json()["version"])
    # Nothing sent on connection (the client had that version), then each version once.
    assert versions == list(range(game["version"] + 1, game["version"] + 7))


def test_each_version_is_encoded_once_per_seat_and_once_for_spectators(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three spectators and White watch: a move is encoded for White and for the spectators
    (once, shared), and every spectator's socket receives the same text."""
    red, white = sign_up(client), sign_up(client)
    spectators = [sign_up(client) for _ in range(3)]
    game = two_player_game(red, white)
    encoded: list[int | None] = []
    real_encode = sockets.encode

    def counting(message: dict[str, Any]) -> str:
        encoded.append(message["game"]["you"])
        return real_encode(message)

    with contextlib.ExitStack() as stack:
        watchers = [
            stack.enter_context(p.websocket(f"/api/games/{game['id']}/ws"))
            for p in (white, *spectators)
        ]
        for socket in watchers:
            socket.receive_json()
        monkeypatch.setattr(sockets, "encode", counting)
        act(red, game, opening(client, game))
        texts = [socket.receive_text() for socket in watchers]
    assert sorted(encoded, key=str) == [1, None]
    assert texts[1] == texts[2] == texts[3] != texts[0]
