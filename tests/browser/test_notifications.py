"""Notifications in the browser: the badge and the title count follow the opponent's moves
live; a browser notification and a sound when a game becomes my turn while I look at
another page; a guest registers and keeps its games, and is warned before signing out as a
guest; the daily digest reaches a real SMTP server and its unsubscribe link works."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import update

from roses.server.db.engine import make_engine, session_factory
from roses.server.db.models import Seat
from tests.browser.axe import assert_accessible
from tests.server.live_server import LiveServer
from tests.server.smtp import body, smtp_server, take_link, unsubscribe_link

from .helpers import api_user, sign_in_page, started_game

pytestmark = pytest.mark.browser

# Records what the page shows through the Notification API and how many tones it makes.
SPIES = """
window.__notes = [];
window.__tones = 0;
const RealNotification = window.Notification;
window.Notification = class extends RealNotification {
  constructor(title, options) { super(title, options); window.__notes.push(title); }
};
const realOscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.__tones += 1;
  return realOscillator.call(this);
};
"""


def _move(client: httpx.Client, game_id: int) -> None:
    view = client.get(f"/api/games/{game_id}").json()
    move = view["state"]["legal_moves"][0]
    answer = client.post(
        f"/api/games/{game_id}/moves", json={"move": move, "version": view["version"]}
    )
    assert answer.status_code == 200, answer.text


def _to_act(client: httpx.Client, game_id: int) -> int:
    return int(client.get(f"/api/games/{game_id}").json()["to_act"][0])


def test_badge_title_notification_and_sound_follow_the_opponents_moves(
    server: LiveServer, new_page: Any, shots: Any
) -> None:
    ann, bob = api_user(server.url, "ann"), api_user(server.url, "bob")
    game_id = started_game(ann, "bob", bob)
    if _to_act(ann, game_id) == 0:
        _move(ann, game_id)  # bob to move: nothing waits for ann
    page: Page = sign_in_page(new_page(), server.url, ann)
    page.context.grant_permissions(["notifications"], origin=server.url)
    page.add_init_script(SPIES)

    page.goto(server.url + "/settings")
    expect(page.get_by_text("Notifications are off.")).to_be_visible()
    assert_accessible(page, "settings")
    page.get_by_role("button", name="Turn on notifications").click()
    expect(page.get_by_role("button", name="Turn off notifications")).to_be_visible()
    page.get_by_label("Play a sound when a game becomes your turn").check()
    expect(page.get_by_text("This server sends no e-mail")).to_be_visible()
    shots(page, "settings")
    settings = ann.get("/api/settings/notifications").json()
    assert settings["browser"] is True and settings["sound"] is True

    page.goto(server.url + "/")
    badge = page.locator("#notify .badge")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    expect(badge).to_be_hidden()
    expect(page).to_have_title("Lobby — roses")
    _move(bob, game_id)  # now ann's turn, while she looks at the lobby
    expect(badge).to_have_text("1")
    expect(page).to_have_title("(1) Lobby — roses")
    page.wait_for_function("window.__notes.length === 1")
    assert "The Rose King" in page.evaluate("window.__notes[0]")
    page.wait_for_function("window.__tones > 0")
    shots(page, "badge")

    page.goto(f"{server.url}/games/{game_id}")
    expect(badge).to_have_text("1")
    expect(page).to_have_title(re.compile(r"^\(1\) "))
    _move(ann, game_id)
    expect(badge).to_be_hidden()
    expect(page).not_to_have_title(re.compile(r"^\(\d+\)"))
    _move(bob, game_id)  # ann's turn again, but she is looking at this very game
    expect(badge).to_have_text("1")
    page.wait_for_timeout(500)
    assert page.evaluate("window.__notes.length") == 0  # a new page: no notification here
    shots(page, "looking")
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_a_guest_is_warned_before_signing_out_and_registers_keeping_its_games(
    server: LiveServer, new_page: Any, shots: Any
) -> None:
    page: Page = new_page()
    page.goto(server.url + "/")
    page.get_by_role("button", name="play as a guest").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
    created = page.request.post(f"{server.url}/api/games", data={"seats": seats})
    assert created.status == 201, created.text()
    game_id = created.json()["id"]
    guest_name = page.request.get(f"{server.url}/api/me").json()["name"]
    expect(page.locator("#notify .badge")).to_have_text("1")  # a guest's games wait too

    page.get_by_role("button", name="Sign out").click()
    warning = page.get_by_role("dialog")
    expect(warning).to_contain_text("nobody can sign in as")
    expect(warning).to_contain_text(guest_name)
    shots(page, "sign-out-warning")
    assert_accessible(page, "guest-sign-out-warning")
    warning.get_by_role("button", name="Cancel").click()
    expect(warning).to_be_hidden()
    assert page.request.get(f"{server.url}/api/me").json()["guest"] is True  # still signed in

    page.get_by_role("button", name="Sign out").click()
    page.get_by_role("link", name="Register and keep my games").click()
    page.wait_for_url("**/settings#register")
    expect(page.get_by_role("heading", name="Keep your games")).to_be_visible()
    assert_accessible(page, "settings-guest")
    page.get_by_label("Name", exact=True).fill("rosalind")
    page.get_by_label("Password (at least 8 characters)").fill("short")
    page.get_by_role("button", name="Register and keep my games").click()
    expect(page.get_by_role("alert")).to_contain_text("password")
    page.get_by_label("Password (at least 8 characters)").fill("a-long-rose")
    page.get_by_role("button", name="Register and keep my games").click()
    expect(page.get_by_text("Signed in as rosalind.")).to_be_visible()
    shots(page, "registered")
    assert_accessible(page, "settings-registered")

    # (exact: the settings page of a registered account offers "Sign out everywhere" too)
    page.get_by_role("button", name="Sign out", exact=True).click()  # no warning now
    page.wait_for_url(server.url + "/")
    page.get_by_label("Name", exact=True).fill("rosalind")
    page.get_by_label("Password").fill("a-long-rose")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(f'.game-row[data-game="{game_id}"]')).to_be_visible()
    shots(page, "signed-in-again")
    assert page.js_errors == []  # type: ignore[attr-defined]


@pytest.fixture
def mailing_server(tmp_path: Path) -> Iterator[tuple[LiveServer, Any]]:
    """A server that sends e-mail to a local SMTP server and looks for digests and
    deadline warnings each second."""
    with smtp_server() as (smtp_url, inbox):
        live = LiveServer(f"sqlite:///{tmp_path / 'roses.sqlite3'}", tmp_path / "server.log")
        live.env = {
            "ROSES_SMTP_URL": smtp_url,
            "ROSES_PUBLIC_URL": live.url,
            "ROSES_DIGEST_HOUR": "0",
            "ROSES_DIGEST_CHECK_SECONDS": "1",
            "ROSES_WARNING_CHECK_SECONDS": "1",
        }
        live.start()
        try:
            yield live, inbox
        finally:
            live.stop()


def test_the_digest_arrives_and_its_link_unsubscribes_in_the_browser(
    mailing_server: tuple[LiveServer, Any], new_page: Any, shots: Any
) -> None:
    server, inbox = mailing_server
    ann, bob = api_user(server.url, "ann"), api_user(server.url, "bob")
    game_id = started_game(ann, "bob", bob)
    if _to_act(ann, game_id) != 0:
        _move(bob, game_id)
    page: Page = sign_in_page(new_page(), server.url, ann)
    page.goto(server.url + "/settings")
    page.get_by_label("E-mail address").fill("ann@")
    page.get_by_label("A daily e-mail listing the games waiting for your move").check()
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#email [role=alert]")).to_contain_text("a name, “@” and a domain")
    shots(page, "bad-address")
    page.get_by_label("E-mail address").fill("ann@example.org")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Saved.")).to_be_visible()
    expect(page.get_by_text("Not confirmed yet")).to_be_visible()  # no digest until then
    assert_accessible(page, "settings-email")
    token = take_link(inbox, "ann@example.org", "confirm-email")
    confirming: Page = new_page()  # the mail program's browser: not signed in
    confirming.goto(f"{server.url}/confirm-email/{token}")
    expect(confirming.get_by_role("status")).to_contain_text("ann@example.org is confirmed")

    [message] = inbox.wait_for(1)
    assert message["To"] == "ann@example.org"
    assert f"{server.url}/games/{game_id}" in body(message)
    link = unsubscribe_link(message)

    reader: Page = new_page()  # the mail program's browser: not signed in
    reader.goto(link)
    expect(
        reader.get_by_text("Stop the daily e-mail of the games waiting for your move?")
    ).to_be_visible()
    assert ann.get("/api/settings/notifications").json()["digest"] is True
    assert_accessible(reader, "unsubscribe")
    shots(reader, "unsubscribe")
    reader.get_by_role("button", name="Unsubscribe").click()
    expect(reader.get_by_role("status")).to_contain_text("no more of")
    shots(reader, "unsubscribed")
    assert ann.get("/api/settings/notifications").json()["digest"] is False
    assert reader.js_errors == []  # type: ignore[attr-defined]


def test_a_deadline_warning_shows_in_the_page_and_arrives_by_mail(
    mailing_server: tuple[LiveServer, Any], new_page: Any, shots: Any
) -> None:
    """The warning is due once 80% of the time is used: here the seat's moment to warn is
    moved into the past in the database (the server's clock runs in another process)."""
    server, inbox = mailing_server
    ann, bob = api_user(server.url, "ann"), api_user(server.url, "bob")
    seats = [{"kind": "me"}, {"kind": "invite", "name": "bob"}]
    limit = {"kind": "correspondence", "days": 1}
    game = ann.post("/api/games", json={"seats": seats, "time_limit": limit}).json()
    assert bob.post(f"/api/games/{game['id']}/join").status_code == 200
    game_id = int(game["id"])
    if _to_act(ann, game_id) != 0:
        _move(bob, game_id)
    choices = {"email": "ann@example.org", "deadline_warning": True}
    assert ann.put("/api/settings/notifications", json=choices).status_code == 200
    token = take_link(inbox, "ann@example.org", "confirm-email")
    assert ann.post("/api/email/confirm", json={"token": token}).status_code == 200
    page: Page = sign_in_page(new_page(), server.url, ann)
    page.goto(server.url + "/")
    expect(page.locator("#notify .badge")).to_have_text("1")

    engine = make_engine(server.database_url)
    try:
        with session_factory(engine).begin() as db:
            db.execute(
                update(Seat)
                .where(Seat.game_id == game_id, Seat.seat == 0)
                .values(warn_at=datetime(2000, 1, 1, tzinfo=UTC))
            )
    finally:
        engine.dispose()
    warning = page.locator(".deadline-warning")
    expect(warning).to_contain_text(f"Your time in game {game_id} is running out")
    shots(page, "deadline-warning")
    assert_accessible(page, "deadline-warning")
    [message] = inbox.wait_for(1)
    assert message["Subject"] == f"roses: your time in game {game_id} runs short"
    assert f"{server.url}/games/{game_id}" in body(message)
    warning.get_by_role("button", name="Dismiss").click()
    expect(warning).to_be_hidden()
    assert page.js_errors == []  # type: ignore[attr-defined]
