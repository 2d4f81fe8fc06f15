"""E-mail through a real SMTP server (aiosmtpd, started here): the daily digest of games
waiting for a person, at most one a day even from two server processes, none without an
opt-in or with nothing waiting, and an unsubscribe link that works without signing in."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.games.wotr import WOTR
from roses.roseking import card_name
from roses.server import Settings, create_app
from roses.server.clocks.time_control import due_warnings, server_time
from roses.server.db.store import read_game
from roses.server.notify.deadline_warnings import claim_warning, send_warnings
from roses.server.notify.digest import send_digests
from roses.server.notify.mail import smtp_server as read_smtp_url
from roses.server.play.live_games import LiveGame
from roses.server.services import services_of

from .clock_helpers import advance, real_time, timed_game
from .conftest import Player, sign_up, true_board, two_player_game
from .hidden import assert_mail_hides
from .smtp import Inbox, body, smtp_server, take_link, unsubscribe_link
from .test_resign import _wotr_game, wotr_until

pytestmark = pytest.mark.timeout(90)
__all__ = ["real_time"]  # clock_helpers' fixture: every test starts at the real time

SETTINGS = "/api/settings/notifications"
MORNING = datetime(2031, 5, 6, 8, 0, tzinfo=UTC)  # after the digest hour, a day of its own
NIGHT = datetime(2031, 5, 6, 3, 0, tzinfo=UTC)  # before it


@pytest.fixture
def smtp() -> Iterator[tuple[str, Inbox]]:
    with smtp_server() as server:
        yield server


def _settings(database_url: str, smtp_url: str) -> Settings:
    return Settings(
        database_url=database_url,
        smtp_url=smtp_url,
        public_url="http://testserver",
        digest_hour=7,
        digest_check_seconds=3600,
    )


@pytest.fixture
def mail_client(
    database_url: str, smtp: tuple[str, Inbox], monkeypatch: pytest.MonkeyPatch
) -> Iterator[TestClient]:
    # The server's own digest pass at start-up runs at "now": the real time, often after
    # the digest hour. Under load it can run after a test has opted in and send a digest
    # of its own, so the server's clock for digests is set to a night, before the hour;
    # the tests send theirs at the times they name.
    monkeypatch.setattr("roses.server.notify.digest.utcnow", lambda: NIGHT)
    with TestClient(create_app(_settings(database_url, smtp[0]))) as client:
        yield client


def _digests(client: TestClient, now: datetime) -> None:
    """The digest's periodic look at ``now``. (On PostgreSQL, whose database the tests
    share, other tests' accounts may get theirs too: the tests count by address.)"""
    client.portal.call(send_digests, services_of(client.app), now)  # type: ignore[union-attr]


def _address(label: str) -> str:
    return f"{label}-{uuid.uuid4().hex[:8]}@example.org"


def _opt_in(player: Player, email: str, inbox: Inbox, **choices: bool) -> None:
    """Opt in with ``email``, confirmed from the link the server sends there."""
    body_ = {"email": email, "digest": True, **choices}
    answer = player.client.put(SETTINGS, json=body_, headers=player.headers)
    assert answer.status_code == 200, answer.text
    token = take_link(inbox, email, "confirm-email")
    confirmed = player.client.post("/api/email/confirm", json={"token": token})
    assert confirmed.status_code == 200, confirmed.text


def _game_waiting_for(red: Player, white: Player) -> tuple[dict[str, Any], Player, Player]:
    game = two_player_game(red, white)
    mover, other = (red, white) if game["to_act"] == [0] else (white, red)
    return game, mover, other


def test_the_digest_arrives_and_its_link_unsubscribes(
    mail_client: TestClient, smtp: tuple[str, Inbox]
) -> None:
    inbox = smtp[1]
    red, white = sign_up(mail_client), sign_up(mail_client)
    game, mover, other = _game_waiting_for(red, white)
    mover_address, other_address = _address("mover"), _address("other")
    _opt_in(mover, mover_address, smtp[1])
    _opt_in(other, other_address, smtp[1])

    _digests(mail_client, MORNING)
    assert inbox.to(other_address) == []  # nothing waits for the other player
    [message] = inbox.to(mover_address)
    assert message["Subject"] == "roses: a game is waiting for your move"
    assert message["From"] == "roses <roses@localhost>"
    text = body(message)
    assert f"Hello {mover.name}," in text
    assert f"The Rose King, game {game['id']} (with {other.name}): your move since" in text
    assert f"http://testserver/games/{game['id']}" in text
    assert "http://testserver/settings" in text

    link = unsubscribe_link(message)
    assert link.startswith("http://testserver/unsubscribe/")
    page = mail_client.get(link)  # what the mail program opens: a page that asks first
    assert page.status_code == 200 and "/static/js/unsubscribe.js" in page.text
    token = link.rsplit("/", 1)[1]
    assert mail_client.get(f"/api/unsubscribe/{token}").json() == {
        "kind": "digest",
        "subscribed": True,
    }
    mine = mover.get(SETTINGS).json()
    assert mine["digest"] is True  # opening the link changed nothing
    stopped = mail_client.post("/api/unsubscribe", json={"token": token})  # no sign-in
    assert stopped.status_code == 200, stopped.text
    assert stopped.json() == {"kind": "digest", "subscribed": False}
    mine = mover.get(SETTINGS).json()
    assert mine["digest"] is False and mine["email"] == mover_address

    _digests(mail_client, MORNING + timedelta(days=1))
    assert len(inbox.to(mover_address)) == 1


def test_a_changed_or_foreign_token_is_refused(
    mail_client: TestClient, smtp: tuple[str, Inbox]
) -> None:
    red = sign_up(mail_client)
    _opt_in(red, _address("red"), smtp[1])
    for token in ("WzEsImRpZ2VzdCJd.forged-signature", "not-a-token-at-all"):
        refused = mail_client.post("/api/unsubscribe", json={"token": token})
        assert refused.status_code == 404, refused.text
        assert "not valid" in refused.json()["detail"]
        assert mail_client.get(f"/api/unsubscribe/{token}").status_code == 404
    assert red.get(SETTINGS).json()["digest"] is True


def test_no_digest_without_an_opt_in_or_before_the_digest_hour(
    mail_client: TestClient, smtp: tuple[str, Inbox]
) -> None:
    red, white = sign_up(mail_client), sign_up(mail_client)
    _game, mover, _other = _game_waiting_for(red, white)
    address = _address("m")
    saved = mover.client.put(SETTINGS, json={"email": address}, headers=mover.headers)
    assert saved.status_code == 200
    token = take_link(smtp[1], address, "confirm-email")
    assert mover.client.post("/api/email/confirm", json={"token": token}).status_code == 200
    _digests(mail_client, MORNING)  # a confirmed address, but no opt-in
    assert smtp[1].to(address) == []
    opt_in = {"email": address, "digest": True}
    assert mover.client.put(SETTINGS, json=opt_in, headers=mover.headers).status_code == 200
    _digests(mail_client, MORNING.replace(hour=6))  # digest_hour is 7
    assert smtp[1].to(address) == []
    _digests(mail_client, MORNING)
    assert len(smtp[1].to(address)) == 1


def test_one_digest_a_day_even_from_two_server_processes(
    database_url: str, smtp: tuple[str, Inbox]
) -> None:
    settings = _settings(database_url, smtp[0])
    with TestClient(create_app(settings)) as first, TestClient(create_app(settings)) as second:
        red, white = sign_up(first), sign_up(first)
        _game, mover, _other = _game_waiting_for(red, white)
        address = _address("once")
        _opt_in(mover, address, smtp[1])
        _digests(first, MORNING)
        _digests(second, MORNING)  # the day is claimed in the database
        _digests(first, MORNING + timedelta(hours=10))
        assert len(smtp[1].to(address)) == 1
        _digests(second, MORNING + timedelta(days=1))
        assert len(smtp[1].to(address)) == 2


def test_a_digest_that_could_not_be_sent_goes_out_at_the_next_look(
    database_url: str, smtp: tuple[str, Inbox]
) -> None:
    with smtp_server() as (closed_url, _unused):
        pass  # its port is free again: nothing listens there
    with TestClient(create_app(_settings(database_url, closed_url))) as client:
        red, white = sign_up(client), sign_up(client)
        _game, mover, _other = _game_waiting_for(red, white)
        address = _address("later")
        settings = services_of(client.app).settings  # type: ignore[attr-defined]
        settings.smtp_url = smtp[0]  # the confirmation goes; then the mail server is down
        _opt_in(mover, address, smtp[1])
        settings.smtp_url = closed_url
        _digests(client, MORNING)  # refused: nothing listens
        settings.smtp_url = smtp[0]
        _digests(client, MORNING + timedelta(minutes=10))
    assert len(smtp[1].to(address)) == 1


def test_the_digest_names_each_waiting_game_and_no_secret(
    mail_client: TestClient, smtp: tuple[str, Inbox]
) -> None:
    """RK-5: the draw pile's order; WR-13: the other seat's sealed plan."""
    one, two = sign_up(mail_client), sign_up(mail_client)
    rose, mover, _other = _game_waiting_for(one, two)
    wotr_id = _wotr_game(one, two)
    wotr_until(mail_client, [one, two], wotr_id, "planning")
    with services_of(mail_client.app).sessions() as db:  # type: ignore[attr-defined]
        live = LiveGame(read_game(db, wotr_id))
    plan = WOTR.action_json(WOTR.fallback_action(WOTR.bot_input(live.state, 0), random.Random(3)))
    sealed = one.post(
        f"/api/games/{wotr_id}/moves",
        {"move": plan, "version": live.version},
    )
    assert sealed.status_code == 200, sealed.text
    address = _address("two")
    _opt_in(two, address, smtp[1])
    _digests(mail_client, MORNING)
    [message] = smtp[1].to(address)
    text = body(message)
    assert f"Wars of the Roses, game {wotr_id}" in text  # two's plan is still to make
    assert (f"game {rose['id']}," in text) == (mover is two)
    pile = [card_name(card) for card in true_board(mail_client, rose["id"]).draw_pile]
    plan_words = [v for v in _strings(plan) if len(v) > 2]
    assert_mail_hides(text, pile + plan_words)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def test_smtp_urls_are_read_or_refused_saying_why() -> None:
    server = read_smtp_url("smtps://me%40host:p%3Ass@mail.example.org")
    assert (server.host, server.port, server.implicit_tls) == ("mail.example.org", 465, True)
    assert (server.username, server.password) == ("me@host", "p:ss")
    plain = read_smtp_url("smtp://127.0.0.1:2525")
    assert (plain.port, plain.implicit_tls, plain.username) == (2525, False, None)
    for url, reason in [
        ("http://mail.example.org", "smtp:// or smtps://"),
        ("smtp://", "names no host"),
        ("smtp://host:99999", "port"),
    ]:
        with pytest.raises(ValueError, match=reason):
            read_smtp_url(url)


CORRESPONDENCE = {"kind": "correspondence", "days": 1}


def _warnings(client: TestClient) -> None:
    client.portal.call(send_warnings, services_of(client.app))  # type: ignore[union-attr]


def test_a_deadline_warning_by_mail_and_in_the_page_once_80_percent_is_used(
    mail_client: TestClient, smtp: tuple[str, Inbox]
) -> None:
    one, two = sign_up(mail_client), sign_up(mail_client)
    game = timed_game([one, two], CORRESPONDENCE)
    mover, other = (one, two) if game["to_act"] == [0] else (two, one)
    address, other_address = _address("late"), _address("calm")
    _opt_in(mover, address, smtp[1], digest=False, deadline_warning=True)
    _opt_in(other, other_address, smtp[1], digest=False, deadline_warning=True)
    with mover.websocket("/api/lobby/ws") as lobby:
        assert lobby.receive_json()["type"] == "hello"
        advance(0.7 * 86400)
        _warnings(mail_client)
        assert smtp[1].to(address) == []  # 70% used: not yet
        advance(0.15 * 86400)
        _warnings(mail_client)
        note = lobby.receive_json()
        assert note["type"] == "deadline" and note["game_id"] == game["id"]
        assert set(note) == {"type", "game_id", "deadline"}
    [message] = smtp[1].to(address)
    assert message["Subject"] == f"roses: your time in game {game['id']} runs short"
    text = body(message)
    assert f"game {game['id']} (with {other.name}), runs out at" in text
    link = unsubscribe_link(message)
    _warnings(mail_client)
    assert len(smtp[1].to(address)) == 1  # once per decision
    assert smtp[1].to(other_address) == []  # not their turn
    token = link.rsplit("/", 1)[1]
    stopped = mail_client.post("/api/unsubscribe", json={"token": token}).json()
    assert stopped == {"kind": "deadline_warning", "subscribed": False}
    assert mover.get(SETTINGS).json()["deadline_warning"] is False


def test_no_deadline_mail_while_the_game_is_open_nor_for_a_live_clock(
    mail_client: TestClient, smtp: tuple[str, Inbox]
) -> None:
    one, two = sign_up(mail_client), sign_up(mail_client)
    game = timed_game([one, two], CORRESPONDENCE)
    mover = one if game["to_act"] == [0] else two
    live = timed_game([one, two], {"kind": "live", "clock": "5+5"})
    live_mover = one if live["to_act"] == [0] else two
    address, live_address = _address("watching"), _address("live")
    _opt_in(mover, address, smtp[1], digest=False, deadline_warning=True)
    if live_mover is not mover:
        _opt_in(live_mover, live_address, smtp[1], digest=False, deadline_warning=True)
    with mover.websocket(f"/api/games/{game['id']}/ws") as socket:
        socket.receive_json()
        advance(0.9 * 86400)
        _warnings(mail_client)
    assert smtp[1].to(address) == [] and smtp[1].to(live_address) == []


def test_two_processes_seeing_the_same_warning_give_it_once(
    mail_client: TestClient, smtp: tuple[str, Inbox]
) -> None:
    """Both read the warnings due, then each claims: the second finds it given already."""
    one, two = sign_up(mail_client), sign_up(mail_client)
    game = timed_game([one, two], CORRESPONDENCE)
    advance(0.9 * 86400)
    sessions = services_of(mail_client.app).sessions
    now = server_time()
    with sessions() as db:
        [seen_by_first] = [w for w in due_warnings(db, now) if w.game_id == game["id"]]
    with sessions() as db:
        [seen_by_second] = [w for w in due_warnings(db, now) if w.game_id == game["id"]]
    with sessions.begin() as db:
        assert claim_warning(db, seen_by_first, now) is not None
    with sessions.begin() as db:
        assert claim_warning(db, seen_by_second, now) is None
