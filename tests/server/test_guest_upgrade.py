"""A guest chooses a name and password and keeps its account: every game it sits in, its
session, and from then on the right to play rated games (its games as a guest stay casual)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from roses.server.accounts.users import SESSION_COOKIE

from .conftest import Player, act, sign_in, sign_up, two_player_game, unique_name

pytestmark = pytest.mark.timeout(60)

UPGRADE = "/api/accounts/upgrade"
RATED_BOT_GAME = {
    "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}],
    "rated": True,
}


def _guest(client: TestClient) -> Player:
    answer = client.post("/api/accounts/guest")
    assert answer.status_code == 201, answer.text
    token = answer.cookies[SESSION_COOKIE]
    client.cookies.clear()
    return Player(client, answer.json()["name"], token)


def test_a_guest_registers_and_keeps_its_games_and_session(client: TestClient) -> None:
    guest, friend = _guest(client), sign_up(client)
    game = two_player_game(guest, friend)
    mover = guest if game["to_act"] == [0] else friend
    view = mover.game(game["id"])
    act(mover, view, view["state"]["legal_moves"][0])
    assert friend.game(game["id"])["seats"][0]["player"] == guest.name  # cached by the writer
    assert guest.post("/api/games", RATED_BOT_GAME).status_code == 409  # guests play casual

    name = unique_name("kept")
    upgraded = guest.post(UPGRADE, {"name": name, "password": "a-new-rose"})
    assert upgraded.status_code == 200, upgraded.text
    assert upgraded.json()["name"] == name and upgraded.json()["guest"] is False
    assert guest.get("/api/me").json() == upgraded.json()  # the same cookie, signed in
    assert [g["id"] for g in guest.get("/api/games/mine").json()["my_turn"]] + [
        g["id"] for g in guest.get("/api/games/mine").json()["others"]
    ] == [game["id"]]
    assert friend.game(game["id"])["seats"][0]["player"] == name  # read again, new name
    assert guest.game(game["id"])["you"] == 0 and guest.game(game["id"])["rated"] is False

    again = sign_in(client, name, "a-new-rose")  # another browser, with the password
    assert again.get("/api/me").json()["id"] == upgraded.json()["id"]
    assert again.post("/api/games", RATED_BOT_GAME).status_code == 201


def test_a_taken_name_is_refused_and_the_guest_stays_a_guest(client: TestClient) -> None:
    guest, someone = _guest(client), sign_up(client)
    refused = guest.post(UPGRADE, {"name": someone.name.upper(), "password": "a-new-rose"})
    assert refused.status_code == 409
    assert "is taken" in refused.json()["detail"]
    me = guest.get("/api/me").json()
    assert me["name"] == guest.name and me["guest"] is True
    later = guest.post(UPGRADE, {"name": unique_name("later"), "password": "a-new-rose"})
    assert later.status_code == 200, later.text


def test_only_a_guest_upgrades(client: TestClient) -> None:
    member = sign_up(client)
    refused = member.post(UPGRADE, {"name": unique_name("other"), "password": "a-new-rose"})
    assert refused.status_code == 409 and "registered already" in refused.json()["detail"]
    assert member.get("/api/me").json()["name"] == member.name
    assert (
        client.post(UPGRADE, json={"name": "anyone", "password": "a-new-rose"}).status_code == 401
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "ok-name", "password": "short"}, "password"),
        ({"name": "x", "password": "long-enough"}, "name"),
        ({"name": "no\u0007bell", "password": "long-enough"}, "name"),
    ],
)
def test_a_bad_name_or_password_is_refused_saying_which(
    client: TestClient, body: dict[str, str], field: str
) -> None:
    guest = _guest(client)
    refused = guest.post(UPGRADE, body)
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["field"] == field
    assert guest.get("/api/me").json()["guest"] is True


@pytest.mark.parametrize("prefix", ["guest-", "Guest-", "GUEST-", "ｇｕｅｓｔ-"])
def test_guest_names_are_kept_for_guests(client: TestClient, prefix: str) -> None:
    guest = _guest(client)
    old_name = guest.name
    assert guest.post(UPGRADE, {"name": unique_name("kept"), "password": "a-new-rose"}).is_success
    for name in (old_name, f"{prefix}{old_name[len('guest-') :]}", f"{prefix}mine"):
        registered = client.post(
            "/api/accounts/register", json={"name": name, "password": "secret-rose"}
        )
        client.cookies.clear()
        assert registered.status_code == 422, registered.text
        assert "kept for guests" in registered.json()["errors"][0]["message"]
    other = _guest(client)
    refused = other.post(UPGRADE, {"name": f"{prefix}mine", "password": "a-new-rose"})
    assert refused.status_code == 422 and refused.json()["errors"][0]["field"] == "name"
    assert other.get("/api/me").json()["guest"] is True
