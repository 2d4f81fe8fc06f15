"""Reach (issue 36): web push end to end against a local push service that records what it
receives (the test holds the subscription's keys and decrypts each message), webhooks
against a local receiver that checks the signature, the outbox's retries, at most one
message per game and turn, none for a turn already seen, and hidden information."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient
from sqlalchemy import select

from roses.games.wotr import WOTR
from roses.roseking import card_name
from roses.server import Settings, create_app
from roses.server.db.engine import make_engine, session_factory
from roses.server.db.models import Seat, User
from roses.server.db.store import read_game
from roses.server.notify import outbox, reach
from roses.server.notify.deadline_warnings import send_warnings
from roses.server.notify.reach import OutboxMessage, PushSubscription, tell
from roses.server.notify.webhooks import SIGNATURE_HEADER
from roses.server.play.live_games import LiveGame
from roses.server.services import Services, services_of

from .clock_helpers import advance, real_time, timed_game
from .conftest import Player, act, opening, sign_up, true_board, two_player_game
from .hidden import assert_reach_only, walk
from .test_resign import _wotr_game, wotr_until

__all__ = ["real_time"]  # the fixture, used by every test here


@dataclass
class Received:
    path: str  # and headers by their names in lower case
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """A local HTTP server that records every POST and answers the next scripted status
    (201 once the script is used up)."""

    url: str
    received: list[Received] = field(default_factory=list)
    script: list[int] = field(default_factory=list)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    recorded = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            headers = {name.lower(): value for name, value in self.headers.items()}
            recorded.received.append(Received(self.path, headers, body))
            self.send_response(recorded.script.pop(0) if recorded.script else 201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    recorded.url = f"http://127.0.0.1:{server.server_address[1]}"
    yield recorded
    server.shutdown()
    thread.join()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'roses.sqlite3'}",
        reach_plain_http=True,  # the local receiver
        reach_check_seconds=3600,  # the test sends the outbox itself (send_due)
        reach_max_tries=3,
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def services(client: TestClient) -> Services:
    return services_of(client.app)  # type: ignore[arg-type]


def send_due(client: TestClient) -> int:
    """The news heard so far written to the outbox, then what is due sent, now."""
    app = services(client)
    client.portal.call(app.reach.drain)  # type: ignore[union-attr]
    return int(client.portal.call(outbox.send_due, app))  # type: ignore[union-attr]


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Browser:
    """A browser's push subscription, with the private keys only the browser has."""

    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    endpoint: str

    def subscription(self) -> dict[str, Any]:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
        }

    def read(self, message: Received) -> dict[str, Any]:
        plain = http_ece.decrypt(
            message.body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )
        return dict(json.loads(plain))


def subscribe(player: Player, receiver: Receiver) -> Browser:
    browser = Browser(ec.generate_private_key(ec.SECP256R1()), secrets.token_bytes(16),
                      f"{receiver.url}/push/{player.name}")  # fmt: skip
    answer = player.post("/api/push/subscriptions", browser.subscription())
    assert answer.status_code == 201, answer.text
    assert answer.json()["browsers"] == 1
    return browser


def opt_in(player: Player, **kinds: bool) -> None:
    answer = player.client.put("/api/settings/reach", json=kinds, headers=player.headers)
    assert answer.status_code == 200, answer.text


def speak(player: Player, language: str) -> None:
    answer = player.client.put("/api/language", json={"language": language}, headers=player.headers)
    assert answer.status_code == 204, answer.text


def outcomes(client: TestClient) -> list[tuple[str, str | None, int]]:
    with services(client).sessions() as db:
        rows = db.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).all()
        return [(row.kind, row.outcome, row.attempts) for row in rows]


def to_white(client: TestClient, red: Player, white: Player) -> dict[str, Any]:
    """A started game in which Red moved first: White's turn."""
    game = two_player_game(red, white)
    if game["to_act"] == [1]:
        return game
    return act(red, game, opening(client, game))


def secrets_of(client: TestClient, game_id: int) -> list[str]:
    """The cards no one may learn from a message: the draw pile's and both hands."""
    board = true_board(client, game_id)
    cards = [*board.draw_pile, *board.hands[0], *board.hands[1]]
    return [card_name(card) for card in cards]


def user_id(client: TestClient, player: Player) -> int:
    with services(client).sessions() as db:
        found = db.scalar(select(User.id).where(User.name == player.name))
        assert found is not None
        return found


def wait_seen(client: TestClient, game_id: int, version: int) -> None:
    for _ in range(100):
        with services(client).sessions() as db:
            seen = db.scalar(
                select(Seat.seen_version).where(Seat.game_id == game_id, Seat.seat == 1)
            )
        if seen is not None and seen >= version:
            return
        time.sleep(0.02)
    raise AssertionError("the page's seen version never arrived")


def test_a_turn_push_arrives_once_in_the_players_language(
    client: TestClient, receiver: Receiver
) -> None:
    red, white = sign_up(client), sign_up(client)
    speak(white, "de")
    opt_in(white, turn=True)
    browser = subscribe(white, receiver)
    key = white.get("/api/settings/reach").json()["public_key"]
    game = to_white(client, red, white)
    assert send_due(client) == 0  # an open page has reach_grace_seconds to report it seen
    advance(31)
    assert send_due(client) == 1
    [message] = receiver.received
    assert message.path == f"/push/{white.name}"
    # Signed with the server's VAPID key, the one the browser subscribed with.
    assert message.headers["authorization"].startswith("vapid t=")
    assert message.headers["authorization"].endswith(f"k={key}")
    news = browser.read(message)
    assert news["kind"] == "turn" and news["game_id"] == game["id"]
    assert news["player"] == white.name and news["language"] == "de"
    assert news["body"] == f"Du bist am Zug in The Rose King, Spiel {game['id']}."
    assert news["url"].endswith(f"/games/{game['id']}")
    assert_reach_only(news, secrets_of(client, game["id"]))
    # The same turn heard again (another process read the game again): no second message.
    client.portal.call(services(client).games.changed_elsewhere, game["id"])  # type: ignore[union-attr]
    advance(31)
    assert send_due(client) == 0 and len(receiver.received) == 1
    assert outcomes(client) == [("turn", "sent", 1)]


def test_no_push_for_a_turn_already_seen(client: TestClient, receiver: Receiver) -> None:
    red, white = sign_up(client), sign_up(client)
    opt_in(white, turn=True)
    subscribe(white, receiver)
    game = to_white(client, red, white)
    with white.websocket(f"/api/games/{game['id']}/ws") as socket:
        shown = socket.receive_json()
        assert shown["version"] == game["version"]
        socket.send_json({"type": "seen", "version": shown["version"] + 5})  # never past it
        wait_seen(client, game["id"], shown["version"])
    with services(client).sessions() as db:
        seat = db.scalar(select(Seat).where(Seat.game_id == game["id"], Seat.seat == 1))
        assert seat is not None and seat.seen_version == game["version"]
    advance(31)
    assert send_due(client) == 0
    assert receiver.received == [] and outcomes(client) == [("turn", "seen", 1)]


def test_a_refused_push_is_tried_again_later_then_given_up(
    client: TestClient, receiver: Receiver
) -> None:
    red, white = sign_up(client), sign_up(client)
    opt_in(white, turn=True)
    browser = subscribe(white, receiver)
    receiver.script = [500, 500, 500]
    game = to_white(client, red, white)
    advance(31)
    assert send_due(client) == 0 and len(receiver.received) == 1
    assert outcomes(client) == [("turn", None, 1)]
    assert send_due(client) == 0  # not yet due again: 30 s back-off
    advance(31)
    assert send_due(client) == 0 and len(receiver.received) == 2
    advance(61)  # doubled
    assert send_due(client) == 0 and len(receiver.received) == 3
    assert outcomes(client) == [("turn", "gave_up", 3)]  # reach_max_tries
    # The next turn's message goes through after one 503.
    receiver.script = [503]
    moved = act(white, game, white.game(game["id"])["state"]["legal_moves"][0])
    if moved["to_act"] == [0]:
        moved = act(red, moved, red.game(game["id"])["state"]["legal_moves"][0])
    advance(31)
    assert send_due(client) == 0
    advance(31)
    assert send_due(client) == 1
    assert browser.read(receiver.received[-1])["game_id"] == game["id"]
    assert outcomes(client)[-1] == ("turn", "sent", 2)
    advance(8 * 86400)  # a week later the messages done are gone
    send_due(client)
    assert outcomes(client) == []


def test_a_gone_subscription_is_dropped(client: TestClient, receiver: Receiver) -> None:
    red, white = sign_up(client), sign_up(client)
    opt_in(white, turn=True)
    subscribe(white, receiver)
    receiver.script = [410]
    to_white(client, red, white)
    advance(31)
    assert send_due(client) == 0 and len(receiver.received) == 1
    assert white.get("/api/settings/reach").json()["browsers"] == 0
    assert outcomes(client) == []


def test_webhooks_are_signed_and_in_the_players_language(
    client: TestClient, receiver: Receiver
) -> None:
    red, white = sign_up(client), sign_up(client)
    for one, other in ((red, white), (white, red)):  # friends
        answer = one.client.put(f"/api/people/follows/{other.name}", headers=one.headers)
        assert answer.status_code == 204
    speak(white, "it")
    opt_in(white, turn=True, challenge=True, tournament=True)
    hook = white.client.put(
        "/api/settings/webhook", json={"url": f"{receiver.url}/hook"}, headers=white.headers
    )
    assert hook.status_code == 200, hook.text
    secret = hook.json()["secret"]
    assert "secret" not in white.get("/api/settings/reach").json()  # shown once
    game = to_white(client, red, white)
    assert send_due(client) == 1  # the friend's invitation, at once
    advance(31)
    assert send_due(client) == 1  # the turn
    client.portal.call(  # type: ignore[union-attr]
        tell, services(client).reach, user_id(client, white), "tournament", "tournament:1:round:2",
        {"tournament": "Autumn Swiss", "round": 2, "path": "/tournaments/1"},
    )  # fmt: skip
    assert send_due(client) == 1
    bodies = []
    for message in receiver.received:
        expected = "sha256=" + hmac.new(secret.encode(), message.body, hashlib.sha256).hexdigest()
        assert message.headers[SIGNATURE_HEADER.lower()] == expected
        body = json.loads(message.body)
        assert body["content"] == body["text"]  # Discord and Slack
        assert message.headers["x-roses-event"] == body["kind"]
        assert_reach_only(body, secrets_of(client, game["id"]))
        bodies.append(body)
    challenge, turn, tournament = bodies
    assert challenge["text"] == f"{red.name} ti invita a The Rose King, partita {game['id']}."
    assert turn["text"] == f"Tocca a te in The Rose King, partita {game['id']}."
    assert tournament["text"] == "Inizia il turno 2 di Autumn Swiss."
    assert tournament["url"].endswith("/tournaments/1")
    # A webhook taken away gets nothing more.
    assert white.client.delete("/api/settings/webhook", headers=white.headers).status_code == 200
    moved = act(white, game, white.game(game["id"])["state"]["legal_moves"][0])
    if moved["to_act"] == [0]:
        act(red, moved, red.game(game["id"])["state"]["legal_moves"][0])
    advance(31)
    assert send_due(client) == 0 and len(receiver.received) == 3


def test_bad_subscriptions_and_webhooks_are_refused(client: TestClient) -> None:
    white = sign_up(client)
    bad = white.post("/api/push/subscriptions", {"endpoint": "ftp://example.org/x", "keys": {
        "p256dh": "B" * 87, "auth": "A" * 22}})  # fmt: skip
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "endpoint"
    wrong = {"p256dh": "no!", "auth": "A"}
    keys = white.post(
        "/api/push/subscriptions", {"endpoint": "https://push.example.org/x", "keys": wrong}
    )
    assert keys.status_code == 422
    hook = white.client.put("/api/settings/webhook", json={"url": "javascript:alert(1)"},
                            headers=white.headers)  # fmt: skip
    assert hook.status_code == 422 and hook.json()["errors"][0]["field"] == "url"
    assert white.get("/api/settings/reach").json()["webhook_url"] is None
    assert white.get("/api/settings/reach").json()["browsers"] == 0


def test_a_deadline_warning_comes_by_push_too(client: TestClient, receiver: Receiver) -> None:
    one, two = sign_up(client), sign_up(client)
    game = timed_game([one, two], {"kind": "correspondence", "days": 1})
    mover = one if game["to_act"] == [0] else two
    opt_in(mover, deadline=True)  # not the turn itself
    browser = subscribe(mover, receiver)
    advance(0.85 * 86400)
    client.portal.call(send_warnings, services(client))  # type: ignore[union-attr]
    assert send_due(client) == 1
    news = browser.read(receiver.received[0])
    assert news["kind"] == "deadline" and news["game_id"] == game["id"]
    assert f"Your time in The Rose King, game {game['id']}, runs out at " in news["body"]
    assert_reach_only(news, secrets_of(client, game["id"]))
    client.portal.call(send_warnings, services(client))  # type: ignore[union-attr]
    assert send_due(client) == 0  # warned once


def test_each_message_is_taken_by_one_process_only(database_url: str, tmp_path: Path) -> None:
    """Two server processes (two engines on one database) look at the outbox at the same
    moment: every message due is taken by exactly one of them, once."""
    settings = Settings(database_url=database_url, reach_check_seconds=3600)
    with TestClient(create_app(settings)) as client:
        people = [sign_up(client) for _ in range(4)]
        news = []
        for player in people:
            opt_in(player, tournament=True)
            hook = {"url": "https://hooks.example.org/roses"}
            answer = player.client.put("/api/settings/webhook", json=hook, headers=player.headers)
            assert answer.status_code == 200
            news.append(user_id(client, player))
        app = services(client)
        for person in news:
            for round_number in range(1, 6):
                facts = {"tournament": "Spring", "round": round_number}
                subject = f"tournament:7:round:{round_number}"
                added = client.portal.call(tell, app.reach, person, "tournament", subject, facts)  # type: ignore[union-attr]
                assert added == 1
                again = client.portal.call(tell, app.reach, person, "tournament", subject, facts)  # type: ignore[union-attr]
                assert again == 0  # the same news twice: one message
        now = app.now()
        engines = [make_engine(database_url) for _ in range(2)]
        start = threading.Barrier(2)
        taken: list[list[int]] = [[], []]

        def process(index: int) -> None:
            start.wait()
            found = outbox.claim_due(session_factory(engines[index]), settings, now)
            taken[index] = [delivery.id for delivery in found]

        threads = [threading.Thread(target=process, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for engine in engines:
            engine.dispose()
        assert sorted(taken[0] + taken[1]) == sorted(set(taken[0] + taken[1]))
        assert len(taken[0]) + len(taken[1]) == 20
        assert {attempts for _, _, attempts in outcomes(client)} == {1}


def test_only_a_friends_invitation_is_news(client: TestClient, receiver: Receiver) -> None:
    red, white = sign_up(client), sign_up(client)
    opt_in(white, challenge=True)
    subscribe(white, receiver)
    invited = red.post(
        "/api/games", {"seats": [{"kind": "me"}, {"kind": "invite", "name": white.name}]}
    )
    assert invited.status_code == 201
    assert send_due(client) == 0 and outcomes(client) == []  # following nobody: no friend


def test_only_servers_on_the_internet_are_sent_to(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'roses.sqlite3'}")
    with TestClient(create_app(settings)) as client:
        white = sign_up(client)
        inside = ("https://127.0.0.1/x", "https://10.1.2.3/x", "https://[::1]/x",
                  "https://localhost:8000/x", "https://169.254.169.254/x")  # fmt: skip
        for url in ("http://hooks.example.org/x", *inside):
            hook = white.client.put(
                "/api/settings/webhook", json={"url": url}, headers=white.headers
            )
            assert hook.status_code == 422, url
        fine = white.client.put(
            "/api/settings/webhook",
            json={"url": "https://hooks.example.org/x"},
            headers=white.headers,
        )
        assert fine.status_code == 200
        keys = {"p256dh": "B" * 87, "auth": "A" * 22}
        for number in range(12):  # an account keeps its 10 newest browsers
            endpoint = f"https://push.example.org/{number}"
            made = white.post("/api/push/subscriptions", {"endpoint": endpoint, "keys": keys})
            assert made.status_code == 201
        assert made.json()["browsers"] == 10
        with services(client).sessions() as db:
            kept = db.scalars(select(PushSubscription.endpoint)).all()
        assert sorted(kept) == sorted(f"https://push.example.org/{n}" for n in range(2, 12))


def test_a_sealed_plan_is_in_no_message(client: TestClient, receiver: Receiver) -> None:
    """Wars of the Roses: both seats plan at once (WR-13); the messages to the one still
    planning say whose turn it is, never the other's sealed plan."""
    one, two = sign_up(client), sign_up(client)
    opt_in(two, turn=True)
    hook = two.client.put(
        "/api/settings/webhook", json={"url": f"{receiver.url}/hook"}, headers=two.headers
    )
    assert hook.status_code == 200
    game_id = _wotr_game(one, two)
    wotr_until(client, [one, two], game_id, "planning")
    with services(client).sessions() as db:
        live = LiveGame(read_game(db, game_id))
    plan = WOTR.action_json(WOTR.fallback_action(WOTR.bot_input(live.state, 0), random.Random(1)))
    sealed = one.post(f"/api/games/{game_id}/moves", {"move": plan, "version": live.version})
    assert sealed.status_code == 200, sealed.text
    advance(31)
    assert send_due(client) >= 1
    orders = [value for value in walk(plan) if isinstance(value, str)]
    for message in receiver.received:
        body = json.loads(message.body)
        assert_reach_only(body, [])
        assert body["game_id"] == game_id and body["player"] == two.name
        assert json.dumps(plan) not in message.body.decode()
        assert not set(orders) & {str(value) for value in body.values()}


def test_a_choice_made_in_another_process_counts_from_the_next_reading(
    client: TestClient, receiver: Receiver
) -> None:
    """Only the people who chose turns (or invitations) are looked for when a game
    changes; a choice written by another process (here: straight to the database) counts
    once this process reads the choices again, every reach_check_seconds."""
    red, white = sign_up(client), sign_up(client)
    subscribe(white, receiver)  # a browser, but no choice yet: a turn is no news
    game = to_white(client, red, white)
    advance(31)
    assert send_due(client) == 0 and outcomes(client) == []
    app = services(client)
    with app.sessions.begin() as db:  # as another process would
        user = db.scalar(select(User).where(User.name == white.name))
        assert user is not None
        reach.choices_for(db, user.id).turn = True
    assert send_due(client) == 0  # not read yet: this process does not know
    client.portal.call(app.reach.refresh_choosers)  # type: ignore[union-attr]
    white_game = white.game(game["id"])
    game = act(white, white_game, white_game["state"]["legal_moves"][0])
    game = act(red, red.game(game["id"]), red.game(game["id"])["state"]["legal_moves"][0])
    advance(31)
    assert send_due(client) == 1 and outcomes(client) == [("turn", "sent", 1)]
