"""Game owners (``game_owners``, play/owners.py): of several server processes, only a
game's owner applies its moves and runs its bots; a move that reaches another process
takes the game over; the others tell their lobbies only. Two apps in this process on one
database and Redis (the three real processes behind HAProxy: test_cluster.py)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from redis.asyncio import Redis
from starlette.websockets import WebSocketDisconnect

from roses.cli.cluster import haproxy_config
from roses.server import Settings, create_app
from roses.server.play.owners import GameOwners
from roses.server.services import services_of

from .conftest import Player, act, opening, sign_up, two_player_game
from .test_bots import wait_for_my_turn

pytestmark = pytest.mark.timeout(60)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def two(database_url: str, redis_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    channel = f"roses-test-{uuid.uuid4().hex}"
    settings = [
        Settings(
            database_url=database_url,
            redis_url=redis_url,
            redis_channel=channel,
            game_owners=True,
            process_name=name,
            bot_workers=1,
        )
        for name in ("a", "b")
    ]
    with TestClient(create_app(settings[0])) as a, TestClient(create_app(settings[1])) as b:
        yield a, b


def owners(client: TestClient) -> GameOwners:
    found = services_of(client.app).games.owners
    assert isinstance(found, GameOwners)
    return found


def eventually(check: Callable[[], bool], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.02)


def test_only_the_owner_applies_a_move_and_a_move_elsewhere_takes_the_game_over(
    two: tuple[TestClient, TestClient],
) -> None:
    a, b = two
    red, white = sign_up(a), sign_up(a)
    game = two_player_game(red, white)
    white_at_b = Player(b, white.name, white.token)
    with white_at_b.websocket("/api/lobby/ws") as lobby, white.websocket(
        f"/api/games/{game['id']}/ws"
    ) as socket:  # fmt: skip
        assert lobby.receive_json()["type"] == "hello"
        assert socket.receive_json()["version"] == game["version"]  # the socket claimed it
        assert owners(a).owns(game["id"]) and not owners(b).owns(game["id"])
        assert white_at_b.game(game["id"])["version"] == game["version"]  # b reads it,
        assert services_of(b.app).games.cached(game["id"]) is None  # and does not keep it
        # a knows from b's presence that White's lobby is there: a sends b the move.
        people = services_of(a.app).games.cached(game["id"]).people()  # type: ignore[union-attr]
        eventually(lambda: bool(services_of(a.app).hub.processes_for(game["id"], people)))
        after = act(red, game, opening(a, game))
        assert socket.receive_json()["version"] == after["version"]
        assert lobby.receive_json() == {"type": "lobby", "game_id": game["id"]}
        assert services_of(b.app).games.cached(game["id"]) is None  # heard, not applied
        # White's move sent to b: b takes the game over, a lets go (its socket closes).
        moved = act(white_at_b, after, after["state"]["legal_moves"][0])
        assert moved["version"] == after["version"] + 1
        assert owners(b).owns(game["id"]) and not owners(a).owns(game["id"])
        with pytest.raises(WebSocketDisconnect):
            while True:
                socket.receive_json()
    # And back: a's next move goes through a again, from the database's version.
    again = act(red, moved, moved["state"]["legal_moves"][0])
    assert again["version"] == moved["version"] + 1
    assert owners(a).owns(game["id"]) and not owners(b).owns(game["id"])


def test_an_action_reaches_only_the_processes_that_hold_its_sockets_or_its_players(
    two: tuple[TestClient, TestClient], database_url: str, redis_url: str
) -> None:
    """The owner sends a move to the processes where the game's players have a page open,
    as their presence says; a process started later learns that presence by greeting the
    others; a process with nobody of the game never hears of its moves."""
    a, b = two
    red, white = sign_up(a), sign_up(a)
    game = two_player_game(red, white)
    white_at_b = Player(b, white.name, white.token)
    channel = services_of(a.app).settings.redis_channel
    later = Settings(database_url=database_url, redis_url=redis_url, redis_channel=channel,
                     game_owners=True, process_name="c", bot_workers=1)  # fmt: skip
    with white_at_b.websocket("/api/lobby/ws") as lobby, red.websocket(
        f"/api/games/{game['id']}/ws"
    ) as socket, TestClient(create_app(later)) as c:  # fmt: skip
        assert lobby.receive_json()["type"] == "hello"
        assert socket.receive_json()["version"] == game["version"]
        people = services_of(a.app).games.cached(game["id"]).people()  # type: ignore[union-attr]
        # c came after both sockets opened: the others' answers to its greeting tell it.
        eventually(lambda: all(services_of(c.app).hub.online(person) for person in people))
        heard_at_c: list[int] = []

        async def passed(game_id: int, people: object) -> None:
            heard_at_c.append(game_id)

        services_of(c.app).games.passed = passed  # type: ignore[method-assign]
        after = act(red, game, opening(a, game))
        assert lobby.receive_json() == {"type": "lobby", "game_id": game["id"]}  # at b
        time.sleep(0.5)  # c would have heard it by now, from the same publication
        assert heard_at_c == []
        assert services_of(a.app).hub.processes_for(game["id"], people) == {
            services_of(b.app).relay.origin  # type: ignore[union-attr]
        }
        assert after["version"] == game["version"] + 1


def test_bots_run_in_one_process_only(two: tuple[TestClient, TestClient]) -> None:
    a, b = two
    person = sign_up(b)
    created = person.post(
        "/api/games", {"seats": [{"kind": "bot", "bot": "random"}, {"kind": "me"}]}
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    view = wait_for_my_turn(person, game_id)
    for _ in range(3):
        if view["status"] == "finished":
            break
        view = act(person, view, view["state"]["legal_moves"][0])
        view = wait_for_my_turn(person, game_id)
    assert view["status"] == "finished" or view["version"] >= 6
    # One process owns the game and ran its bot; the other holds no search for it.
    eventually(lambda: owners(a).owns(game_id) != owners(b).owns(game_id))


def test_the_process_is_named_in_every_answer(two: tuple[TestClient, TestClient]) -> None:
    a, b = two
    assert a.get("/api/catalog").headers["x-roses-process"] == "a"
    assert b.get("/api/nothing-here").headers["x-roses-process"] == "b"
    health = b.get("/api/health")  # the balancer's check
    assert health.status_code == 200 and health.json() == {"status": "ok"}


def test_the_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROSES_GAME_OWNERS", "1")
    monkeypatch.setenv("ROSES_PROCESS_NAME", "p7")
    monkeypatch.setenv("ROSES_OWNER_SECONDS", "1.5")
    settings = Settings.from_env()
    assert (settings.game_owners, settings.process_name, settings.owner_seconds) == (
        True,
        "p7",
        1.5,
    )
    assert Settings().game_owners is False  # off unless a balancer routes by game


def test_the_shipped_haproxy_configuration_is_the_generated_one() -> None:
    servers = [(f"p{i}", f"127.0.0.1:{8000 + i}") for i in (1, 2, 3)]
    shipped = (ROOT / "deploy" / "haproxy.cfg").read_text()
    assert shipped == haproxy_config("*:8000", servers)
    assert "balance hash var(txn.game)" in shipped and "hash-type consistent" in shipped


def test_a_game_goes_to_the_next_claimant_once_its_owner_is_gone(redis_url: str) -> None:
    """Owners alone, on Redis: a live owner hands its game over when asked and is never
    robbed by background work; one whose heartbeat lapsed (killed, or stalled) loses its
    games to the next claimant at once, and on its next beat lets go of them itself."""

    async def run() -> None:
        prefix = f"roses-test-{uuid.uuid4().hex}"
        # Heartbeats far apart: the test beats by hand.
        first, second = (GameOwners(redis_url, prefix, name, 60) for name in ("a", "b"))
        let_go: list[int] = []

        async def release(game_id: int) -> None:
            let_go.append(game_id)

        first.on_release(release)
        await first.start()
        await second.start()
        try:
            await first.claim(1)
            assert first.owns(1) and not await second.adopt(1)  # background work: no
            await second.claim(1)  # a person's move: handed over
            assert second.owns(1) and not first.owns(1) and let_go == [1]
            assert await first.adopt(2) and not await second.adopt(2)
            raw = Redis.from_url(redis_url)  # the first's heartbeat lapses (killed, stalled)
            await raw.delete(f"{prefix}:alive:{first.process}")
            await raw.aclose()
            assert await second.adopt(2) and second.owns(2)  # its owner is gone
            await first.beat()  # back: its heartbeat had lapsed
            assert not first.owns(2) and let_go == [1, 2]
            assert second.owns(2) and not await first.adopt(2)  # the key stayed the new one's
        finally:
            await first.stop()
            await second.stop()

    asyncio.run(run())
