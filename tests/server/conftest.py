"""Fixtures: the app on SQLite (a file per test) and on PostgreSQL (a database per run)."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from roses.roseking import PASS_MOVE, Board
from roses.server import Settings, create_app
from roses.server.accounts import quotas
from roses.server.accounts.users import SESSION_COOKIE
from roses.server.db.engine import make_engine
from roses.server.db.migrate import upgrade
from roses.server.db.models import Game
from roses.server.db.store import read_game
from roses.server.lobby import creating
from roses.server.play.live_games import LiveGame
from roses.server.services import services_of

from .seeded_roses import seeded_deals

POSTGRES_URL = os.environ.get(
    "ROSES_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


@pytest.fixture(autouse=True)
def reproducible_deals(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test deals the same games on every run, so a failure can be replayed. A test
    that plays random moves on a random deal would otherwise fail now and then: about one
    Rose King deal in 3,000 ends at ply 8 to 10, both hands full and stuck (RK-13)."""
    monkeypatch.setattr(creating, "deal_seed", seeded_deals(request.node.nodeid))


MEASURED_TAKE = quotas.MoveRate.take  # for the tests of the move rate itself


@pytest.fixture(autouse=True)
def moves_at_machine_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests play whole games in a blink, far past a person's move rate (``quotas.MoveRate``);
    the tests of that limit set it again."""
    monkeypatch.setattr(quotas.MoveRate, "take", lambda self, user_id: True)


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """A new, empty PostgreSQL database's URL, dropped afterwards (skips without a server)."""
    admin_url = make_url(POSTGRES_URL)
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    name = f"roses_test_{uuid.uuid4().hex[:12]}"
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except OperationalError as error:
        admin.dispose()
        pytest.skip(f"PostgreSQL at {POSTGRES_URL} is not reachable: {error.orig}")
    try:
        yield admin_url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh database for this test run (and xdist worker), dropped at the end."""
    with fresh_postgres_database() as url:
        yield url


REDIS_URL = os.environ.get("ROSES_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
def redis_url() -> str:
    try:
        redis.Redis.from_url(REDIS_URL).ping()
    except redis.RedisError as error:
        pytest.skip(f"Redis at {REDIS_URL} is not reachable: {error}")
    return REDIS_URL


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite database migrated once for the run: each test's starts as a copy of it."""
    path = tmp_path_factory.mktemp("migrated") / "roses.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    engine.dispose()
    return path


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database at the newest schema (``sqlite_url``: one with no schema)."""
    if request.param == "sqlite":
        shutil.copyfile(request.getfixturevalue("migrated_sqlite"), tmp_path / "roses.sqlite3")
        return f"sqlite:///{tmp_path / 'roses.sqlite3'}"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'roses.sqlite3'}"


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=database_url, bot_margin_seconds=5.0))
    with TestClient(app) as test_client:
        yield test_client


class Player:
    """One signed-in person; several share a ``TestClient`` (and so its event loop)."""

    def __init__(self, client: TestClient, name: str, token: str) -> None:
        self.client = client
        self.name = name
        self.token = token
        self.headers = {"cookie": f"{SESSION_COOKIE}={token}"}

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self.headers)

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.client.post(path, json=body or {}, headers=self.headers)

    def websocket(self, path: str) -> Any:
        return self.client.websocket_connect(path, headers=self.headers)

    def game(self, game_id: int) -> dict[str, Any]:
        response = self.get(f"/api/games/{game_id}")
        assert response.status_code == 200, response.text
        return dict(response.json())


def unique_name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def sign_up(client: TestClient, prefix: str = "p") -> Player:
    name = unique_name(prefix)
    response = client.post("/api/accounts/register", json={"name": name, "password": "secret-rose"})
    assert response.status_code == 201, response.text
    token = response.cookies[SESSION_COOKIE]
    client.cookies.clear()
    return Player(client, name, token)


def sign_in(client: TestClient, name: str, password: str = "secret-rose") -> Player:
    response = client.post("/api/accounts/login", json={"name": name, "password": password})
    assert response.status_code == 200, response.text
    token = response.cookies[SESSION_COOKIE]
    client.cookies.clear()
    return Player(client, name, token)


def two_player_game(red: Player, white: Player, **options: Any) -> dict[str, Any]:
    """A started game: ``red`` creates it and invites ``white``, who joins."""
    body = {"seats": [{"kind": "me"}, {"kind": "invite", "name": white.name}], "options": options}
    created = red.post("/api/games", body)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    joined = white.post(f"/api/games/{game_id}/join")
    assert joined.status_code == 200, joined.text
    return dict(joined.json())


def act(player: Player, game: dict[str, Any], move: str) -> dict[str, Any]:
    response = player.post(
        f"/api/games/{game['id']}/moves", {"move": move, "version": game["version"]}
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def true_board(client: TestClient, game_id: int) -> Board:
    """The whole truth of a Rose King game, read from the database (god's view)."""
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        board: Board = LiveGame(read_game(db, game_id)).state.board
    return board


def opening(client: TestClient, game: dict[str, Any]) -> str:
    """A first move for Red that leaves White a move: on a rare deal Red's first listed
    move forces White to pass (RK-11), and the turn comes straight back to Red."""
    board = true_board(client, game["id"])
    for move in board.legal_moves():
        after = board.copy()
        after.push(move)
        if after.legal_moves() != (PASS_MOVE,):
            return str(move)
    raise AssertionError("every first move of this deal forces White to pass")


def start_from(client: TestClient, game_id: int, board: Board) -> None:
    """Let a started game go on from ``board`` (a test's prepared deal)."""
    app = client.app
    with services_of(app).sessions.begin() as db:  # type: ignore[attr-defined]
        game = db.get(Game, game_id)
        assert game is not None and game.version > 0
        game.deal = {**game.deal, "position": board.position()}
        game.to_act = [board.turn]
    services_of(app).games.evict(game_id)  # type: ignore[attr-defined]  # the server reads it again
