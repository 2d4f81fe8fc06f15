"""Connections to the real ``roses serve`` (issue 12): headers sent a byte at a time
(slowloris) or without end are cut off, and so are idle kept-alive connections and large
WebSocket messages; ordinary requests on kept-alive connections are served."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from roses.server.accounts.users import SESSION_COOKIE

from .live_server import LiveServer

HEADER_TIMEOUT = 1.0
KEEP_ALIVE = 1


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("connections")
    server = LiveServer(f"sqlite:///{folder / 'roses.sqlite3'}", folder / "server.log")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ROSES_HEADER_TIMEOUT_SECONDS", str(HEADER_TIMEOUT))
        patch.setenv("ROSES_KEEP_ALIVE_SECONDS", str(KEEP_ALIVE))
        server.start()
    try:
        yield server
    finally:
        server.stop()


def _connect(server: LiveServer) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    connection.settimeout(0.2)
    return connection


def _answer(connection: socket.socket) -> bytes:
    """What the server sent, once it closes the connection (or 5 s pass)."""
    received = b""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            chunk = connection.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            break
        if not chunk:
            break
        received += chunk
    return received


def test_headers_trickling_in_are_cut_off(live: LiveServer) -> None:
    with _connect(live) as connection:
        connection.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        start = time.monotonic()
        closed = False
        while time.monotonic() - start < 4 * HEADER_TIMEOUT:
            try:
                connection.sendall(b"X-Slow: 1\r\n")  # never the blank line that ends them
                if connection.recv(65536).startswith(b"HTTP/1.1 408"):
                    closed = True
                    break
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
        assert closed, "the connection was held open"
        assert time.monotonic() - start < 2 * HEADER_TIMEOUT + 1


def test_endless_headers_are_refused(live: LiveServer) -> None:
    with _connect(live) as connection:
        connection.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        try:
            for _ in range(64):
                connection.sendall(b"X-Big: " + b"y" * 1024 + b"\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert _answer(connection).startswith(b"HTTP/1.1 431 ")


def test_kept_alive_connections_serve_one_request_after_another(live: LiveServer) -> None:
    request = b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with _connect(live) as connection:
        for _ in range(3):
            connection.sendall(request)
            time.sleep(HEADER_TIMEOUT * 0.6)  # together longer than the header deadline
            assert connection.recv(65536).startswith(b"HTTP/1.1 200 ")


def test_idle_kept_alive_connections_are_closed(live: LiveServer) -> None:
    with _connect(live) as connection:
        connection.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        start = time.monotonic()
        answer = _answer(connection)  # returns once the server closes the connection
        assert answer.startswith(b"HTTP/1.1 200 ")
        assert time.monotonic() - start < KEEP_ALIVE + 2


def test_large_websocket_messages_close_the_socket(live: LiveServer) -> None:
    signed_in = httpx.post(f"{live.url}/api/accounts/guest", timeout=10)
    assert signed_in.status_code == 201, signed_in.text
    cookie = f"{SESSION_COOKIE}={signed_in.cookies[SESSION_COOKIE]}"
    url = f"ws://127.0.0.1:{live.port}/api/lobby/ws"
    with connect(url, additional_headers={"cookie": cookie}, open_timeout=10) as socket:
        socket.recv(timeout=10)  # the hello
        socket.send("x" * (64 * 1024 + 1))
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1009  # "message too big"
