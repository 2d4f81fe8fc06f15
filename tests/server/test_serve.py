"""``roses serve``: the real server process; kill -9 loses no accepted move."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .live_server import LiveServer


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(database_url, tmp_path / "server.log").start()
    try:
        yield live
    finally:
        live.stop()


def _sign_up(url: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=10)
    response = client.post("/api/accounts/register", json={"name": name, "password": "secret-rose"})
    assert response.status_code == 201, response.text
    return client


def test_kill_9_mid_game_loses_no_accepted_move(server: LiveServer, tmp_path: Path) -> None:
    suffix = tmp_path.name[-6:].replace("_", "")
    red, white = _sign_up(server.url, f"red{suffix}"), _sign_up(server.url, f"white{suffix}")
    seats = [{"kind": "me"}, {"kind": "invite", "name": f"white{suffix}"}]
    game = red.post("/api/games", json={"seats": seats}).json()
    joined = white.post(f"/api/games/{game['id']}/join")
    assert joined.status_code == 200, joined.text
    players = [red, white]
    for _ in range(6):
        view = red.get(f"/api/games/{game['id']}").json()
        mover = players[0 if view["turn"] == "Red" else 1]
        view = mover.get(f"/api/games/{game['id']}").json()
        answer = mover.post(
            f"/api/games/{game['id']}/moves",
            json={"move": view["state"]["legal_moves"][0], "version": view["version"]},
        )
        assert answer.status_code == 200, answer.text
    before = red.get(f"/api/games/{game['id']}").json()
    server.kill()
    server.start()
    after = red.get(f"/api/games/{game['id']}").json()  # the session survived too
    assert after == before
    assert len(after["log"]) >= 6


def test_serve_refuses_a_bad_database_url_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "roses", "serve", "--database-url", "nonsense"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: --database-url:")
    assert "Traceback" not in done.stderr


def test_serve_refuses_a_data_directory_it_cannot_make(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    done = subprocess.run(
        [sys.executable, "-m", "roses", "serve"],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "ROSES_DATA_DIR": str(blocker / "data")},
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: cannot create the data directory")
    assert "Traceback" not in done.stderr
