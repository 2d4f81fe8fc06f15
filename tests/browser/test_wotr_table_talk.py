"""Table talk at a Wars of the Roses game in the browser (WR-20: "Non sono consentite
discussioni strategiche e tattiche tra i giocatori"): during the game the players get
courtesy phrase buttons instead of the text box, each phrase shown in the reader's language
(one player reads Italian); a spectator writes freely in a room the players do not see; once
the game is over the players get the text box back and read the spectators' room."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.server.hidden import assert_chat_only
from tests.server.live_server import LiveServer

from .axe import assert_accessible
from .conftest import PHONE, Screenshots
from .helpers import record_messages, sign_in_page
from .wotr_helpers import person, planning, play_on, two_people_game

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
ASIDE = "Yellow should bid for Calais"


def phrase(page: Page, key: str) -> None:
    page.locator(f'#chat .chat-phrases [data-phrase="{key}"]').click()


def test_courtesy_phrases_during_the_game_and_free_talk_after_it_wr20(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    game_id, [(_, red), (_, yellow)] = two_people_game(server.url)
    assert yellow.put("/api/language", json={"language": "it"}).status_code in (200, 204)
    _, watcher = person(server.url, "spec")
    play_on(game_id, [red, yellow], planning)  # the phrases hold in Planning too
    pages = {
        "red": sign_in_page(new_page(LAPTOP), server.url, red),
        "yellow": sign_in_page(new_page(PHONE), server.url, yellow),
        "spectator": sign_in_page(new_page(LAPTOP), server.url, watcher),
    }
    heard = {name: record_messages(page) for name, page in pages.items()}
    for page in pages.values():
        page.goto(f"{server.url}/games/{game_id}")
        expect(page.locator("#chat")).to_be_visible()
    red_page, yellow_page, spectator = pages["red"], pages["yellow"], pages["spectator"]

    for page in (red_page, yellow_page):  # phrase buttons, no text box
        expect(page.locator("#chat .chat-phrases button")).to_have_count(7)
        expect(page.locator("#chat .chat-form")).to_be_hidden()
    expect(yellow_page.locator('#chat [data-phrase="hello"]')).to_have_text("Ciao!")
    expect(red_page.locator('#chat [data-phrase="hello"]')).to_have_text("Hello!")
    expect(spectator.locator("#chat .chat-form")).to_be_visible()  # spectators talk freely
    expect(spectator.locator("#chat .chat-phrases")).to_be_hidden()

    phrase(red_page, "good-luck")
    expect(red_page.locator("#chat-list li")).to_contain_text("Good luck!")
    expect(yellow_page.locator("#chat-list li .chat-phrase")).to_have_text("Buona fortuna!")
    expect(spectator.locator("#chat-list li")).to_contain_text("Good luck!")
    spectator.get_by_label("Chat message").fill(ASIDE)
    spectator.get_by_label("Chat message").press("Enter")
    expect(spectator.locator("#chat-list li.chat-spectator")).to_contain_text(ASIDE)
    phrase(yellow_page, "thanks")  # after the aside: the players' pages have both by now
    expect(red_page.locator("#chat-list li")).to_have_count(2)
    expect(red_page.locator("#chat-list")).to_contain_text("Thank you!")
    expect(yellow_page.locator("#chat-list")).to_contain_text("Grazie!")
    for page in (red_page, yellow_page):
        expect(page.locator("#chat-list")).not_to_contain_text(ASIDE)
    shots(yellow_page, "courtesy-phrases-it-phone")
    assert_accessible(yellow_page, "wotr-courtesy-phrases-it-phone")
    shots(red_page, "courtesy-phrases-laptop")

    assert red.post(f"/api/games/{game_id}/resign").status_code == 200
    for page in (red_page, yellow_page):  # free talk now, and the spectators' room
        expect(page.locator("#chat .chat-form")).to_be_visible()
        expect(page.locator("#chat .chat-phrases")).to_be_hidden()
        expect(page.locator("#chat-list li.chat-spectator")).to_contain_text(ASIDE)
    yellow_page.locator("#chat .chat-form input").fill("bella partita, alla prossima")
    yellow_page.locator("#chat .chat-form input").press("Enter")
    for page in pages.values():
        expect(page.locator("#chat-list")).to_contain_text("bella partita, alla prossima")
    shots(yellow_page, "free-talk-after-it-phone")
    assert_accessible(red_page, "wotr-free-talk-after-the-game")

    for name in ("red", "yellow"):  # on the players' sockets: phrases, then free text
        chats = [m for m in heard[name] if isinstance(m, dict) and m.get("type") == "chat"]
        for message in chats:
            assert_chat_only(message)
        texts = [m["message"]["text"] for m in chats]
        assert ASIDE not in texts  # it reached them by reading the table after the game
    for page in pages.values():
        assert page.js_errors == []  # type: ignore[attr-defined]
