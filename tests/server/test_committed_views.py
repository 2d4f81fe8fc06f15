"""Views are built from committed versions only: while an action waits for its commit,
nobody (a spectator included) sees it, and an action whose commit fails was never seen."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.server.db.store import Change
from roses.server.errors import Conflict
from roses.server.services import services_of

from .conftest import opening, sign_up, two_player_game


class HeldCommits:
    """The commit queue's ``write`` held until the test lets it go, then passed or failed."""

    def __init__(self, write: Callable[[Change], Any]) -> None:
        self._write = write
        self.entered = threading.Event()
        self.release = threading.Event()
        self.fail = False

    async def write(self, change: Change) -> None:
        self.entered.set()
        await asyncio.to_thread(self.release.wait, 10)
        if self.fail:
            raise Conflict("the disk is full")
        await self._write(change)


@pytest.mark.parametrize("commit_fails", [False, True], ids=["slow", "failing"])
def test_a_reader_never_sees_an_action_before_its_commit(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, commit_fails: bool
) -> None:
    red, white, spectator = sign_up(client), sign_up(client), sign_up(client, "s")
    game = two_player_game(red, white)
    before = spectator.game(game["id"])
    commits = services_of(client.app).games._commits  # type: ignore[attr-defined]
    held = HeldCommits(commits.write)
    held.fail = commit_fails
    monkeypatch.setattr(commits, "write", held.write)
    move = opening(client, game)
    with ThreadPoolExecutor(2) as pool:
        acting: Future[Any] = pool.submit(
            red.post, f"/api/games/{game['id']}/moves", {"move": move, "version": game["version"]}
        )
        assert held.entered.wait(10), "the move never reached its commit"
        reading: Future[Any] = pool.submit(spectator.get, f"/api/games/{game['id']}")
        # The reader waits for the commit rather than read the state it would change.
        with pytest.raises(TimeoutError):
            reading.result(timeout=0.3)
        held.release.set()
        acted, read = acting.result(timeout=10), reading.result(timeout=10)
    assert read.status_code == 200, read.text
    seen = read.json()
    if commit_fails:
        assert acted.status_code == 409, acted.text
        assert seen == before  # the move that never happened was never shown
    else:
        assert acted.status_code == 200, acted.text
        assert seen["version"] == before["version"] + 1
        assert seen["state"] != before["state"]
    assert spectator.game(game["id"]) == seen
