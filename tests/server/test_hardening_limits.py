"""Header and body limits of the real ``roses serve`` (issue 38), each judged on one request
alone and tested on both sides of its edge, sent in one read and trickled in: a request just
inside a limit is carried out and answered 2xx, one just beyond it is refused and changes
nothing; so is one whose body does not arrive in time."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import cast

import httpx
import pytest
from fastapi.testclient import TestClient

from roses.server.settings import Settings

from .conftest import Player, sign_up, two_player_game
from .live_server import LiveServer

pytestmark = pytest.mark.timeout(120)

MAX_BODY = Settings.model_fields["max_body_bytes"].default
MAX_HEADERS = Settings.model_fields["max_header_bytes"].default
BODY_TIMEOUT = 1.0


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("limits")
    env = {"ROSES_BODY_TIMEOUT_SECONDS": str(BODY_TIMEOUT)}
    env["ROSES_CHAT_MESSAGES_PER_ACCOUNT"] = "1000/minute"
    server = LiveServer(f"sqlite:///{folder / 'roses.sqlite3'}", folder / "server.log", env)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def table(live: LiveServer) -> Iterator[tuple[Player, str]]:
    """A player and the chat of their game: each message stored is one request carried out."""
    with httpx.Client(base_url=live.url, timeout=10) as client:
        red, white = sign_up(cast(TestClient, client)), sign_up(cast(TestClient, client))
        game = two_player_game(red, white)
        yield red, f"/api/games/{game['id']}/chat"


def _chat_post(player: Player, path: str, text: str, body_bytes: int, header_bytes: int) -> bytes:
    """A chat message as raw bytes: its body padded with JSON whitespace to ``body_bytes``
    and its request line and headers padded to ``header_bytes``."""
    body = json.dumps({"text": text}).encode()
    body += b" " * (body_bytes - len(body))
    fields = [
        ("Host", "127.0.0.1"),
        ("Content-Type", "application/json"),
        ("Content-Length", str(len(body))),
        ("Cookie", player.headers["cookie"]),
    ]
    head = f"POST {path} HTTP/1.1\r\n" + "".join(f"{n}: {v}\r\n" for n, v in fields)
    padding = header_bytes - len(head) - len("\r\n") - len("X-Pad: \r\n")
    if padding >= 0:
        head += f"X-Pad: {'p' * padding}\r\n"
    head += "\r\n"
    assert padding < 0 or len(head) == header_bytes
    return head.encode() + body


def _send(connection: socket.socket, request: bytes, pieces: int, seconds: float) -> None:
    """``request`` in one write, or in ``pieces`` writes spread over ``seconds``."""
    step = -(-len(request) // pieces)
    try:
        for start in range(0, len(request), step):
            connection.sendall(request[start : start + step])
            if pieces > 1:
                time.sleep(seconds / pieces)
    except (BrokenPipeError, ConnectionResetError):
        pass  # refused before the whole request was sent: the answer says why


def _answers(connection: socket.socket, count: int) -> list[int]:
    """The statuses of the next ``count`` answers, fewer if the server closes first."""
    received, statuses = b"", list[int]()
    connection.settimeout(10)
    while len(statuses) < count:
        head_end = received.find(b"\r\n\r\n")
        if head_end >= 0:
            head = received[:head_end].decode("latin-1").lower()
            length = int(head.split("content-length:")[1].split("\r\n")[0])
            if len(received) >= head_end + 4 + length:
                statuses.append(int(head.split()[1]))
                received = received[head_end + 4 + length :]
                continue
        try:
            chunk = connection.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        received += chunk
    return statuses


def _exchange(live: LiveServer, requests: list[bytes], pieces: int = 1) -> list[int]:
    """The requests sent on one connection, in one write (or trickled), and their statuses."""
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as connection:
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        _send(connection, b"".join(requests), pieces, BODY_TIMEOUT / 2)
        return _answers(connection, len(requests))


def _stored(player: Player, path: str) -> list[str]:
    return [message["text"] for message in player.get(path).json()["messages"]]


def _unique(label: str) -> str:
    return f"{label}-{time.monotonic_ns()}"


@pytest.mark.parametrize("pieces", [1, 8], ids=["one-read", "trickled"])
@pytest.mark.parametrize(
    ("body_bytes", "header_bytes", "status"),
    [
        (MAX_BODY, 0, 201),
        (MAX_BODY + 1, 0, 413),
        (0, MAX_HEADERS, 201),
        (0, MAX_HEADERS + 1, 431),
        (MAX_BODY, MAX_HEADERS, 201),
    ],
    ids=["body-at-limit", "body-over", "headers-at-limit", "headers-over", "both-at-limit"],
)
def test_a_request_at_a_limit_is_carried_out_and_one_beyond_changes_nothing(
    live: LiveServer,
    table: tuple[Player, str],
    body_bytes: int,
    header_bytes: int,
    status: int,
    pieces: int,
) -> None:
    player, chat = table
    text = _unique("edge")
    request = _chat_post(player, chat, text, body_bytes, header_bytes)
    assert _exchange(live, [request], pieces) == [status]
    assert _stored(player, chat).count(text) == (1 if status == 201 else 0)


def test_requests_after_one_another_are_each_judged_alone(
    live: LiveServer, table: tuple[Player, str]
) -> None:
    """Two large requests in one write: neither's body counts against the other's headers."""
    player, chat = table
    texts = [_unique("first"), _unique("second")]
    requests = [_chat_post(player, chat, text, MAX_BODY, MAX_HEADERS) for text in texts]
    assert _exchange(live, requests) == [201, 201]
    stored = _stored(player, chat)
    assert [stored.count(text) for text in texts] == [1, 1]


def test_a_body_that_stops_arriving_is_refused_and_changes_nothing(
    live: LiveServer, table: tuple[Player, str]
) -> None:
    player, chat = table
    text = _unique("late")
    request = _chat_post(player, chat, text, 1000, 0)
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as connection:
        start = time.monotonic()
        connection.sendall(request[:-10])  # the last bytes of the body never come
        assert _answers(connection, 1) == [408]
        assert time.monotonic() - start < BODY_TIMEOUT + 2
        assert connection.recv(1) == b""  # and the connection is closed
    assert text not in _stored(player, chat)


def test_a_body_trickling_in_beyond_its_deadline_is_refused(
    live: LiveServer, table: tuple[Player, str]
) -> None:
    """A byte now and then keeps no request alive: the deadline is for the whole body."""
    player, chat = table
    text = _unique("trickle")
    request = _chat_post(player, chat, text, 1000, 0)
    body_start = request.index(b"\r\n\r\n") + 4
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as connection:
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        connection.sendall(request[:body_start])
        start = time.monotonic()
        _send(connection, request[body_start:], 40, 4 * BODY_TIMEOUT)
        assert _answers(connection, 1) == [408]
        assert time.monotonic() - start < 4 * BODY_TIMEOUT + 2
    assert text not in _stored(player, chat)


def _closing_answer(connection: socket.socket) -> tuple[int, dict[str, str]]:
    """The status and JSON body of the answer after which the server closes."""
    received = b""
    connection.settimeout(10)
    while chunk := connection.recv(65536):
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def test_refusals_are_sentences_in_the_readers_language(
    live: LiveServer, table: tuple[Player, str]
) -> None:
    player, chat = table
    request = _chat_post(player, chat, _unique("german"), 10, MAX_HEADERS + 1)
    request = request.replace(b"\r\n", b"\r\nAccept-Language: de\r\n", 1)
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as connection:
        connection.sendall(request)
        status, answer = _closing_answer(connection)
    assert status == 431
    assert answer["detail"] == (
        f"Die Kopfzeilen der Anfrage sind größer als {MAX_HEADERS} Bytes, das Höchstmaß."
    )
    request = _chat_post(player, chat, _unique("late"), 100, 0)
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as connection:
        connection.sendall(request[:-1])
        status, answer = _closing_answer(connection)
    assert status == 408
    assert answer["detail"] == (
        f"The request's body did not arrive within {BODY_TIMEOUT:g} seconds; nothing was done."
    )
