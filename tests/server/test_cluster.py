"""Past one machine: three `roses serve` processes behind HAProxy (``roses cluster``) on a
fresh PostgreSQL database and Redis. Each game's requests and sockets reach its owner,
lobbies sit on any process, kill -9 of an owner mid-game loses nothing acknowledged and its
games go on elsewhere; a request that reaches a non-owner directly takes the game over."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import WebSocketException
from websockets.sync.client import ClientConnection, connect

from roses.cli.cluster import Cluster, served_by
from roses.server.accounts.users import SESSION_COOKIE
from roses.server.db import store
from roses.server.db.engine import make_engine, session_factory

from .conftest import fresh_postgres_database, unique_name

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(120)]

GAMES = 3
RETRY_SECONDS = 20  # HAProxy marks a dead process down in ~1 s, its heartbeat lapses in 2


@pytest.fixture
def cluster(tmp_path: Path, redis_url: str) -> Iterator[Cluster]:
    if shutil.which("haproxy") is None:
        pytest.skip("HAProxy is not installed (scripts/system-deps.sh installs it)")
    with fresh_postgres_database() as database_url:
        env = {
            "ROSES_OWNER_SECONDS": "2",
            "ROSES_MOVE_BURST": "1000000",
            "ROSES_REGISTRATIONS_PER_ADDRESS": "1000/hour",
            "ROSES_BOT_WORKERS": "1",
            "ROSES_ANALYSIS_WORKERS": "1",
        }
        running = Cluster(3, database_url, redis_url, tmp_path / "cluster", env=env)
        running.start()
        try:
            yield running
        finally:
            running.stop()


class Person:
    def __init__(self, cluster: Cluster, sockets: ExitStack) -> None:
        self.cluster = cluster
        self.sockets = sockets  # closes them all at the end
        self.name = unique_name("c")
        self.http = httpx.Client(base_url=cluster.url, timeout=10, trust_env=False)
        answer = self.http.post(
            "/api/accounts/register", json={"name": self.name, "password": "secret-rose"}
        )
        assert answer.status_code == 201, answer.text
        self.token = answer.cookies[SESSION_COOKIE]
        self.http.cookies.clear()
        self.headers = {"cookie": f"{SESSION_COOKIE}={self.token}"}
        self.resent = False  # the last request was sent again: the first may have been done

    def request(self, method: str, path: str, body: Any = None, base: str | None = None) -> Any:
        """One request through the balancer (or to ``base``), retried while the cluster
        heals (no answer at all, 502/503): nothing is done by a request refused so."""
        deadline = time.monotonic() + RETRY_SECONDS
        self.resent = False
        while True:
            try:
                answer = self.http.request(
                    method, (base or "") + path, json=body, headers=self.headers
                )
                if answer.status_code not in (502, 503):
                    return answer
                self.resent |= answer.status_code == 502  # the process died on it
            except httpx.TransportError:
                self.resent = True
            assert time.monotonic() < deadline, f"{method} {path} got no answer"
            time.sleep(0.1)

    def socket(self, path: str) -> ClientConnection:
        url = self.cluster.url.replace("http", "ws", 1) + path
        deadline = time.monotonic() + RETRY_SECONDS
        while True:
            try:
                opened = connect(
                    url, additional_headers=self.headers, open_timeout=5, close_timeout=1
                )
                return self.sockets.enter_context(opened)
            except (OSError, WebSocketException):
                assert time.monotonic() < deadline, f"no socket at {path}"
                time.sleep(0.1)


def process_of(socket: ClientConnection) -> str:
    assert socket.response is not None
    name = socket.response.headers.get("x-roses-process")
    assert name is not None
    return str(name)


def messages_until(socket: ClientConnection, wanted: Any, seconds: float = 10) -> list[Any]:
    """What the socket received until a message ``wanted`` accepts."""
    got: list[Any] = []
    deadline = time.monotonic() + seconds
    while True:
        message = json.loads(socket.recv(timeout=max(0.01, deadline - time.monotonic())))
        got.append(message)
        if wanted(message):
            return got


class Table:
    """One game between two people, as played through the balancer."""

    def __init__(self, red: Person, white: Person) -> None:
        self.people = (red, white)
        created = red.request(
            "POST",
            "/api/games",
            {"seats": [{"kind": "me"}, {"kind": "invite", "name": white.name}], "options": {}},
        )
        assert created.status_code == 201, created.text
        self.id = created.json()["id"]
        joined = white.request("POST", f"/api/games/{self.id}/join")
        assert joined.status_code == 200, joined.text
        self.acked: list[tuple[int, str]] = []  # (seat, move) of every move answered 200
        self.served: list[str] = []  # the process that answered each of the game's requests
        self.unanswered = 0  # moves whose answer was lost with a killed process

    def moves(self, count: int) -> None:
        """``count`` acknowledged moves, however many answers get lost on the way."""
        for _ in range(count):
            while self.move() is None:
                pass

    def check_stored(self, database_url: str) -> None:
        """Every acknowledged move is in the database, once and in order; beside them only
        moves whose answer was lost."""
        stored = self.stored(database_url)
        assert len(stored) - len(self.acked) <= self.unanswered, (stored, self.acked)
        rest = iter(stored)
        assert all(move in rest for move in self.acked), (stored, self.acked)

    def view(self, person: Person) -> dict[str, Any]:
        answer = person.request("GET", f"/api/games/{self.id}")
        assert answer.status_code == 200, answer.text
        self.served.append(str(served_by(answer)))
        return dict(answer.json())

    def move(self, base: str | None = None) -> str | None:
        """The player to move makes their first legal move; the process that answered
        (None: the answer was lost with a process, and the move sent again was refused as
        made already, or not: it may or may not have been made)."""
        for person in self.people:
            view = self.view(person)
            if view["can_act"]:
                move = view["state"]["legal_moves"][0]
                body = {"move": move, "version": view["version"]}
                answer = person.request("POST", f"/api/games/{self.id}/moves", body, base)
                if answer.status_code == 409 and person.resent:
                    self.unanswered += 1
                    return None
                assert answer.status_code == 200, answer.text
                self.acked.append((view["you"], move))
                process = str(served_by(answer))
                if base is None:
                    self.served.append(process)
                return process
        raise AssertionError(f"nobody may act in game {self.id}")

    def stored(self, database_url: str) -> list[tuple[int, str]]:
        engine = make_engine(database_url)
        try:
            with session_factory(engine)() as db:
                return [(row.seat, row.action) for row in store.read_game(db, self.id).actions]
        finally:
            engine.dispose()


def test_games_go_to_their_owner_and_survive_a_kill_9(cluster: Cluster) -> None:
    with ExitStack() as sockets:
        play_and_kill(cluster, [Person(cluster, sockets) for _ in range(2 * GAMES)])


def play_and_kill(cluster: Cluster, people: list[Person]) -> None:
    # Every lobby through the balancer: they spread over the processes (least connections).
    lobbies = [person.socket("/api/lobby/ws") for person in people]
    lobby_processes = [process_of(lobby) for lobby in lobbies]
    assert len(set(lobby_processes)) == 3, lobby_processes
    for lobby in lobbies:
        messages_until(lobby, lambda m: m["type"] == "hello")
    tables = [Table(people[2 * i], people[2 * i + 1]) for i in range(GAMES)]

    # Each game's sockets and requests reach one process: its owner.
    sockets = {t.id: [p.socket(f"/api/games/{t.id}/ws") for p in t.people] for t in tables}
    owners = {}
    for table in tables:
        (owner,) = {process_of(s) for s in sockets[table.id]}
        owners[table.id] = owner
        for _ in range(4):
            table.move()
        assert set(table.served) == {owner}, (owner, table.served)
    # A player whose lobby sits on another process than the game's owner heard of the moves
    # there (through Redis), and the game's sockets had every version.
    elsewhere = [
        (table, person, lobbies[people.index(person)])
        for table in tables
        for person in table.people
        if lobby_processes[people.index(person)] != owners[table.id]
    ]
    assert elsewhere
    for table, _person, lobby in elsewhere:
        messages_until(lobby, lambda m, t=table: m == {"type": "lobby", "game_id": t.id})
    for table in tables:
        version = table.view(table.people[0])["version"]
        for socket in sockets[table.id]:
            messages_until(socket, lambda m, v=version: m.get("version") == v)

    # kill -9 of the process that owns the first game while every game is being played.
    for table in tables:
        for socket in sockets[table.id]:
            socket.close()
    victim = owners[tables[0].id]
    survivors = {m.name for m in cluster.members} - {victim}
    with ThreadPoolExecutor(len(tables)) as players:
        playing = [players.submit(table.moves, 6) for table in tables]
        time.sleep(0.3)
        cluster.kill(victim)
        for done in playing:
            done.result(timeout=90)
    for table in tables:
        before = len(table.served)
        table.moves(2)  # the games go on
        after = set(table.served[before:])
        assert len(after) == 1 and after <= survivors, (victim, after)
        if owners[table.id] != victim:
            assert after == {owners[table.id]}  # a survivor's games stay where they were
        owners[table.id] = after.pop()
        # Nothing acknowledged was lost, nothing was applied twice.
        table.check_stored(cluster.database_url)

    # A page reconnecting through the balancer with its last version lands on the new
    # owner and catches up from there.
    moved = tables[0]
    red = moved.people[0]
    with red.socket(f"/api/games/{moved.id}/ws?version=1") as socket:
        assert process_of(socket) == owners[moved.id]
        (view,) = messages_until(socket, lambda m: m["type"] == "game")
        assert view["version"] == moved.view(red)["version"]

    # A move sent straight to a process that does not own the game takes the game over
    # (the owner lets go of it) and is answered there; the balancer's next request takes it
    # back to the process the game's id hashes to. Each was applied once, in order.
    owner = owners[moved.id]
    other = next(iter(survivors - {owner}))
    assert moved.move(base=cluster.member(other).url) == other
    assert moved.move() == owner
    moved.check_stored(cluster.database_url)
