"""kill -9 of the real server (``roses serve``) right after its answers, on SQLite and
PostgreSQL: every acknowledged action of both games is there after a restart (Wars of the
Roses' sealed plans included, WR-10), and an action in flight when the process died is
either all there or not at all."""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from roses.games import JSON
from roses.server.db.engine import make_engine
from roses.server.db.models import ActionRow, Game
from roses.server.db.store import read_game
from roses.server.play.live_games import LiveGame

from .live_server import LiveServer

pytestmark = pytest.mark.timeout(60)

Acknowledged = list[tuple[int, JSON]]  # (seat, action) in the order the server answered


class Table:
    """A game of the real server, its players, and what it acknowledged."""

    def __init__(self, database: Engine, players: list[httpx.Client], invited: str,
                 game: str) -> None:  # fmt: skip
        self.database, self.players = database, players
        seats = [{"kind": "me"}, {"kind": "invite", "name": invited}]
        created = players[0].post("/api/games", json={"game": game, "seats": seats})
        assert created.status_code == 201, created.text
        self.id = int(created.json()["id"])
        assert players[1].post(f"/api/games/{self.id}/join").status_code == 200
        self.acknowledged: Acknowledged = []
        self.rng = random.Random(self.id)

    def truth(self) -> LiveGame:
        """The game as the database holds it, replayed (it fails on a half-applied action)."""
        with Session(self.database) as db:
            return LiveGame(read_game(db, self.id))

    def next_action(self, seat: int | None = None) -> tuple[int, JSON, int]:
        """A legal action of ``seat`` (the first seat to act if None) and its version."""
        live = self.truth()
        seat = live.to_act[0] if seat is None else seat
        module: Any = live.module  # both games have bots: a random legal action each
        choice = module.fallback_action(module.bot_input(live.state, seat), self.rng)
        return seat, module.action_json(choice), live.version

    def send(self, seat: int, action: JSON, version: int) -> httpx.Response:
        body = {"move": action, "version": version}
        return self.players[seat].post(f"/api/games/{self.id}/moves", json=body)

    def act(self, seat: int | None = None) -> None:
        """One action, acknowledged."""
        seat, action, version = self.next_action(seat)
        answer = self.send(seat, action, version)
        assert answer.status_code == 200, answer.text
        self.acknowledged.append((seat, action))

    def stored(self) -> Acknowledged:
        with self.database.connect() as connection:
            rows = connection.execute(
                select(ActionRow.seat, ActionRow.action)
                .where(ActionRow.game_id == self.id)
                .order_by(ActionRow.number)
            ).all()
        return [(seat, action) for seat, action in rows]

    def assert_kept(self, in_flight: tuple[int, JSON] | None = None) -> None:
        """Every acknowledged action is stored, in order; the one in flight is whole or absent;
        the server answers the same version the database holds."""
        stored = self.stored()
        assert stored[: len(self.acknowledged)] == self.acknowledged
        extra = stored[len(self.acknowledged) :]
        assert extra in ([], [in_flight] if in_flight else [])
        self.acknowledged += extra
        live = self.truth()
        assert live.actions == len(stored)
        view = self.players[0].get(f"/api/games/{self.id}")
        assert view.status_code == 200, view.text
        assert view.json()["version"] == live.version
        with self.database.connect() as connection:
            version = connection.execute(select(Game.version).where(Game.id == self.id)).scalar()
        assert version == live.version


def _sign_up(url: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=10)
    answer = client.post("/api/accounts/register", json={"name": name, "password": "secret-rose"})
    assert answer.status_code == 201, answer.text
    return client


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(database_url, tmp_path / "server.log", deals=tmp_path.name).start()
    try:
        yield live
    finally:
        live.stop()


def _restart(server: LiveServer) -> None:
    server.kill()
    server.start()


def _kill_in_flight(server: LiveServer, table: Table) -> tuple[int, JSON]:
    """Send an action and kill -9 the server while it may be writing it."""
    seat, action, version = table.next_action()
    sending = threading.Thread(target=_send_quietly, args=(table, seat, action, version))
    sending.start()
    time.sleep(table.rng.uniform(0, 0.01))
    server.kill()
    sending.join()
    server.start()
    return seat, action


def _send_quietly(table: Table, seat: int, action: JSON, version: int) -> None:
    with contextlib.suppress(httpx.HTTPError):  # the server died first: not acknowledged
        table.send(seat, action, version)


def test_kill_9_keeps_every_acknowledged_action_of_both_games(
    server: LiveServer, database_url: str, tmp_path: Path
) -> None:
    database = make_engine(database_url)
    suffix = tmp_path.name[-6:].replace("_", "")
    names = [f"red{suffix}", f"white{suffix}"]
    players = [_sign_up(server.url, name) for name in names]
    rose_king = Table(database, players, names[1], "roseking")
    wotr = Table(database, players, names[1], "wotr")
    try:
        for _ in range(4):
            rose_king.act()
        while wotr.truth().state.phase.value != "planning":  # WR-10: plans are made at once
            wotr.act()
        _restart(server)  # right after the acknowledgements
        rose_king.assert_kept()
        wotr.assert_kept()
        wotr.act(seat=0)  # the first plan sealed (hidden from the other seat)
        _restart(server)
        wotr.assert_kept()
        assert wotr.truth().to_act == (1,)  # sealed still: only the other seat plans
        wotr.act(seat=1)  # the second: the plans are revealed and carried out
        rose_king.act()
        rose_king.assert_kept(in_flight=_kill_in_flight(server, rose_king))
        wotr.assert_kept()  # the second plan, acknowledged just before the kill
        wotr.assert_kept(in_flight=_kill_in_flight(server, wotr))
    finally:
        for player in players:
            player.close()
        database.dispose()
