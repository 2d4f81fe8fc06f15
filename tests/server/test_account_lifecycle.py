"""An account's lifecycle (issue 35): the password changed (the current one required, other
browsers signed out) or reset through a link e-mailed by a real SMTP server (aiosmtpd),
working once, only once and within the hour, with the same answer whether or not anyone
matches; an address used for nothing until confirmed from the link sent there; the
browsers signed in, signed out one by one or everywhere; one's data downloaded (holding
no other player's hidden state); the account deleted, its games kept with the seat shown
as a deleted player and its ratings gone from the leaderboards; reserved names refused."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from roses.server import Settings, create_app
from roses.server.accounts.sessions import SESSION_ID_LENGTH
from roses.server.accounts.users import SESSION_COOKIE
from roses.server.notify.digest import claim_digests
from roses.server.services import services_of

from .clock_helpers import advance, real_time
from .conftest import Player, sign_up, two_player_game
from .hidden import walk
from .smtp import Inbox, body, smtp_server, take_link
from .test_relay import _two_servers

pytestmark = pytest.mark.timeout(120)
__all__ = ["real_time"]  # every test starts at the real time

RIGHT = "secret-rose"  # conftest.sign_up's password
SETTINGS = "/api/settings/notifications"
RESET = "/api/accounts/password-reset"


@pytest.fixture
def smtp() -> Iterator[tuple[str, Inbox]]:
    with smtp_server() as server:
        yield server


@pytest.fixture
def mail_client(database_url: str, smtp: tuple[str, Inbox]) -> Iterator[TestClient]:
    settings = Settings(database_url=database_url, smtp_url=smtp[0], public_url="http://testserver")
    with TestClient(create_app(settings)) as client:
        yield client


def _address(label: str) -> str:
    return f"{label}-{uuid.uuid4().hex[:8]}@example.org"


def _sign_in(client: TestClient, name: str, password: str, agent: str = "test") -> Player | None:
    answer = client.post(
        "/api/accounts/login",
        json={"name": name, "password": password},
        headers={"user-agent": agent},
    )
    client.cookies.clear()
    if answer.status_code != 200:
        return None
    return Player(client, name, answer.cookies[SESSION_COOKIE])


def _signed_in(player: Player) -> bool:
    return int(player.get("/api/me").status_code) == 200


def _confirmed(player: Player, inbox: Inbox) -> str:
    """``player`` with an address confirmed from the link sent there."""
    email = _address("own")
    saved = player.client.put(SETTINGS, json={"email": email}, headers=player.headers)
    assert saved.status_code == 200 and saved.json()["email_confirmed"] is False
    token = take_link(inbox, email, "confirm-email")
    assert player.client.post("/api/email/confirm", json={"token": token}).status_code == 200
    assert player.get(SETTINGS).json()["email_confirmed"] is True
    return email


# -- the password -------------------------------------------------------------------------


def test_changing_the_password_needs_the_current_one_and_signs_out_the_others(
    client: TestClient,
) -> None:
    ann = sign_up(client)
    elsewhere = _sign_in(client, ann.name, RIGHT)
    assert elsewhere is not None
    path = "/api/accounts/password"
    wrong = client.post(path, json={"current": "nope", "new": "a new rose"}, headers=ann.headers)
    assert wrong.status_code == 403 and "current password" in wrong.json()["detail"]
    short = client.post(path, json={"current": RIGHT, "new": "short"}, headers=ann.headers)
    assert short.status_code == 422 and short.json()["errors"][0]["field"] == "new"
    assert _signed_in(elsewhere)  # nothing changed
    changed = client.post(path, json={"current": RIGHT, "new": "a new rose"}, headers=ann.headers)
    assert changed.status_code == 204, changed.text
    assert _signed_in(ann) and not _signed_in(elsewhere)
    assert _sign_in(client, ann.name, RIGHT) is None
    assert _sign_in(client, ann.name, "a new rose") is not None
    guesses = {"current": "guess", "new": "a stolen rose"}
    # Counted with the sign-ins from this address (login_failures_per_account_address: 10).
    answers = [client.post(path, json=guesses, headers=ann.headers).status_code for _ in range(9)]
    assert answers[0] == 403 and answers[-1] == 429
    stopped = client.post(path, json={"current": "a new rose", "new": "x" * 8}, headers=ann.headers)
    assert stopped.status_code == 429 and "wrong passwords" in stopped.json()["detail"]
    guest = client.post("/api/accounts/guest")
    client.cookies.clear()
    as_guest = client.post(
        path,
        json={"current": "x", "new": "a new rose"},
        headers={"cookie": f"{SESSION_COOKIE}={guest.cookies[SESSION_COOKIE]}"},
    )
    assert as_guest.status_code == 409 and "guest" in as_guest.json()["detail"]


def test_a_reset_link_works_once_only_and_not_after_an_hour(
    mail_client: TestClient, smtp: tuple[str, Inbox]
) -> None:
    inbox = smtp[1]
    ann = sign_up(mail_client)
    email = _confirmed(ann, inbox)
    asked = mail_client.post(RESET, json={"account": ann.name.upper()})
    assert asked.status_code == 202
    first = take_link(inbox, email, "reset-password")
    assert mail_client.post(RESET, json={"account": email}).json() == asked.json()
    second = take_link(inbox, email, "reset-password")
    assert mail_client.get(f"{RESET}/{first}").json() == {"name": ann.name}
    done = mail_client.post(f"{RESET}/complete", json={"token": first, "password": "fresh rose"})
    assert done.status_code == 200 and done.json()["name"] == ann.name  # and signed in
    mail_client.cookies.clear()
    assert not _signed_in(ann)  # every earlier session is signed out
    assert _sign_in(mail_client, ann.name, "fresh rose") is not None
    for used in (first, second):  # the link used, and the older one beside it, are dead
        again = mail_client.post(f"{RESET}/complete", json={"token": used, "password": "evil rose"})
        assert again.status_code == 404 and "used already" in again.json()["detail"]
    assert _sign_in(mail_client, ann.name, "fresh rose") is not None

    mail_client.post(RESET, json={"account": ann.name})
    late = take_link(inbox, email, "reset-password")
    advance(3601)
    expired = mail_client.post(f"{RESET}/complete", json={"token": late, "password": "late rose"})
    assert expired.status_code == 404 and "expired" in expired.json()["detail"]
    forged = mail_client.post(
        f"{RESET}/complete", json={"token": late[:-3] + "abc", "password": "x" * 8}
    )
    assert forged.status_code == 404
    assert _sign_in(mail_client, ann.name, "fresh rose") is not None


def test_a_reset_request_answers_alike_and_mails_only_confirmed_addresses(
    mail_client: TestClient, smtp: tuple[str, Inbox]
) -> None:
    inbox = smtp[1]
    ann, bob = sign_up(mail_client), sign_up(mail_client)
    email = _confirmed(ann, inbox)
    unconfirmed = _address("unconfirmed")
    mail_client.put(SETTINGS, json={"email": unconfirmed}, headers=bob.headers)
    take_link(inbox, unconfirmed, "confirm-email")
    answers = [
        mail_client.post(RESET, json={"account": account})
        for account in (ann.name, email, bob.name, unconfirmed, "nobody-here", _address("none"))
    ]
    assert {a.status_code for a in answers} == {202}
    assert len({a.text for a in answers}) == 1  # the same answer whoever is named
    assert len(inbox.to(email)) == 2 and inbox.to(unconfirmed) == []
    assert len(inbox.messages) == 2
    message = inbox.to(email)[0]
    assert "List-Unsubscribe" not in message  # asked for once: nothing to unsubscribe from
    assert ann.name in body(message) and "60 minutes" in body(message)


def test_reset_in_german_and_without_a_mail_server(
    mail_client: TestClient, smtp: tuple[str, Inbox], client: TestClient
) -> None:
    ann = sign_up(mail_client)
    email = _confirmed(ann, smtp[1])
    mail_client.put("/api/language", json={"language": "de"}, headers=ann.headers)
    mail_client.cookies.clear()
    mail_client.post(RESET, json={"account": ann.name})
    take_link(smtp[1], email, "reset-password")  # it came
    refused = client.post(RESET, json={"account": ann.name}, headers={"accept-language": "de"})
    assert refused.status_code == 409 and "E-Mail" in refused.json()["detail"]


# -- the e-mail address ---------------------------------------------------------------------


def test_an_address_is_used_for_nothing_until_confirmed(
    mail_client: TestClient, smtp: tuple[str, Inbox]
) -> None:
    inbox = smtp[1]
    ann = sign_up(mail_client)
    red, white = ann, sign_up(mail_client)
    game = two_player_game(red, white)
    mover = red if game["to_act"] == [0] else white
    email = _address("typed")
    saved = mover.client.put(SETTINGS, json={"email": email, "digest": True}, headers=mover.headers)
    assert saved.status_code == 200 and saved.json()["email_confirmed"] is False
    link = take_link(inbox, email, "confirm-email")
    sessions = services_of(mail_client.app).sessions  # type: ignore[attr-defined]
    from datetime import UTC, datetime

    morning = datetime(2031, 5, 6, 8, 0, tzinfo=UTC)
    assert [d.email for d in claim_digests(sessions, morning) if d.email == email] == []
    assert mail_client.post(RESET, json={"account": email}).status_code == 202
    assert inbox.to(email) == []  # no reset link to an unconfirmed address either
    confirmed = mail_client.post("/api/email/confirm", json={"token": link})
    assert confirmed.status_code == 200 and confirmed.json() == {"email": email}
    assert [d.email for d in claim_digests(sessions, morning) if d.email == email] == [email]
    # Changing the address: the new one waits for its own link, the old link is dead.
    other = _address("changed")
    changed = mover.client.put(
        SETTINGS, json={"email": other, "digest": True}, headers=mover.headers
    )
    assert changed.json()["email_confirmed"] is False
    stale = mail_client.post("/api/email/confirm", json={"token": link})
    assert stale.status_code == 404 and "no longer" in stale.json()["detail"]
    again = mover.post("/api/settings/notifications/confirmation")
    assert again.status_code == 202 and other in again.json()["detail"]
    first, second = (
        take_link(inbox, other, "confirm-email"),
        take_link(inbox, other, "confirm-email"),
    )
    assert mail_client.post("/api/email/confirm", json={"token": second}).status_code == 200
    assert (
        mail_client.post("/api/email/confirm", json={"token": first}).status_code == 200
    )  # harmless
    assert mover.post("/api/settings/notifications/confirmation").status_code == 409
    forged = mail_client.post("/api/email/confirm", json={"token": "WzEsImEiXQ.forged.sig"})
    assert forged.status_code == 404 and "not valid" in forged.json()["detail"]


# -- the sessions ---------------------------------------------------------------------------


def test_the_session_list_and_signing_out_one_or_everywhere(client: TestClient) -> None:
    ann = sign_up(client)
    phone = _sign_in(client, ann.name, RIGHT, agent="Phone Browser 1.0")
    laptop = _sign_in(client, ann.name, RIGHT, agent="Laptop Browser 2.0")
    assert phone is not None and laptop is not None
    listed = client.get("/api/accounts/sessions", headers=laptop.headers).json()
    assert len(listed) == 3
    assert [s["browser"] for s in listed if s["current"]] == ["Laptop Browser 2.0"]
    assert all(len(s["id"]) == SESSION_ID_LENGTH for s in listed)
    assert not any(laptop.token in json.dumps(s) or phone.token in json.dumps(s) for s in listed)
    phone_id = next(s["id"] for s in listed if s["browser"] == "Phone Browser 1.0")
    # Another account cannot end my sessions, nor name them.
    bob = sign_up(client)
    assert (
        client.delete(f"/api/accounts/sessions/{phone_id}", headers=bob.headers).status_code == 404
    )
    assert client.delete("/api/accounts/sessions/nothex", headers=laptop.headers).status_code == 422
    ended = client.delete(f"/api/accounts/sessions/{phone_id}", headers=laptop.headers)
    assert ended.status_code == 204
    assert not _signed_in(phone) and _signed_in(laptop) and _signed_in(ann) and _signed_in(bob)
    everywhere = client.delete("/api/accounts/sessions", headers=laptop.headers)
    assert everywhere.status_code == 204
    assert not _signed_in(laptop) and not _signed_in(ann) and _signed_in(bob)


@pytest.mark.parametrize("how", ["password", "everywhere", "delete"])
def test_the_other_servers_sign_the_sessions_out_too(
    database_url: str, redis_url: str, how: str
) -> None:
    """A password changed, "sign out everywhere", or the account deleted on one server:
    the session's socket on another server closes, and its cached cookie is refused."""
    first, second = _two_servers(database_url, redis_url)
    with first, second:
        ann, bob = sign_up(first), sign_up(first)
        other = _sign_in(first, ann.name, RIGHT)
        assert other is not None
        elsewhere = Player(second, ann.name, other.token)
        assert _signed_in(elsewhere)  # cached on the second server
        with elsewhere.websocket("/api/lobby/ws") as lobby:
            assert lobby.receive_json()["type"] == "hello"
            if how == "password":
                body = {"current": RIGHT, "new": "a new rose"}
                answer = first.post("/api/accounts/password", json=body, headers=ann.headers)
            elif how == "everywhere":
                answer = first.delete("/api/accounts/sessions", headers=ann.headers)
            else:
                answer = first.post(
                    "/api/accounts/delete", json={"password": RIGHT}, headers=ann.headers
                )
            assert answer.status_code == 204, answer.text
            with pytest.raises(WebSocketDisconnect):
                lobby.receive_json()
        assert not _signed_in(elsewhere)
        assert _signed_in(bob)


def test_signing_out_everywhere_closes_the_sockets(client: TestClient) -> None:
    ann, bob = sign_up(client), sign_up(client)
    game = two_player_game(ann, bob)
    with ann.websocket(f"/api/games/{game['id']}/ws") as socket:
        socket.receive_json()
        assert client.delete("/api/accounts/sessions", headers=ann.headers).status_code == 204
        with pytest.raises(WebSocketDisconnect):
            socket.receive_json()


# -- the data and deletion ---------------------------------------------------------------

GAME_KEYS = {"id", "game", "status", "rated", "created_at", "my_seats", "seats", "result"}


def _download(player: Player) -> dict[str, Any]:
    answer = player.get("/api/accounts/data")
    assert answer.status_code == 200, answer.text
    assert "attachment" in answer.headers["content-disposition"]
    return dict(answer.json())


def test_the_download_holds_my_data_and_no_hidden_state(client: TestClient) -> None:
    """RK-5 (the draw pile is secret), RK-4 (each hand is its owner's)."""
    ann, bob = sign_up(client), sign_up(client)
    client.put(SETTINGS, json={"email": "ann@example.org", "sound": True}, headers=ann.headers)
    game = two_player_game(ann, bob)
    assert ann.post(f"/api/games/{game['id']}/chat", {"text": "good luck"}).status_code in (
        200,
        201,
    )
    assert bob.post(f"/api/games/{game['id']}/chat", {"text": "thanks"}).status_code in (200, 201)
    data = _download(ann)
    walk(data)  # no deal, seed, pile or position anywhere
    assert data["account"]["name"] == ann.name
    notifications = data["settings"]["notification_settings"]
    assert notifications[0]["email"] == "ann@example.org" and notifications[0]["sound"] is True
    assert [c["text"] for c in data["chat"]] == ["good luck"]  # mine only
    (mine,) = data["games"]
    assert set(mine) == GAME_KEYS and mine["result"] is None
    assert {s["player"] for s in mine["seats"]} == {ann.name, bob.name}
    bob_view = bob.game(game["id"])
    text = json.dumps(data)
    for secret in ("hand", "deal", "plan", "actions", "token_hash", "password"):
        assert f'"{secret}' not in text, secret
    hand = bob_view.get("hands") or bob_view.get("hand")
    assert hand is None or json.dumps(hand) not in text
    assert any(s["current"] for s in data["sessions"])


def _finish_rated(red: Player, white: Player) -> dict[str, Any]:
    body = {"seats": [{"kind": "me"}, {"kind": "invite", "name": white.name}], "rated": True}
    created = red.post("/api/games", body)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    assert white.post(f"/api/games/{game_id}/join").status_code == 200
    return dict(created.json())


def test_deleting_an_account_keeps_its_games_and_reveals_nothing(client: TestClient) -> None:
    ann, bob = sign_up(client), sign_up(client)
    game = _finish_rated(ann, bob)
    ann.post(f"/api/games/{game['id']}/chat", {"text": "my words"})
    delete = "/api/accounts/delete"
    wrong = client.post(delete, json={"password": "nope"}, headers=ann.headers)
    assert wrong.status_code == 403
    playing = client.post(delete, json={"password": RIGHT}, headers=ann.headers)
    assert playing.status_code == 409 and "unfinished game" in playing.json()["detail"]
    assert ann.post(f"/api/games/{game['id']}/resign").status_code == 200
    board = bob.get("/api/ratings/roseking/2p").json()["players"]
    assert ann.name in {row["player"] for row in board}
    deleted = client.post(delete, json={"password": RIGHT}, headers=ann.headers)
    assert deleted.status_code == 204, deleted.text
    assert not _signed_in(ann) and _sign_in(client, ann.name, RIGHT) is None
    board = bob.get("/api/ratings/roseking/2p").json()["players"]
    assert ann.name not in {row["player"] for row in board}
    assert bob.name in {row["player"] for row in board}
    view = bob.game(game["id"])
    text = json.dumps(view)
    assert ann.name not in text and "deleted-" in text  # the seat is a deleted player's
    assert bob.get(f"/api/games/{game['id']}/chat").json()["messages"] == []
    assert bob.get(f"/api/players/{ann.name}").status_code == 404
    assert ann.name not in json.dumps(_download(bob))
    # The name is free again; the deleted one cannot be chosen.
    assert (
        client.post(
            "/api/accounts/register", json={"name": "deleted-1234", "password": RIGHT}
        ).status_code
        == 422
    )
    client.cookies.clear()


# -- names -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["admin", "Administrator", "MODERATOR", "roses", "System", "adm1n", "аdmin", "ＡＤＭＩＮ",
     "r0ses", "5ystem", "Mod_erator", "sуstem", "adrnin"],
)  # fmt: skip
def test_reserved_names_and_their_look_alikes_are_refused(client: TestClient, name: str) -> None:
    answer = client.post("/api/accounts/register", json={"name": name, "password": RIGHT})
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"][0]["field"] == "name"
    assert "kept for the site" in answer.json()["detail"]
    assert client.get("/api/me").status_code == 401


def test_names_refused_whole_in_the_readers_language(client: TestClient) -> None:
    german = {"accept-language": "de"}
    reserved = client.post(
        "/api/accounts/register", json={"name": "Admin", "password": RIGHT}, headers=german
    )
    assert reserved.status_code == 422 and "Namen" in reserved.json()["detail"]
    long = client.post("/api/accounts/register", json={"name": "n" * 25, "password": RIGHT})
    assert long.status_code == 422 and "too long" in long.json()["detail"]
    assert client.get("/api/me").status_code == 401  # refused whole: nothing registered
    for fine in ("Adam", "Rosie", "Systems Analyst"):
        ok = client.post(
            "/api/accounts/register",
            json={"name": f"{fine} {uuid.uuid4().hex[:4]}", "password": RIGHT},
        )
        assert ok.status_code == 201, ok.text
        client.cookies.clear()
