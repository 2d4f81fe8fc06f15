"""Two server processes on one PostgreSQL database and one Redis run a Swiss together:
both step the tournament many times a second, and one is killed (kill -9) right as the
second round is due to start and started again; every round starts exactly once, each of its
tables has exactly one game, and no game is started twice or lost."""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, func, select

from roses.server.db.models import Game, User
from roses.server.tournaments.log import RoundStarted, event_from_json
from roses.server.tournaments.store import TournamentEvent, TournamentGame

from .live_server import LiveServer

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(240)]


@pytest.fixture
def two_servers(postgres_url: str, redis_url: str, tmp_path: Path) -> Iterator[list[LiveServer]]:
    env = {
        "ROSES_REDIS_URL": redis_url,
        "ROSES_REDIS_CHANNEL": f"roses-test-{uuid.uuid4().hex}",
        "ROSES_TOURNAMENT_CHECK_SECONDS": "0.02",  # both race for every step
    }
    servers = [
        LiveServer(postgres_url, tmp_path / f"server{n}.log", env, deals=tmp_path.name)
        for n in (1, 2)
    ]
    for server in servers:
        server.start()
    try:
        yield servers
    finally:
        for server in servers:
            server.stop()


def _sign_up(url: str) -> tuple[str, httpx.Client]:
    name = f"t-{uuid.uuid4().hex[:8]}"
    client = httpx.Client(base_url=url, timeout=20)
    answer = client.post("/api/accounts/register", json={"name": name, "password": "secret-rose"})
    assert answer.status_code == 201, answer.text
    return name, client


def _view(client: httpx.Client, tournament_id: int) -> dict[str, Any]:
    answer = client.get(f"/api/tournaments/{tournament_id}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _wait(client: httpx.Client, tournament_id: int, done: Any) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            view = _view(client, tournament_id)
        except httpx.HTTPError:  # this server is being restarted
            time.sleep(0.1)
            continue
        if done(view):
            return view
        time.sleep(0.05)
    raise AssertionError("the tournament did not move on")


def test_two_processes_start_every_round_exactly_once_through_a_kill_9(
    two_servers: list[LiveServer], postgres_url: str
) -> None:
    rng = random.Random(36)
    first, second = two_servers
    people = dict(_sign_up(server.url) for server in (first, second, first, second, first, second))
    organiser = next(iter(people.values()))
    body = {
        "name": "Two processes",
        "format": "swiss",
        "game": "roseking",
        "time_limit": {"kind": "live", "clock": "5+5"},
        "rounds": 3,
        "starts_at": (datetime.now(UTC) + timedelta(hours=1)).isoformat(),
    }
    made = organiser.post("/api/tournaments", json=body)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    for client in people.values():
        assert client.post(f"/api/tournaments/{tid}/join").status_code == 200
    engine = create_engine(postgres_url)
    with engine.begin() as connection:  # due now: both processes race to start round 1
        connection.exec_driver_sql(
            "UPDATE tournaments SET starts_at = now() - interval '1 second' WHERE id = %s",
            (tid,),
        )
    for round_ in (1, 2, 3):
        view = _wait(organiser, tid, lambda v, r=round_: v["round"] == r)
        names = {entrant["player"]: entrant["name"] for entrant in view["entrants"]}
        for table in view["pairings"][round_ - 1]["tables"]:
            resigning = people[names[table["seats"][0]]]
            answer = resigning.post(f"/api/games/{table['game_id']}/resign")
            assert answer.status_code == 200, answer.text
        if round_ == 1:  # round 2 is due now: kill one process while both step
            time.sleep(rng.uniform(0, 0.05))
            first.kill()
            first.start()
    final = _wait(people[list(people)[1]], tid, lambda v: v["status"] == "finished")
    assert sum(row["games"] for row in final["standings"]) == 3 * 6

    with engine.connect() as connection:
        rows = connection.execute(
            select(TournamentEvent.data).where(
                TournamentEvent.tournament_id == tid, TournamentEvent.round.is_not(None)
            )
        ).all()
        rounds = [event_from_json(row.data) for row in rows]
        links = connection.execute(
            select(TournamentGame.round, func.count())
            .where(TournamentGame.tournament_id == tid)
            .group_by(TournamentGame.round)
        ).all()
        games = connection.execute(
            select(func.count())
            .select_from(Game)
            .join(User, User.id == Game.created_by)
            .where(User.name == next(iter(people)))
        ).scalar()
    engine.dispose()
    assert sorted(event.round for event in rounds if isinstance(event, RoundStarted)) == [1, 2, 3]
    tables = {event.round: len(event.tables) for event in rounds if isinstance(event, RoundStarted)}
    assert dict(links) == tables == {1: 3, 2: 3, 3: 3}
    assert games == 9  # the organiser's games are these and no others: none started twice
