"""Notifications through the API: the count of games waiting for me (the badge), the
settings of each account, and the e-mail addresses refused with a reason."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.games.wotr import WOTR
from roses.server.db.store import read_game
from roses.server.play.live_games import LiveGame
from roses.server.services import services_of

from .conftest import act, sign_up, two_player_game
from .hidden import assert_waiting_only
from .test_resign import _wotr_game, wotr_until

pytestmark = pytest.mark.timeout(60)

WAITING = "/api/notifications/waiting"
SETTINGS = "/api/settings/notifications"


def _put(player: Any, body: dict[str, Any]) -> Any:
    return player.client.put(SETTINGS, json=body, headers=player.headers)


def test_the_count_follows_whose_turn_it_is(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    mover, other = (red, white) if game["to_act"] == [0] else (white, red)
    waiting = mover.get(WAITING).json()
    assert_waiting_only(waiting)
    assert waiting["count"] == 1 and waiting["games"][0]["id"] == game["id"]
    assert waiting["games"][0]["title"] == "The Rose King"
    assert other.get(WAITING).json() == {"count": 0, "games": [], "invitations": []}

    view = mover.game(game["id"])
    act(mover, view, view["state"]["legal_moves"][0])
    assert mover.get(WAITING).json()["count"] == 0
    assert other.get(WAITING).json()["count"] == 1
    assert_waiting_only(other.get(WAITING).json())


def test_an_invitation_counts_until_it_is_answered(client: TestClient) -> None:
    """The badge counts a game that invites me by name as waiting for me, without its
    state; joining makes it a game like the others, declining takes it off."""
    host, guest, third = sign_up(client), sign_up(client), sign_up(client)
    invite = {"seats": [{"kind": "me"}, {"kind": "invite", "name": guest.name}]}
    first = host.post("/api/games", invite).json()
    second = host.post("/api/games", invite).json()
    seen = guest.get(WAITING).json()
    assert_waiting_only(seen)
    assert seen["count"] == 2 and seen["games"] == []
    assert [g["id"] for g in seen["invitations"]] == [first["id"], second["id"]]
    assert host.get(WAITING).json()["count"] == 0  # the host waits for the guest
    assert third.get(WAITING).json()["count"] == 0

    assert guest.post(f"/api/games/{second['id']}/decline").status_code == 200
    assert [g["id"] for g in guest.get(WAITING).json()["invitations"]] == [first["id"]]
    assert guest.post(f"/api/games/{first['id']}/join").status_code == 200
    after = guest.get(WAITING).json()
    assert after["invitations"] == []
    started = guest.game(first["id"])
    assert after["count"] == (1 if started["your_turn"] else 0)


def test_finished_and_open_games_do_not_wait(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    red.post("/api/games", {"seats": [{"kind": "me"}, {"kind": "open"}]})  # nobody joined
    assert red.post(f"/api/games/{game['id']}/resign").status_code == 200
    assert red.get(WAITING).json()["count"] == 0
    assert white.get(WAITING).json()["count"] == 0


def test_wotr_plans_to_make_wait_and_a_sealed_plan_stays_secret(client: TestClient) -> None:
    """Both seats plan at once (WR-13): each is waited for until it seals; what the other
    learns is that the game no longer waits for it, never the plan."""
    one, two = sign_up(client), sign_up(client)
    game_id = _wotr_game(one, two)
    wotr_until(client, [one, two], game_id, "planning")
    assert one.get(WAITING).json()["count"] == 1
    assert two.get(WAITING).json()["count"] == 1
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        live = LiveGame(read_game(db, game_id))
    plan = WOTR.action_json(WOTR.fallback_action(WOTR.bot_input(live.state, 0), random.Random(1)))
    sealed = one.post(
        f"/api/games/{game_id}/moves",
        {"move": plan, "version": live.version},
    )
    assert sealed.status_code == 200, sealed.text
    assert one.get(WAITING).json()["count"] == 0
    seen = two.get(WAITING).json()
    assert seen["count"] == 1
    assert_waiting_only(seen)
    assert json.dumps(plan) not in json.dumps(seen)


def test_waiting_needs_a_sign_in(client: TestClient) -> None:
    assert client.get(WAITING).status_code == 401
    assert client.get(SETTINGS).status_code == 401
    assert client.put(SETTINGS, json={}).status_code == 401


def test_settings_start_off_and_are_kept_per_account(client: TestClient) -> None:
    ann, bob = sign_up(client), sign_up(client)
    assert ann.get(SETTINGS).json() == {
        "email": None,
        "digest": False,
        "deadline_warning": False,
        "browser": False,
        "sound": False,
        "email_available": False,  # this server has no ROSES_SMTP_URL
        "email_confirmed": False,
    }
    saved = _put(ann, {"email": " Ann@Example.ORG ", "browser": True, "sound": True})
    assert saved.status_code == 200, saved.text
    assert saved.json()["email"] == "Ann@example.org"  # the domain's case does not matter
    assert ann.get(SETTINGS).json()["browser"] is True
    assert ann.get(SETTINGS).json()["sound"] is True
    assert bob.get(SETTINGS).json()["browser"] is False
    cleared = _put(ann, {"email": "", "browser": False})
    assert cleared.json()["email"] is None and cleared.json()["sound"] is False


def test_no_email_opt_in_without_a_mail_server_or_an_address(client: TestClient) -> None:
    ann = sign_up(client)
    _put(ann, {"email": "ann@example.org", "sound": True})
    refused = _put(ann, {"email": "ann@example.org", "digest": True})
    assert refused.status_code == 409
    assert "sends no e-mail" in refused.json()["detail"]
    no_address = _put(ann, {"email": None, "deadline_warning": True})
    assert no_address.status_code == 422
    assert no_address.json()["errors"][0]["field"] == "deadline_warning"
    assert "e-mail address" in no_address.json()["detail"]
    kept = ann.get(SETTINGS).json()
    assert kept["email"] == "ann@example.org" and kept["sound"] is True and not kept["digest"]


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("ann", "a name, “@” and a domain"),
        ("ann@", "a name, “@” and a domain"),
        ("@example.org", "a name, “@” and a domain"),
        ("ann@localhost", "is not a domain name"),
        ("ann@exa mple.org", "is not a domain name"),
        ("ann@-example.org", "is not a domain name"),
        ("ann@10.0.0.1", "not a number"),
        ("an n@example.org", "no spaces"),
        ("ann..lee@example.org", "no two dots"),
        ("änn@example.org", "only the letters a to z"),
        ("a" * 65 + "@example.org", "at most 64 characters"),
    ],
)
def test_a_bad_address_is_refused_saying_why_and_nothing_changes(
    client: TestClient, address: str, reason: str
) -> None:
    ann = sign_up(client)
    _put(ann, {"email": "ann@example.org"})
    refused = _put(ann, {"email": address, "sound": True})
    assert refused.status_code == 422, refused.text
    assert refused.json()["errors"][0]["field"] == "email"
    assert reason in refused.json()["detail"], refused.json()["detail"]
    assert ann.get(SETTINGS).json()["email"] == "ann@example.org"
    assert ann.get(SETTINGS).json()["sound"] is False


def test_international_domains_are_accepted(client: TestClient) -> None:
    ann = sign_up(client)
    saved = _put(ann, {"email": "ann@bücher.example"})
    assert saved.status_code == 200, saved.text
    assert saved.json()["email"] == "ann@bücher.example"


def test_unknown_settings_are_refused(client: TestClient) -> None:
    ann = sign_up(client)
    refused = _put(ann, {"sms": True})
    assert refused.status_code == 422 and refused.json()["errors"][0]["field"] == "sms"


def test_the_lobby_socket_tells_the_badge_when_to_count_again(client: TestClient) -> None:
    """The badge reads the count again when the lobby socket says one of my games changed:
    the opponent's move reaches my socket, after which the game waits for me."""
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    mover, other = (red, white) if game["to_act"] == [0] else (white, red)
    with other.websocket("/api/lobby/ws") as lobby:
        assert lobby.receive_json()["type"] == "hello"
        assert other.get(WAITING).json()["count"] == 0
        view = mover.game(game["id"])
        act(mover, view, view["state"]["legal_moves"][0])
        message = lobby.receive_json()
        assert message == {"type": "lobby", "game_id": game["id"]}  # no state, no secret
        assert other.get(WAITING).json()["games"][0]["id"] == game["id"]
