"""Two people register, create a game and play it to the end by clicking (RK-18, RK-21)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, expect

from roses.roseking.record import replay
from tests.server.hidden import assert_states_hide_the_pile, history
from tests.server.live_server import LiveServer

from .conftest import PHONE, Screenshots
from .helpers import (
    create_game,
    is_my_turn,
    log_length,
    make_a_move,
    record_messages,
    register,
)

pytestmark = pytest.mark.browser


def test_two_people_play_a_game_to_the_end_by_clicking(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    suffix = uuid.uuid4().hex[:6]
    alice_name, bob_name = f"alice-{suffix}", f"bob-{suffix}"
    alice = new_page()
    bob = new_page(PHONE)  # one of them on a phone-sized screen
    received = record_messages(alice), record_messages(bob)  # filled as the pages run
    alice.goto(server.url + "/")
    expect(alice.get_by_role("button", name="Create account")).to_be_visible()
    shots(alice, "sign-in")
    register(alice, server.url, alice_name)
    register(bob, server.url, bob_name)
    game_id = create_game(alice, {"Red": "me", "White": f"invite:{bob_name}"})
    expect(alice.locator("#status")).to_have_text("Waiting for players")
    bob.goto(server.url + "/")
    invitation = bob.locator(f'.game-row[data-game="{game_id}"]')
    shots(bob, "lobby-invitation")
    invitation.get_by_role("button", name="Join").click()
    bob.wait_for_url(f"**/games/{game_id}")
    expect(alice.locator("#status")).to_have_text("Your turn")  # the WebSocket told Alice
    shots(alice, "start")
    shots(bob, "start-phone")

    pages = [alice, bob]
    moves = 0
    while alice.locator(".banner.over").count() == 0:
        mover = next((page for page in pages if is_my_turn(page)), None)
        if mover is None:
            alice.wait_for_timeout(50)
            continue
        make_a_move(mover)
        moves += 1
        if moves == 20:
            shots(alice, "middle")
            shots(bob, "middle-phone")
    expect(bob.locator(".banner.over")).to_be_visible()
    shots(alice, "game-over")
    shots(bob, "game-over-phone")

    banner = alice.locator(".banner.over").inner_text()
    assert re.search(r"(Red wins|White wins|draw)", banner)
    assert re.search(r"Red \d+ \(\d+, \d+\) · White \d+ \(\d+, \d+\)", banner)  # RK-21
    assert alice.locator(".territory").count() > 0  # territories highlighted
    with httpx.Client(base_url=server.url) as api:
        api.post("/api/accounts/login", json={"name": alice_name, "password": "secret-rose"})
        final = api.get(f"/api/games/{game_id}").json()
    assert final["status"] == "finished"
    assert log_length(alice) == len(final["log"]) == log_length(bob)
    for team in ("red", "white"):
        shown = alice.locator(f'[data-score="{team}"]').inner_text()
        assert shown == final["result"][team]

    # Nothing either browser received while the game ran showed the draw pile's order.
    with httpx.Client(base_url=server.url) as api:
        api.post("/api/accounts/login", json={"name": bob_name, "password": "secret-rose"})
        positions = history(replay(api.get(f"/api/games/{game_id}/record").json()))
    messages = [message for page_messages in received for message in page_messages]
    states = sum(assert_states_hide_the_pile(message, positions) for message in messages)
    assert states > 2 * moves

    # Replay the finished game move by move, and download its record.
    alice.get_by_role("link", name="Replay").click()
    alice.wait_for_url(f"**/games/{game_id}/replay")
    expect(alice.locator("#replay-position")).to_have_text("Start of the game")
    alice.get_by_role("button", name="next").click()
    expect(alice.locator("#replay-position")).to_contain_text("Move 1 of")
    assert alice.locator(".stone").count() in (0, 1)
    shots(alice, "replay")
    with alice.expect_download() as download:
        alice.get_by_role("link", name="Download record").click()
    record = download.value
    assert record.suggested_filename == f"roseking-{game_id}.json"
    assert alice.js_errors == [] and bob.js_errors == []  # type: ignore[attr-defined]
    bob.goto(server.url + "/")
    bob.locator(".account-menu > summary").click()  # on a phone the links fold into a menu
    bob.get_by_role("button", name="Sign out").click()
    expect(bob.get_by_role("button", name="Create account")).to_be_visible()
