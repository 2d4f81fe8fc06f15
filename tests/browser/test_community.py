"""Around the board in the browser: table talk live at both ends (a spectator reads it),
resigning after a confirmation, the rematch offered and accepted from the end banner; in
the lobby, open games appearing live, declining an invitation, games being played now."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, Route, expect

from tests.server.hidden import assert_chat_only
from tests.server.live_server import LiveServer

from .conftest import PHONE, Screenshots
from .helpers import api_user, record_messages, sign_in_page, started_game

pytestmark = pytest.mark.browser


def test_talk_resign_and_rematch_on_the_play_page(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    suffix = uuid.uuid4().hex[:6]
    names = {"red": f"ann-{suffix}", "white": f"bob-{suffix}", "spectator": f"cy-{suffix}"}
    users = {role: api_user(server.url, name) for role, name in names.items()}
    game_id = started_game(users["red"], names["white"], users["white"])
    red = sign_in_page(new_page(), server.url, users["red"])
    white = sign_in_page(new_page(PHONE), server.url, users["white"])
    spectator = sign_in_page(new_page(), server.url, users["spectator"])
    watched = record_messages(spectator)
    for page in (red, white, spectator):
        page.goto(f"{server.url}/games/{game_id}")
        expect(page.locator("#chat")).to_be_visible()

    red.get_by_label("Chat message").fill("good luck, and may the crown be mine")
    red.get_by_label("Chat message").press("Enter")
    for page in (red, white, spectator):  # white and the spectator hear it over the socket
        expect(page.locator("#chat-list li")).to_have_count(1)
        expect(page.locator("#chat-list")).to_contain_text("may the crown be mine")
    # spectators write in a room of their own, which the players read after the game
    expect(spectator.get_by_placeholder("Say something to the other spectators")).to_be_visible()
    shots(white, "chat-phone")

    red.get_by_role("button", name="Resign…").click()
    expect(red.get_by_role("alertdialog")).to_contain_text("Resign this game? You lose at once.")
    red.get_by_role("button", name="Keep playing").click()
    expect(red.get_by_role("alertdialog")).to_have_count(0)
    red.get_by_role("button", name="Resign…").click()
    red.get_by_role("button", name="Yes, resign").click()
    for page in (red, white, spectator):
        expect(page.locator(".banner.over")).to_contain_text("Red resigned · White wins")
    expect(spectator.locator("#rematch")).to_have_count(0)  # not a player: no rematch
    shots(red, "resigned")

    red.get_by_role("button", name="Offer a rematch").click()
    expect(white.get_by_role("button", name="Accept the rematch")).to_be_visible()
    expect(red.locator("#rematch")).to_contain_text(f"waiting for {names['white']}")
    white.get_by_role("button", name="Accept the rematch").click()
    # Accepted: both players are taken to the new game (the spectator stays).
    for page in (red, white):
        page.wait_for_url(re.compile(rf"/games/(?!{game_id}$)\d+$"))
    shots(white, "rematch-phone")
    expect(spectator).to_have_url(re.compile(rf"/games/{game_id}$"))
    # Seats swapped: the one who played Red plays White now.
    expect(red.locator('.hand-panel.mine[data-seat="White"]')).to_be_visible()
    chats = [m for m in watched if isinstance(m, dict) and m.get("type") == "chat"]
    assert len(chats) == 1
    assert_chat_only(chats[0])
    assert red.js_errors == white.js_errors == spectator.js_errors == []  # type: ignore[attr-defined]


def test_the_lobby_shows_open_games_live_and_invitations_can_be_declined(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    suffix = uuid.uuid4().hex[:6]
    host_name, guest_name = f"dee-{suffix}", f"eve-{suffix}"
    host, guest = api_user(server.url, host_name), api_user(server.url, guest_name)
    lobby = sign_in_page(new_page(), server.url, guest)
    lobby.goto(server.url + "/")
    expect(lobby.get_by_role("heading", name="New game")).to_be_visible()
    open_seats = {"seats": [{"kind": "me"}, {"kind": "open"}]}
    opened = host.post("/api/games", json=open_seats).json()["id"]
    open_list = lobby.locator('[data-section="Open games"]')
    expect(open_list.locator(f'.game-row[data-game="{opened}"]')).to_be_visible()  # live
    invited = {"seats": [{"kind": "me"}, {"kind": "invite", "name": guest_name}]}
    invitation = host.post("/api/games", json=invited).json()["id"]
    row = lobby.locator(f'[data-section="Invitations"] .game-row[data-game="{invitation}"]')
    expect(row).to_be_visible()
    shots(lobby, "invitation")
    row.get_by_role("button", name="Decline").click()
    expect(row).to_have_count(0)
    assert host.get(f"/api/games/{invitation}").json()["status"] == "cancelled"  # private
    other = api_user(server.url, f"fay-{suffix}")
    assert other.post(f"/api/games/{opened}/join").status_code == 200
    expect(open_list.locator(f'.game-row[data-game="{opened}"]')).to_have_count(0)
    playing = lobby.locator(f'[data-section="Being played now"] .game-row[data-game="{opened}"]')
    expect(playing).to_be_visible()
    playing.get_by_role("link", name="Watch").click()
    expect(lobby.locator(".panel.actions")).to_contain_text("You are watching this game.")
    assert lobby.js_errors == []  # type: ignore[attr-defined]


def test_a_player_leaves_a_game_that_has_not_started(
    server: LiveServer, new_page: Callable[..., Page]
) -> None:
    suffix = uuid.uuid4().hex[:6]
    host, guest = api_user(server.url, f"gus-{suffix}"), api_user(server.url, f"hal-{suffix}")
    seats = [{"kind": "me"}] + [{"kind": "open"}] * 3
    game_id = host.post("/api/games", json={"players": 4, "seats": seats}).json()["id"]
    assert guest.post(f"/api/games/{game_id}/join").status_code == 200
    page = sign_in_page(new_page(), server.url, guest)
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator(".seat-list")).to_contain_text(f"hal-{suffix} (you)")
    page.get_by_role("button", name="Leave this game").click()
    expect(page.get_by_role("button", name="Take a seat")).to_be_visible()
    expect(page.locator(".seat-list")).not_to_contain_text(f"hal-{suffix}")
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_a_game_opened_while_the_lobby_reads_its_lists_still_appears(
    server: LiveServer, new_page: Callable[..., Page]
) -> None:
    """The lobby listens before it reads: a game opened after the server answered the
    lobby's first reading, but before the page drew it, comes by the socket."""
    suffix = uuid.uuid4().hex[:6]
    host, guest = api_user(server.url, f"hal-{suffix}"), api_user(server.url, f"ivy-{suffix}")
    lobby = sign_in_page(new_page(), server.url, guest)
    opened: list[int] = []

    def open_a_game_meanwhile(route: Route) -> None:
        answer = route.fetch()  # the lists as they were: without the game
        body = answer.body()
        if not opened:
            game = host.post("/api/games", json={"seats": [{"kind": "me"}, {"kind": "open"}]})
            opened.append(game.json()["id"])
            time.sleep(0.5)  # its news reaches the page before the old lists do
        route.fulfill(status=answer.status, headers=answer.headers, body=body)

    lobby.route("**/api/games/mine", open_a_game_meanwhile)
    with lobby.expect_response("**/api/games/mine"):
        lobby.goto(server.url + "/")
    row = lobby.locator(f'[data-section="Open games"] .game-row[data-game="{opened[0]}"]')
    expect(row).to_be_visible()
    assert lobby.js_errors == []  # type: ignore[attr-defined]
