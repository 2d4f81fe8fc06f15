"""Group commit: actions of many games in one transaction, each acknowledged only once
committed, and a conflict in a batch fails only its own action."""

from __future__ import annotations

import asyncio
import threading

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from roses.server.db.models import ActionRow, Game, utcnow
from roses.server.db.store import Change
from roses.server.errors import Conflict
from roses.server.play import commits
from roses.server.play.commits import CommitQueue
from roses.server.services import services_of

from .conftest import sign_up, two_player_game


def _change(game: dict[str, object], based_on: int, move: str) -> Change:
    return Change(
        game_id=int(game["id"]),  # type: ignore[call-overload]
        based_on=based_on,
        number=0,
        seat=0,
        action=move,
        to_act=[1],
        turn_since=utcnow(),
        status="active",
        result=None,
    )


def test_a_batch_commits_all_but_the_action_that_conflicts(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    games = [two_player_game(red, white) for _ in range(5)]
    stale = games[2]
    changes = [
        _change(game, game["version"] - (game is stale), game["state"]["legal_moves"][0])
        for game in games
    ]
    sessions = services_of(client.app).sessions
    queue = CommitQueue(sessions.kw["bind"])

    async def write_all() -> list[BaseException | None]:
        outcomes = await asyncio.gather(
            *(queue.write(change) for change in changes), return_exceptions=True
        )
        return list(outcomes)

    outcomes = asyncio.run(write_all())
    assert [type(o) for o in outcomes] == [type(None)] * 2 + [Conflict] + [type(None)] * 2
    with sessions() as db:
        ids = [game["id"] for game in games]  # other tests share the PostgreSQL database
        logged = set(db.scalars(select(ActionRow.game_id).where(ActionRow.game_id.in_(ids))))
        versions = {g.id: g.version for g in db.scalars(select(Game))}
    assert logged == {game["id"] for game in games if game is not stale}
    for game in games:
        assert versions[game["id"]] == game["version"] + (game is not stale)


def test_an_acknowledged_action_is_in_the_database(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    queue = CommitQueue(services_of(client.app).sessions.kw["bind"])  # type: ignore[attr-defined]
    asyncio.run(queue.write(_change(game, game["version"], game["state"]["legal_moves"][0])))
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        assert db.scalar(select(Game.version).where(Game.id == game["id"])) == game["version"] + 1
    with pytest.raises(Conflict):  # the same version twice: the second is refused
        asyncio.run(queue.write(_change(game, game["version"], "draw")))


def test_the_writer_thread_ends_when_idle_and_comes_back(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(commits, "IDLE_SECONDS", 2.0)
    red, white = sign_up(client), sign_up(client)
    games = [two_player_game(red, white) for _ in range(2)]
    queue = CommitQueue(services_of(client.app).sessions.kw["bind"])  # type: ignore[attr-defined]

    def writers() -> set[threading.Thread]:
        return {t for t in threading.enumerate() if t.name == "roses-commits" and t.is_alive()}

    for game in games:  # the second write starts the thread again
        others = writers()  # other queues' writers (the app's own, say)
        asyncio.run(queue.write(_change(game, game["version"], game["state"]["legal_moves"][0])))
        (mine,) = writers() - others  # its own thread wrote it, and waits for more
        mine.join(timeout=10)
        assert not mine.is_alive(), "the writer thread outlived its idle time"
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        for game in games:
            version = db.scalar(select(Game.version).where(Game.id == game["id"]))
            assert version == game["version"] + 1
