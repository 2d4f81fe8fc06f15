"""People in the browser: two people in two browser contexts follow each other from the
people page (reached from the header), see each other's presence, write messages that
arrive live, invite a friend from the new-game form; one blocks the other (whose open game
disappears from the lobby) and unblocks, from the people page and from a player's page.
On a laptop (1366x768) and a phone (390x844), and in German."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.server.hidden import assert_people_only, assert_private_message_only
from tests.server.live_server import LiveServer

from .axe import assert_accessible
from .conftest import PHONE, Screenshots
from .helpers import api_user, record_messages, sign_in_page

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}


def fits_the_width(page: Page) -> None:
    """Nothing wider than the screen: no sideways scrolling."""
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the screen"


def test_follow_message_block_and_unblock_in_two_browsers(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    suffix = uuid.uuid4().hex[:6]
    ann_name, bob_name = f"ann-{suffix}", f"bob-{suffix}"
    ann_api, bob_api = api_user(server.url, ann_name), api_user(server.url, bob_name)
    ann = sign_in_page(new_page(LAPTOP), server.url, ann_api)
    bob = sign_in_page(new_page(PHONE), server.url, bob_api)
    heard = record_messages(bob)

    ann.goto(server.url)
    ann.locator("#account").get_by_role("link", name="People").click()  # from the header
    expect(ann).to_have_url(f"{server.url}/people")
    ann.get_by_label("Name of the player to follow").fill(bob_name)
    # A change heard meanwhile redraws the lists and keeps the name half typed.
    carol_name = f"carol-{suffix}"
    carol_api = api_user(server.url, carol_name)
    assert carol_api.put(f"/api/people/follows/{ann_name}").status_code == 204
    expect(ann.locator("#followers")).to_contain_text(carol_name)
    expect(ann.get_by_label("Name of the player to follow")).to_have_value(bob_name)
    ann.get_by_role("button", name="Follow", exact=True).click()
    expect(ann.locator("#following")).to_contain_text(bob_name)

    bob.goto(f"{server.url}/people")
    expect(bob.locator("#followers")).to_contain_text(ann_name)
    bob.locator("#followers").get_by_role("button", name="Follow back").click()
    expect(bob.locator("#friends")).to_contain_text(ann_name)
    expect(ann.locator("#friends")).to_contain_text(bob_name)  # heard live, no reload
    expect(ann.locator(f'#friends [data-name="{bob_name}"] .presence')).to_have_text("online")
    expect(bob.locator(f'#friends [data-name="{ann_name}"] .presence')).to_have_text("online")

    ann.locator("#friends").get_by_role("button", name="Message").click()
    ann.get_by_label(f"Message to {bob_name}").fill("a game tonight?")
    ann.get_by_label(f"Message to {bob_name}").press("Enter")
    expect(ann.locator("#conversation .chat-list")).to_contain_text("a game tonight?")
    expect(bob.locator(f'#friends [data-name="{ann_name}"] .unread')).to_have_text("1")
    bob.locator("#friends").get_by_role("button", name="Message").click()
    expect(bob.locator("#conversation .chat-list")).to_contain_text("a game tonight?")
    bob.get_by_label(f"Message to {ann_name}").fill("yes, after dinner")
    bob.get_by_role("button", name="Send").click()
    expect(ann.locator("#conversation .chat-list")).to_contain_text("yes, after dinner")
    fits_the_width(bob)
    fits_the_width(ann)
    assert_accessible(ann, "people-laptop")
    shots(ann, "friends-laptop")
    shots(bob, "friends-phone")

    # A message arriving on another page: a note that leads to the conversation.
    bob.goto(server.url)
    expect(bob.locator("#notify .badge")).to_be_attached()  # drawn once its socket is open
    ann.get_by_label(f"Message to {bob_name}").fill("see you at the table")
    ann.get_by_label(f"Message to {bob_name}").press("Enter")
    note = bob.locator(".message-note")
    expect(note).to_contain_text("see you at the table")
    shots(bob, "message-note-phone")
    note.get_by_role("link").click()
    expect(bob.locator("#conversation")).to_contain_text("see you at the table")

    # Inviting a friend: from the people page's link the form has them in the second seat,
    # and any seat offers every friend.
    ann.goto(f"{server.url}/people")
    ann.locator("#friends").get_by_role("link", name="Invite to a game").click()
    white_seat = ann.get_by_label("Seat White", exact=True)
    expect(white_seat).to_have_value(f"friend:{bob_name}")
    white_seat.select_option("open")
    white_seat.select_option(label=bob_name)
    ann.get_by_role("button", name="Create game").click()
    ann.wait_for_url(f"{server.url}/games/*")
    invitation = int(ann.url.rsplit("/", 1)[1])
    assert bob_api.get("/api/games/mine").json()["invitations"][0]["id"] == invitation
    assert bob_api.post(f"/api/games/{invitation}/decline").status_code == 200

    # Blocking: bob's open game leaves ann's lobby, the friendship ends, and back again.
    open_game = bob_api.post("/api/games", json={"seats": [{"kind": "me"}, {"kind": "open"}]})
    assert open_game.status_code == 201, open_game.text
    ann.goto(server.url)
    expect(ann.locator("main")).to_contain_text(bob_name)  # bob's open game, to join
    ann.goto(f"{server.url}/people")
    ann.locator(f'#friends [data-name="{bob_name}"]').get_by_role("button", name="Block").click()
    expect(ann.locator("#blocked")).to_contain_text(bob_name)
    expect(ann.locator("#friends")).not_to_contain_text(bob_name)
    expect(bob.locator("#friends")).not_to_contain_text(ann_name)
    assert bob.locator("#blocked").inner_text().count(ann_name) == 0  # bob is not told
    shots(ann, "blocked-laptop")
    ann.goto(server.url)
    expect(ann.locator("main")).to_contain_text("Open games")
    expect(ann.locator("main")).not_to_contain_text(bob_name)
    ann.goto(f"{server.url}/people")
    ann.locator("#blocked").get_by_role("button", name="Unblock").click()
    expect(ann.locator("#blocked")).not_to_contain_text(bob_name)
    ann.get_by_label("Name of the player to follow").fill(bob_name)
    ann.get_by_role("button", name="Follow", exact=True).click()
    expect(bob.locator("#followers")).to_contain_text(ann_name)

    # The same from bob's player page: the buttons say what a click does now.
    ann.goto(f"{server.url}/players/{bob_name}")
    buttons = ann.locator(".relation-buttons")
    buttons.get_by_role("button", name="Unfollow").click()
    expect(buttons.get_by_role("button", name="Follow", exact=True)).to_be_visible()
    assert ann_api.get("/api/people").json()["following"] == []
    buttons.get_by_role("button", name="Block").click()
    expect(buttons.get_by_role("button", name="Unblock")).to_be_visible()
    expect(buttons.get_by_role("button", name="Follow", exact=True)).to_have_count(0)
    assert ann_api.get("/api/people").json()["blocked"] == [bob_name]
    buttons.get_by_role("button", name="Unblock").click()
    expect(buttons.get_by_role("button", name="Follow", exact=True)).to_be_visible()
    assert ann_api.get("/api/people").json()["blocked"] == []
    bob.goto(f"{server.url}/players/{bob_name}")  # one's own page has no such buttons
    expect(bob.locator("h1")).to_have_text(bob_name)
    expect(bob.locator(".relation-buttons")).to_have_count(0)

    for message in heard:  # every answer and socket message bob's pages received
        if isinstance(message, dict) and set(message) == {"friends", "following", "followers",
                                                           "blocked", "muted"}:  # fmt: skip
            assert_people_only(message)
        elif isinstance(message, dict) and message.get("type") == "message":
            assert_private_message_only(message)
    assert not ann.js_errors and not bob.js_errors  # type: ignore[attr-defined]


def test_the_people_page_speaks_german_on_a_phone(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    suffix = uuid.uuid4().hex[:6]
    ann_api, bob_api = api_user(server.url, f"ann-{suffix}"), api_user(server.url, f"bob-{suffix}")
    for one, other in ((ann_api, f"bob-{suffix}"), (bob_api, f"ann-{suffix}")):
        assert one.put(f"/api/people/follows/{other}").status_code == 204
    assert ann_api.put("/api/language", json={"language": "de"}).status_code == 204
    ann = sign_in_page(new_page(PHONE), server.url, ann_api)
    ann.goto(f"{server.url}/people")
    expect(ann.locator("h1")).to_have_text("Leute")
    expect(ann.locator("#friends h2")).to_have_text("Freunde")
    expect(ann.locator("#friends .presence")).to_have_text("offline")
    expect(ann.locator("#friends")).to_contain_text("Blockieren")
    expect(ann.locator("#account")).to_contain_text("Leute")
    fits_the_width(ann)
    assert_accessible(ann, "people-de-phone")
    shots(ann, "people-de-phone")
    assert not ann.js_errors  # type: ignore[attr-defined]
