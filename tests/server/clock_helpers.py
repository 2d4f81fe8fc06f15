"""Helpers of the time-limit tests: games with a time limit, and moving the server's time
(``clocks.server_time``) instead of waiting."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.server.clocks.time_control import server_time
from roses.server.services import services_of

from .conftest import Player

LIVE_5_5 = {"kind": "live", "clock": "5+5"}


@pytest.fixture(autouse=True)
def real_time() -> Iterator[None]:
    """Every test starts and ends at the real time."""
    server_time.offset = timedelta()
    yield
    server_time.offset = timedelta()


def advance(seconds: float) -> None:
    server_time.advance(timedelta(seconds=seconds))


def sweep(client: TestClient) -> None:
    """What the server's periodic check does, now (its timers run on real time)."""
    client.portal.call(services_of(client.app).timeouts.sweep)  # type: ignore[attr-defined,union-attr]


def timed_game(
    players: list[Player], time_limit: dict[str, Any], game: str = "roseking", **extra: Any
) -> dict[str, Any]:
    """A started game: the first player creates it and invites the others, who join."""
    seats = [{"kind": "me"}] + [{"kind": "invite", "name": p.name} for p in players[1:]]
    body = {"game": game, "players": len(players), "seats": seats, "time_limit": time_limit}
    created = players[0].post("/api/games", {**body, **extra})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    view = created.json()
    for player in players[1:]:
        joined = player.post(f"/api/games/{game_id}/join")
        assert joined.status_code == 200, joined.text
        view = joined.json()
    return dict(view)


def moment(text: str) -> datetime:
    return datetime.fromisoformat(text)


def remaining(view: dict[str, Any], seat: int) -> int:
    return int(view["clock"]["remaining_ms"][seat])


def mover(view: dict[str, Any]) -> int:
    return int(view["to_act"][0])
