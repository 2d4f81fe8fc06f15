"""``roses serve`` stops on SIGTERM within a few seconds whatever its connections are doing
(issue 38): game and lobby sockets open, one of them sent a frame nested too deep, one that
never answers the close, a body trickling in, registrations queued for a password-hashing
slot, a bot thinking; and what it acknowledged is in the database after it starts again."""

from __future__ import annotations

import signal
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from .live_server import LiveServer

pytestmark = pytest.mark.timeout(120)

STOPPED_WITHIN = 5.0
QUEUED = 12


def _player(live: LiveServer, name: str) -> httpx.Client:
    client = httpx.Client(base_url=live.url, timeout=10)
    signed_up = client.post("/api/accounts/register", json=_credentials(name))
    assert signed_up.status_code == 201, signed_up.text
    return client


def _credentials(name: str) -> dict[str, str]:
    return {"name": name, "password": "pw-rose-1"}


def _registered(live: LiveServer, name: str) -> bool:
    """Whether the server acknowledged the registration before it stopped."""
    try:
        answer = httpx.post(f"{live.url}/api/accounts/register", json=_credentials(name))
    except httpx.HTTPError:
        return False
    return answer.status_code == 201


def _socket(
    live: LiveServer, client: httpx.Client, path: str, stack: ExitStack
) -> ClientConnection:
    cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
    url = f"ws://127.0.0.1:{live.port}{path}"
    opened = stack.enter_context(connect(url, additional_headers={"cookie": cookie}))
    opened.recv(timeout=10)  # the first view, or the lobby's hello
    return opened


def _handshake(live: LiveServer, client: httpx.Client, path: str) -> bytes:
    """A WebSocket handshake, for a client that then ignores everything, the close too."""
    cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
    return (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{live.port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        f"Sec-WebSocket-Version: 13\r\nCookie: {cookie}\r\n\r\n"
    ).encode()


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
    env = {"ROSES_PASSWORD_HASHING_SLOTS": "1", "ROSES_REGISTRATIONS_PER_ADDRESS": "100/hour"}
    live = LiveServer(f"sqlite:///{tmp_path / 'roses.sqlite3'}", tmp_path / "server.log", env)
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
            deaf = stack.enter_context(socket.create_connection(("127.0.0.1", live.port)))
            deaf.sendall(_handshake(live, red, f"/api/games/{game_id}/ws"))
            assert deaf.recv(4096).startswith(b"HTTP/1.1 101 ")  # and never reads again
            queue = stack.enter_context(ThreadPoolExecutor(QUEUED))
            names = [f"queued-{number}" for number in range(QUEUED)]
            # Registrations waiting for the one password-hashing slot.
            registrations = [queue.submit(_registered, live, name) for name in names]
            time.sleep(0.3)
            assert live.process is not None
            started = time.monotonic()
            live.process.send_signal(signal.SIGTERM)
            live.process.wait(timeout=30)
            stopped_after = time.monotonic() - started
            trickling.settimeout(5)
            refused = trickling.recv(65536)  # not waited for: it had not reached its route
            assert refused.startswith(b"HTTP/1.1 503 "), refused
            assert b"The server is stopping and did nothing" in refused
            acknowledged_names = [
                name for name, done in zip(names, registrations, strict=True) if done.result()
            ]
        live.process = None
        log = live.log_path.read_text()
        assert stopped_after < STOPPED_WITHIN, log[-3000:]
        assert "Traceback" not in log, log[-3000:]
        live.start()
        after = red.get(f"/api/games/{game_id}").json()
        assert after["version"] >= acknowledged["version"]
        assert after["log"][: len(acknowledged["log"])] == acknowledged["log"]
        for name in acknowledged_names:
            signed_in = httpx.post(f"{live.url}/api/accounts/login", json=_credentials(name))
            assert signed_in.status_code == 200, name
    finally:
        live.stop()


def _analyse(client: httpx.Client, position: dict[str, Any]) -> int | None:
    try:
        answer = client.post("/api/analysis/roseking/position", json={"position": position})
    except httpx.HTTPError:
        return None  # cut off by the stop
    return answer.status_code


def test_sigterm_cancels_a_request_still_at_its_route_after_two_seconds(tmp_path: Path) -> None:
    """A route still working when the server is told to stop (a position analysis given a
    minute) is cancelled, its search process with it, rather than waited for."""
    env = {"ROSES_POSITION_ANALYSIS_SECONDS": "60"}
    live = LiveServer(f"sqlite:///{tmp_path / 'roses.sqlite3'}", tmp_path / "server.log", env)
    live.start()
    try:
        red, white = _player(live, "red-busy"), _player(live, "white-busy")
        seats = [{"kind": "me"}, {"kind": "invite", "name": "white-busy"}]
        game_id = red.post("/api/games", json={"seats": seats}).json()["id"]
        assert white.post(f"/api/games/{game_id}/join").status_code == 200
        analyst = _player(live, "analyst-busy")
        position = {"state": analyst.get(f"/api/games/{game_id}").json()["state"]}
        with ThreadPoolExecutor(1) as queue:
            analysis = queue.submit(_analyse, analyst, position)
            time.sleep(1.0)  # at its route, waiting for its search
            assert not analysis.done(), analysis.result()
            assert live.process is not None
            started = time.monotonic()
            live.process.send_signal(signal.SIGTERM)
            live.process.wait(timeout=30)
            stopped_after = time.monotonic() - started
            assert analysis.result() in {None, 500, 503}
        live.process = None
        assert stopped_after < STOPPED_WITHIN, live.log_path.read_text()[-3000:]
    finally:
        live.stop()
