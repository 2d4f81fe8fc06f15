"""``roses serve`` stops on SIGTERM within a few seconds whatever its connections are doing
(issue 38): game and lobby sockets open, one of them sent frames nested too deep, a body
trickling in, a bot thinking; and what it acknowledged before is in the database after it
starts again."""

from __future__ import annotations

import signal
import socket
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from .live_server import LiveServer

pytestmark = pytest.mark.timeout(120)

STOPPED_WITHIN = 5.0


def _player(live: LiveServer, name: str) -> httpx.Client:
    client = httpx.Client(base_url=live.url, timeout=10)
    signed_up = client.post("/api/accounts/register", json={"name": name, "password": "pw-rose-1"})
    assert signed_up.status_code == 201, signed_up.text
    return client


def _socket(
    live: LiveServer, client: httpx.Client, path: str, stack: ExitStack
) -> ClientConnection:
    cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
    url = f"ws://127.0.0.1:{live.port}{path}"
    opened = stack.enter_context(connect(url, additional_headers={"cookie": cookie}))
    opened.recv(timeout=10)  # the first view, or the lobby's hello
    return opened


def _move(client: httpx.Client, game_id: int) -> dict[str, Any]:
    """One legal move by whoever is to move; the answer is its acknowledgement."""
    view = client.get(f"/api/games/{game_id}").json()
    move = {"move": view["state"]["legal_moves"][0], "version": view["version"]}
    answer = client.post(f"/api/games/{game_id}/moves", json=move)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_sigterm_stops_the_server_at_once_and_keeps_what_it_acknowledged(
    tmp_path: Path,
) -> None:
    live = LiveServer(f"sqlite:///{tmp_path / 'roses.sqlite3'}", tmp_path / "server.log")
    live.start()
    try:
        red, white = _player(live, "red-stop"), _player(live, "white-stop")
        seats = [{"kind": "me"}, {"kind": "invite", "name": "white-stop"}]
        game_id = red.post("/api/games", json={"seats": seats}).json()["id"]
        assert white.post(f"/api/games/{game_id}/join").status_code == 200
        bot_seats = [{"kind": "bot", "bot": "mcts", "strength": "strong"}, {"kind": "me"}]
        bot_game = red.post("/api/games", json={"seats": bot_seats})
        assert bot_game.status_code == 201, bot_game.text  # the bot thinks for 3 s at once
        with ExitStack() as stack:
            sockets = [
                _socket(live, player, f"/api/games/{game_id}/ws", stack)
                for player in (red, white, red, white)
            ]
            sockets.append(_socket(live, white, "/api/lobby/ws", stack))
            nested = '{"type": "move", "move": ' + "[" * 5000 + "]" * 5000 + "}"
            sockets[0].send(nested)  # a frame too deep to hold: the socket carries on
            red_turn = red.get(f"/api/games/{game_id}").json()["turn"] == "Red"
            acknowledged = _move(red if red_turn else white, game_id)
            trickling = stack.enter_context(socket.create_connection(("127.0.0.1", live.port)))
            trickling.sendall(
                f"POST /api/games/{game_id}/chat HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{".encode()
            )
            time.sleep(0.3)
            assert live.process is not None
            started = time.monotonic()
            live.process.send_signal(signal.SIGTERM)
            live.process.wait(timeout=30)
            stopped_after = time.monotonic() - started
        live.process = None
        assert stopped_after < STOPPED_WITHIN, live.log_path.read_text()[-3000:]
        live.start()
        after = red.get(f"/api/games/{game_id}").json()
        assert after["version"] >= acknowledged["version"]
        assert after["log"][: len(acknowledged["log"])] == acknowledged["log"]
    finally:
        live.stop()
