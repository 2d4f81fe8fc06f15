"""Before a game starts: a player abandons the seat they took, an invited player declines
(public game: the seat opens; private game: the game is cancelled), and games nobody
joined expire after ``open_game_days``, by the periodic check or when lists are read."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from roses.server import Settings, create_app
from roses.server.db import store
from roses.server.db.models import Draft, Game, Seat, User, utcnow
from roses.server.errors import Forbidden
from roses.server.services import services_of

from .conftest import Player, sign_up

pytestmark = pytest.mark.timeout(60)


def _create(host: Player, *seats: dict[str, str]) -> dict[str, object]:
    created = host.post("/api/games", {"players": 4, "seats": [{"kind": "me"}, *seats]})
    assert created.status_code == 201, created.text
    return dict(created.json())


def test_a_player_abandons_a_waiting_game_and_the_seat_opens_again(client: TestClient) -> None:
    host, guest, friend = sign_up(client), sign_up(client), sign_up(client)
    invite = {"kind": "invite", "name": friend.name}
    game = _create(host, {"kind": "open"}, invite, {"kind": "open"})
    assert guest.post(f"/api/games/{game['id']}/join").status_code == 200
    left = guest.post(f"/api/games/{game['id']}/leave")
    assert left.status_code == 200, left.text
    assert left.json()["you"] is None and left.json()["status"] == "waiting"
    assert game["id"] in [g["id"] for g in guest.get("/api/games/mine").json()["open"]]
    again = guest.post(f"/api/games/{game['id']}/leave")
    assert again.status_code == 409 and "no seat" in again.json()["detail"]
    creator = host.post(f"/api/games/{game['id']}/leave")
    assert creator.status_code == 409 and "cancel it instead" in creator.json()["detail"]
    assert host.post(f"/api/games/{game['id']}/cancel").status_code == 200  # still there


def test_declining_opens_the_seat_of_a_public_game(client: TestClient) -> None:
    host, friend, other = sign_up(client), sign_up(client), sign_up(client)
    game = _create(
        host, {"kind": "invite", "name": friend.name}, {"kind": "open"}, {"kind": "open"}
    )
    mine = friend.get("/api/games/mine").json()
    assert game["id"] in [g["id"] for g in mine["invitations"]]
    declined = friend.post(f"/api/games/{game['id']}/decline")
    assert declined.status_code == 200, declined.text
    assert declined.json()["seats"][1]["invited"] is None
    assert declined.json()["status"] == "waiting"
    assert game["id"] not in [g["id"] for g in friend.get("/api/games/mine").json()["invitations"]]
    assert other.post(f"/api/games/{game['id']}/join", {"seat": 1}).status_code == 200
    twice = friend.post(f"/api/games/{game['id']}/decline")
    assert twice.status_code == 409 and "no invitation" in twice.json()["detail"]


def test_declining_cancels_a_private_game(client: TestClient) -> None:
    host, one, two, three = (sign_up(client) for _ in range(4))
    game = _create(host, *({"kind": "invite", "name": p.name} for p in (one, two, three)))
    assert one.post(f"/api/games/{game['id']}/join").status_code == 200
    stranger = sign_up(client).post(f"/api/games/{game['id']}/decline")
    assert stranger.status_code == 409
    declined = two.post(f"/api/games/{game['id']}/decline").json()
    assert declined["status"] == "cancelled"
    assert three.post(f"/api/games/{game['id']}/join").status_code == 409


def test_a_started_game_is_not_left_but_resigned(client: TestClient) -> None:
    host, friend = sign_up(client), sign_up(client)
    seats = [{"kind": "me"}, {"kind": "invite", "name": friend.name}]
    game = host.post("/api/games", {"seats": seats}).json()
    friend.post(f"/api/games/{game['id']}/join")
    refused = friend.post(f"/api/games/{game['id']}/leave")
    assert refused.status_code == 409 and "resign instead" in refused.json()["detail"]
    assert friend.post("/api/games/999999/decline").status_code == 404


def _age(client: TestClient, game_id: int, days: float) -> None:
    with services_of(client.app).sessions.begin() as db:  # type: ignore[attr-defined]
        game = db.get(Game, game_id)
        assert game is not None
        game.created_at = utcnow() - timedelta(days=days)


def test_open_games_nobody_joined_expire_when_lists_are_read(client: TestClient) -> None:
    host, other = sign_up(client), sign_up(client)
    old = _create(host, {"kind": "open"}, {"kind": "open"}, {"kind": "open"})
    fresh = _create(host, {"kind": "open"}, {"kind": "open"}, {"kind": "open"})
    _age(client, int(old["id"]), 7.01)  # the tests move time; they do not wait
    _age(client, int(fresh["id"]), 6.9)
    with host.websocket(f"/api/games/{old['id']}/ws") as socket:
        socket.receive_json()
        listed = [g["id"] for g in other.get("/api/games/mine").json()["open"]]
        assert old["id"] not in listed and fresh["id"] in listed
        pushed = socket.receive_json()
        assert pushed["game"]["status"] == "cancelled"
    assert other.post(f"/api/games/{old['id']}/join").status_code == 409


@pytest.fixture
def quick_expiry(database_url: str) -> Iterator[TestClient]:
    settings = Settings(database_url=database_url, open_game_days=1, expiry_check_seconds=0.05)
    with TestClient(create_app(settings)) as client:
        yield client


def test_a_periodic_check_expires_games_without_anyone_asking(quick_expiry: TestClient) -> None:
    host = sign_up(quick_expiry)
    game = _create(host, {"kind": "open"}, {"kind": "open"}, {"kind": "open"})
    _age(quick_expiry, int(game["id"]), 1.5)
    deadline = time.monotonic() + 10
    while host.game(int(game["id"]))["status"] != "cancelled":
        assert time.monotonic() < deadline, "the periodic check never expired the game"
        time.sleep(0.05)


def test_a_seats_draft_goes_with_the_player_who_leaves_it(client: TestClient) -> None:
    host, leaver, next_player = sign_up(client), sign_up(client), sign_up(client)
    game = _create(host, {"kind": "open"}, {"kind": "open"}, {"kind": "open"})
    assert leaver.post(f"/api/games/{game['id']}/join", {"seat": 1}).status_code == 200
    planted = {"plan": "planted by the last occupant"}
    saved = client.put(
        f"/api/games/{game['id']}/draft", json={"draft": planted}, headers=leaver.headers
    )
    assert saved.status_code == 200, saved.text
    assert leaver.game(game["id"])["draft"] == planted
    assert leaver.post(f"/api/games/{game['id']}/leave").status_code == 200
    joined = next_player.post(f"/api/games/{game['id']}/join", {"seat": 1})
    assert joined.status_code == 200, joined.text
    assert joined.json()["you"] == 1 and joined.json()["draft"] is None
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        assert db.scalars(select(Draft).where(Draft.game_id == game["id"])).all() == []


def test_a_draft_that_arrives_after_its_author_left_is_refused(client: TestClient) -> None:
    host, leaver = sign_up(client), sign_up(client)
    game = _create(host, {"kind": "open"}, {"kind": "open"}, {"kind": "open"})
    assert leaver.post(f"/api/games/{game['id']}/join", {"seat": 1}).status_code == 200
    sessions = services_of(client.app).sessions  # type: ignore[attr-defined]
    with sessions.begin() as db:
        leaver_id = db.scalars(select(User.id).where(User.name == leaver.name)).one()
        # The seat was given up meanwhile, and the live game had not heard of it yet.
        db.execute(update(Seat).where(Seat.game_id == game["id"]).values(user_id=None))
    with sessions.begin() as db, pytest.raises(Forbidden):
        store.save_draft(db, game["id"], 1, leaver_id, {"plan": "late"})
