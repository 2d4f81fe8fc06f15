"""Two server processes share live updates through Redis (scaling out)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from roses.bots.roseking.base import BOT_FACTORIES
from roses.server import Settings, create_app
from roses.server.accounts.users import SESSION_COOKIE
from roses.server.db.models import SeatClock
from roses.server.db.store import Change
from roses.server.play.relay import RedisRelay
from roses.server.services import services_of

from .conftest import Player, act, opening, sign_up, two_player_game
from .test_bots import PonderingBot, only_the_bot_moved, wait_for_my_turn

# A socket that never hears its message must fail the test, not hang the run.
pytestmark = pytest.mark.timeout(60)


def test_a_move_on_one_server_reaches_a_watcher_on_another(
    database_url: str, redis_url: str
) -> None:
    channel = f"roses-test-{uuid.uuid4().hex}"  # parallel test runs do not hear each other
    settings = Settings(database_url=database_url, redis_url=redis_url, redis_channel=channel)
    with TestClient(create_app(settings)) as first, TestClient(create_app(settings)) as second:
        red, white = sign_up(first), sign_up(first)
        game = two_player_game(red, white)
        white_elsewhere = Player(second, white.name, white.token)
        with (
            white_elsewhere.websocket(f"/api/games/{game['id']}/ws") as socket,
            white_elsewhere.websocket("/api/lobby/ws") as lobby,
        ):
            assert socket.receive_json()["game"]["version"] == game["version"]
            assert lobby.receive_json()["type"] == "hello"
            after = act(red, game, opening(first, game))  # accepted by the first
            pushed = socket.receive_json()["game"]
            assert pushed["version"] == after["version"]
            assert pushed["your_turn"] is True and pushed["you"] == 1
            assert lobby.receive_json() == {"type": "lobby", "game_id": game["id"]}


def test_the_channel_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deployments (or a benchmark beside the tests) sharing one Redis keep apart."""
    monkeypatch.setenv("ROSES_REDIS_CHANNEL", "roses:elsewhere")
    assert Settings.from_env().redis_channel == "roses:elsewhere"


def test_another_server_applies_a_relayed_move_to_its_own_state(
    database_url: str, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The relay carries the action: a process holding the game applies it to its cached
    state (no reading, no second move's work) and reads the game again only on a gap."""
    channel = f"roses-test-{uuid.uuid4().hex}"
    settings = Settings(database_url=database_url, redis_url=redis_url, redis_channel=channel)
    with TestClient(create_app(settings)) as first, TestClient(create_app(settings)) as second:
        red, white = sign_up(first), sign_up(first)
        game = two_player_game(red, white)
        red_elsewhere = Player(second, red.name, red.token)
        white_elsewhere = Player(second, white.name, white.token)
        games = services_of(second.app).games
        path = f"/api/games/{game['id']}/ws"
        with white_elsewhere.websocket(path) as white_ws, red_elsewhere.websocket(path) as red_ws:
            for socket in (white_ws, red_ws):  # sent once the game is held
                assert socket.receive_json()["version"] == game["version"]
            held = games.cached(game["id"])
            assert held is not None and held.version == game["version"]
            after = act(red, game, opening(first, game))  # on the first server
            pushed = white_ws.receive_json()["game"]
            assert pushed["version"] == after["version"] and pushed["your_turn"] is True
            assert red_ws.receive_json()["game"]["state"] == after["state"]  # Red's own view
            assert games.cached(game["id"]) is held  # applied in place, not read again
            assert held.version == after["version"] and held.actions == 1
            # A move the second server never hears of, then one it does: a gap, read again.
            relay = services_of(first.app).relay
            with monkeypatch.context() as quiet:
                quiet.setattr(relay, "publish", lambda *args, **named: None)
                unheard = act(white, after, pushed["state"]["legal_moves"][0])
            last = act(red, unheard, unheard["state"]["legal_moves"][0])
            assert white_ws.receive_json()["game"]["version"] == last["version"]
            again = games.cached(game["id"])
            assert again is not held and again.version == last["version"] and again.actions == 3
            assert red_ws.receive_json()["game"]["state"] == last["state"]


class _Heard:
    """What a relay hands to the live games of its process."""

    def __init__(self) -> None:
        self.heard: list[Any] = []
        self.people: list[list[int]] = []  # whose lobbies hear of each action

    async def changed_elsewhere(
        self, game_id: int, version: int | None = None, *, relayed: bool = False
    ) -> None:
        self.heard.append((game_id, version, relayed))

    def applies(self, game_id: int) -> bool:
        return True  # as without owners: every process applies every action

    async def passed(self, game_id: int, people: Sequence[int]) -> None:
        raise AssertionError("an action is passed on only without applying it")

    async def acted_elsewhere(self, change: Change, people: Sequence[int] = ()) -> None:
        self.heard.append(change)
        self.people.append(list(people))


def test_changes_cross_the_relay_whole_and_in_order(redis_url: str) -> None:
    """Each action arrives as it was made (clocks and moments included), in the order the
    writers made them, however fast they come; a change without its action as a version."""
    channel = f"roses-test-{uuid.uuid4().hex}"
    now = datetime.now(UTC)
    clock = SeatClock(seat=1, time_left_ms=90_000, since=now, deadline=now + timedelta(seconds=90))
    changes = [
        Change(game_id=7, based_on=version, number=version, seat=version % 2,
               action={"orders": [version, "draw"]}, to_act=[1 - version % 2], turn_since=now,
               status="active", result=None, clocks=(clock,) if version % 3 else (),
               clock_due=clock.deadline)
        for version in range(40)
    ]  # fmt: skip

    async def run() -> list[Any]:
        heard = _Heard()
        sender = RedisRelay(redis_url, channel, _Heard())
        receiver = RedisRelay(redis_url, channel, heard)
        await receiver.start()
        await sender.start()
        for change in changes:
            sender.publish(7, change.based_on + 1, change, {change.based_on, 100})
        sender.publish(7, 41)  # a resignation, say: no action to apply
        deadline = asyncio.get_running_loop().time() + 20
        while len(heard.heard) < len(changes) + 1:
            assert asyncio.get_running_loop().time() < deadline, heard.heard
            await asyncio.sleep(0.02)
        await sender.stop()
        await receiver.stop()
        assert heard.people == [sorted({c.based_on, 100}) for c in changes]
        return heard.heard

    heard = asyncio.run(run())
    assert heard == [*changes, (7, 41, True)]


def test_an_action_sent_to_some_processes_reaches_them_alone(redis_url: str) -> None:
    """``publish(..., to=...)``: each named process hears the action on its own channel, in
    order; a process not named hears nothing of it, but still hears what goes to all."""
    channel = f"roses-test-{uuid.uuid4().hex}"
    now = datetime.now(UTC)
    changes = [
        Change(game_id=7, based_on=version, number=version, seat=0, action={"n": version},
               to_act=[1], turn_since=now, status="active", result=None, clocks=(),
               clock_due=None)
        for version in range(3)
    ]  # fmt: skip

    async def run() -> tuple[_Heard, _Heard, _Heard]:
        heard = _Heard(), _Heard(), _Heard()
        sender = RedisRelay(redis_url, channel, _Heard())
        relays = [RedisRelay(redis_url, channel, one) for one in heard]
        for relay in (*relays, sender):
            await relay.start()
        for change in changes:
            sender.publish(7, change.based_on + 1, change, {3}, to={r.origin for r in relays[:2]})
        sender.publish(7, 4)  # a version, to every process
        deadline = asyncio.get_running_loop().time() + 20
        while any(len(one.heard) < (4, 4, 1)[i] for i, one in enumerate(heard)):
            assert asyncio.get_running_loop().time() < deadline, [one.heard for one in heard]
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.2)  # anything more would have come by now
        for relay in (*relays, sender):
            await relay.stop()
        return heard

    first, second, bystander = asyncio.run(run())
    assert first.heard == second.heard == [*changes, (7, 4, True)]
    assert bystander.heard == [(7, 4, True)]


def _two_servers(database_url: str, redis_url: str) -> tuple[TestClient, TestClient]:
    channel = f"roses-test-{uuid.uuid4().hex}"
    settings = Settings(database_url=database_url, redis_url=redis_url, redis_channel=channel)
    return TestClient(create_app(settings)), TestClient(create_app(settings))


def test_signing_out_on_one_server_closes_the_sockets_on_another(
    database_url: str, redis_url: str
) -> None:
    """A socket another process opened moves no more once its session signed out, and that
    process no longer takes the cookie it had cached."""
    first, second = _two_servers(database_url, redis_url)
    with first, second:
        red, white = sign_up(first), sign_up(first)
        game = two_player_game(red, white)
        red_elsewhere = Player(second, red.name, red.token)
        assert red_elsewhere.get("/api/me").status_code == 200  # cached there
        with (
            red_elsewhere.websocket(f"/api/games/{game['id']}/ws") as socket,
            red_elsewhere.websocket("/api/lobby/ws") as lobby,
        ):
            assert socket.receive_json()["version"] == game["version"]
            assert lobby.receive_json()["type"] == "hello"
            assert red.post("/api/accounts/logout").status_code == 204  # on the first
            for closed in (socket, lobby):
                with pytest.raises(WebSocketDisconnect):
                    closed.receive_json()
        assert red_elsewhere.get("/api/me").status_code == 401
        move = {"move": opening(first, game), "version": game["version"]}
        refused = red_elsewhere.post(f"/api/games/{game['id']}/moves", move)
        assert refused.status_code == 401
        assert white.game(game["id"])["version"] == game["version"]


def test_a_guest_registering_on_one_server_is_known_by_its_name_on_another(
    database_url: str, redis_url: str
) -> None:
    first, second = _two_servers(database_url, redis_url)
    with first, second:
        response = first.post("/api/accounts/guest")
        token = response.cookies[SESSION_COOKIE]
        first.cookies.clear()
        guest = Player(first, response.json()["name"], token)
        host = sign_up(first)
        seats = [{"kind": "me"}, {"kind": "open"}]
        game_id = host.post("/api/games", {"seats": seats}).json()["id"]
        assert guest.post(f"/api/games/{game_id}/join").status_code == 200
        elsewhere = Player(second, guest.name, token)
        assert elsewhere.get("/api/me").json()["guest"] is True  # cached there
        deadline = time.monotonic() + 10
        # The join reaches the other server through the relay, a moment later.
        while elsewhere.game(game_id)["seats"][1]["player"] != guest.name:
            assert time.monotonic() < deadline, "the other server never heard of the join"
            time.sleep(0.05)
        name = f"rose-{uuid.uuid4().hex[:8]}"
        body = {"name": name, "password": "secret-rose"}
        assert guest.post("/api/accounts/upgrade", body).status_code == 200
        deadline = time.monotonic() + 10
        while elsewhere.get("/api/me").json()["name"] != name:
            assert time.monotonic() < deadline, "the other server still knows the guest"
            time.sleep(0.05)
        assert elsewhere.get("/api/me").json()["guest"] is False
        assert elsewhere.game(game_id)["seats"][1]["player"] == name


def test_a_game_resigned_on_another_server_stops_its_bots_search(
    database_url: str, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process whose bot is thinking hears of the resignation through the relay and
    frees its one bot worker for other games at once."""
    monkeypatch.setitem(BOT_FACTORIES, "pondering", PonderingBot)
    channel = f"roses-test-{uuid.uuid4().hex}"
    settings = Settings(
        database_url=database_url, redis_url=redis_url, redis_channel=channel,
        bot_workers=1, bot_margin_seconds=120.0,
    )  # fmt: skip
    with TestClient(create_app(settings)) as first, TestClient(create_app(settings)) as second:
        # Only the first process runs bots: the second's worker cannot stand in for it.
        monkeypatch.setattr(services_of(second.app).bots, "poke", lambda live: None)
        quitter, other = sign_up(first), sign_up(first)
        seats = [{"kind": "bot", "bot": "pondering"}, {"kind": "me"}]
        resigned = quitter.post("/api/games", {"seats": seats}).json()  # its bot thinks here
        time.sleep(0.3)  # the search has reached the worker
        elsewhere = Player(second, quitter.name, quitter.token)
        assert elsewhere.post(f"/api/games/{resigned['id']}/resign").status_code == 200
        seats = [{"kind": "bot", "bot": "random"}, {"kind": "me"}]
        game = other.post("/api/games", {"seats": seats}).json()
        assert only_the_bot_moved(wait_for_my_turn(other, game["id"], timeout=20)["log"])
