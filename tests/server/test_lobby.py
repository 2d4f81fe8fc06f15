"""Creating and joining games: open seats, invitations, options."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .conftest import sign_up


def test_an_open_seat_is_taken_by_whoever_joins_first(client: TestClient) -> None:
    host, guest_one, guest_two = sign_up(client), sign_up(client), sign_up(client)
    options = {"random_start": True, "light": True}
    body = {"seats": [{"kind": "open"}, {"kind": "me"}], "options": options}
    game = host.post("/api/games", body).json()
    assert (
        game["status"] == "waiting" and game["options"]["random_start"] and game["options"]["light"]
    )
    assert game["id"] in [g["id"] for g in guest_one.get("/api/games/mine").json()["open"]]
    early = host.post(f"/api/games/{game['id']}/moves", {"move": "draw", "version": 0})
    assert early.status_code == 409  # not started
    joined = guest_one.post(f"/api/games/{game['id']}/join")
    assert joined.status_code == 200
    assert joined.json()["status"] == "active" and joined.json()["you"] == 0
    late = guest_two.post(f"/api/games/{game['id']}/join")
    assert late.status_code == 409
    again = guest_one.post(f"/api/games/{game['id']}/join")
    assert again.status_code == 409


def test_an_invited_seat_is_kept_for_the_invited_player(client: TestClient) -> None:
    host, friend, other = sign_up(client), sign_up(client), sign_up(client)
    seats = [{"kind": "me"}, {"kind": "invite", "name": friend.name}]
    game = host.post("/api/games", {"seats": seats}).json()
    assert game["seats"][1]["invited"] == friend.name
    assert other.post(f"/api/games/{game['id']}/join").status_code == 409
    assert game["id"] not in [g["id"] for g in other.get("/api/games/mine").json()["open"]]
    assert friend.post(f"/api/games/{game['id']}/join", {"seat": 1}).status_code == 200


def test_bad_game_requests(client: TestClient) -> None:
    host = sign_up(client)
    nobody = host.post("/api/games", {"seats": [{"kind": "me"}, {"kind": "invite", "name": "zz"}]})
    assert nobody.status_code == 409
    assert "no player named 'zz'" in nobody.json()["detail"]
    two_me = host.post("/api/games", {"seats": [{"kind": "me"}, {"kind": "me"}]})
    assert two_me.status_code == 422
    assert "Exactly one seat" in two_me.json()["detail"]
    count = host.post("/api/games", {"players": 4, "seats": [{"kind": "me"}, {"kind": "open"}]})
    assert count.status_code == 422
    kind = host.post("/api/games", {"seats": [{"kind": "me"}, {"kind": "robot"}]})
    assert kind.status_code == 422
    assert kind.json()["errors"][0]["field"] == "seats.1.kind"
    twice = [{"kind": "me"}, {"kind": "invite", "name": "pat"}, {"kind": "invite", "name": "pat"}]
    doubled = host.post("/api/games", {"players": 4, "seats": [*twice, {"kind": "open"}]})
    assert doubled.status_code == 422
    assert "one seat only" in doubled.json()["detail"]
    four_random = {
        "players": 4,
        "options": {"random_start": True},
        "seats": [{"kind": "me"}] + [{"kind": "open"}] * 3,
    }
    assert host.post("/api/games", four_random).status_code == 422
    assert host.get("/api/games/mine").json()["my_turn"] == []


def test_the_api_is_described_by_openapi(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = set(schema["paths"])
    assert {"/api/games", "/api/games/{game_id}/moves", "/api/accounts/register"} <= paths
    move = schema["components"]["schemas"]["MoveRequest"]
    assert set(move["required"]) == {"move", "version"}
    assert client.get("/docs").status_code == 200


def test_the_pages_are_served(client: TestClient) -> None:
    for path in ("/", "/games/1", "/games/1/replay"):
        page = client.get(path)
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
    for asset in ("style.css", "js/play.js", "roseking/board.js", "js/lobby.js", "rose.svg"):
        assert client.get(f"/static/{asset}").status_code == 200


def test_the_creator_can_cancel_a_game_still_waiting(client: TestClient) -> None:
    host, friend = sign_up(client), sign_up(client)
    seats = [{"kind": "me"}, {"kind": "invite", "name": friend.name}]
    game = host.post("/api/games", {"seats": seats}).json()
    assert friend.post(f"/api/games/{game['id']}/cancel").status_code == 403
    cancelled = host.post(f"/api/games/{game['id']}/cancel")
    assert cancelled.status_code == 200
    assert cancelled.json()["status"] == "cancelled"
    assert friend.post(f"/api/games/{game['id']}/join").status_code == 409
    for player in (host, friend):
        lists = player.get("/api/games/mine").json()
        assert all(g["id"] != game["id"] for games in lists.values() for g in games)
    started = host.post("/api/games", {"seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]})
    assert host.post(f"/api/games/{started.json()['id']}/cancel").status_code == 409
