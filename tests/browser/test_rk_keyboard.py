"""A whole Rose King game against a bot with the keyboard alone: Tab to the hand, arrow keys
to a playable card, Enter to choose it (the focus moves to "Play card"), Enter to play it,
D to draw (RK-8..RK-10, RK-18). After each move and each reply of the bot the focus is back
in the player's hand, never at the top of the page; the live region says every move; the
end says why the game ended and whether the player won. axe-core mid-game and at the end."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from roses.server import Settings
from tests.server.live_server import LiveServer

from .axe import assert_accessible
from .conftest import Screenshots
from .helpers import api_user, log_length, sign_in_page, started_game

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
IN_HAND = ".hand-panel.mine button.card"


def focused(page: Page, selector: str) -> bool:
    script = "(s) => Boolean(document.activeElement && document.activeElement.matches(s))"
    return bool(page.evaluate(script, selector))


def focused_card(page: Page) -> dict[str, str | bool] | None:
    return page.evaluate(  # type: ignore[no-any-return]
        """() => {
          const card = document.activeElement;
          if (!card || !card.matches('.hand-panel.mine button.card')) return null;
          return { name: card.dataset.card, playable: !card.classList.contains('unplayable'),
                   pressed: card.getAttribute('aria-pressed') === 'true',
                   label: card.getAttribute('aria-label') };
        }"""
    )


def tab_to_the_hand(page: Page) -> None:
    for _ in range(40):
        if focused(page, IN_HAND):
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the hand")


def keyboard_move(page: Page) -> str:
    """One move by keys alone; returns what was done."""
    if page.locator(IN_HAND).count() == 0:  # an empty hand: draw (RK-9)
        expect(page.locator('[data-key="draw"]')).to_be_focused()
        page.keyboard.press("d")
        return "draw"
    if not focused(page, IN_HAND):
        tab_to_the_hand(page)
    cards = page.locator(IN_HAND).count()
    for _ in range(cards):
        card = focused_card(page)
        assert card is not None
        if card["playable"]:
            break
        page.keyboard.press("ArrowRight")
    card = focused_card(page)
    assert card is not None
    if not card["playable"]:
        expect(page.locator('[data-key="draw"]')).to_be_visible()  # no card fits: draw (RK-9)
        page.keyboard.press("d")
        return "draw"
    assert "not playable" not in str(card["label"])
    page.keyboard.press("Enter")  # choose it (RK-18): highlighted, the confirm has the focus
    expect(page.locator(f'{IN_HAND}[data-card="{card["name"]}"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator('#actions [data-key="confirm"]')).to_be_focused()
    page.keyboard.press("Enter")
    return str(card["name"])


def test_a_whole_game_with_the_keyboard_alone(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    name = f"keys-{uuid.uuid4().hex[:6]}"
    client = api_user(server.url, name)
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
    game_id = client.post("/api/games", json={"seats": seats}).json()["id"]
    page = sign_in_page(new_page(LAPTOP), server.url, client)
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator(".banner.yours")).to_be_visible()
    moves = 0
    while page.locator(".banner.over").count() == 0:
        if page.locator(".banner.yours").count() == 0:
            page.wait_for_timeout(50)
            continue
        # At a person's pace: the random bot answers at once, and an account may make at most
        # moves_per_second moves a second on average (a faster one is told to slow down).
        page.wait_for_timeout(1000 / Settings().moves_per_second)
        before = log_length(page)
        keyboard_move(page)
        moves += 1
        page.wait_for_function(
            f"document.querySelectorAll('#log li').length > {before}"
            " || document.querySelector('.banner.over') !== null"
        )
        if page.locator(".banner.over").count():
            break
        # The bot replies; the player's focus comes back to their hand, not the page's top.
        expect(page.locator(".banner.yours, .banner.over").first).to_be_visible()
        if page.locator(".banner.yours").count():
            page.wait_for_function(f"document.activeElement.matches('{IN_HAND}, [data-key=draw]')")
            expect(page.locator("#announcer")).to_contain_text(
                re.compile(r"White (plays|draws|cannot move)|Your turn")
            )
        if moves == 10:
            first = page.locator("#log li").first
            expect(first).to_contain_text(re.compile(r"Red (.+ → [a-i][1-9]|draws)"))
            shots(page, "mid-game")
            assert_accessible(page, "rk-keyboard-mid-game")
    expect(page.locator(".banner.over")).to_be_visible()
    assert moves > 15
    end = page.locator("#end")
    expect(end).to_contain_text(
        re.compile(r"The last stone was placed\.|Nobody can move any more\.")
    )
    expect(page.locator(".banner.over")).to_contain_text(
        re.compile(r"You won\.|You lost\.|The game is a draw\.")
    )
    expect(end.locator("tbody tr")).to_have_count(2)  # each team's territories (RK-14)
    expect(page.locator("#announcer")).to_contain_text("Game over.")
    shots(page, "end")
    assert_accessible(page, "rk-keyboard-end")
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_a_light_play_by_keys_waits_on_end_turn_and_undo(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    """RK-19 by keys: after the play the focus is on "End turn"; Undo brings the focus back
    to the hand; End turn makes the play final; after the opponent's play and end of turn
    the focus is back in the hand."""
    suffix = uuid.uuid4().hex[:6]
    red = api_user(server.url, f"light-red-{suffix}")
    white = api_user(server.url, f"light-white-{suffix}")
    game_id = started_game(red, f"light-white-{suffix}", white, light=True)
    page = sign_in_page(new_page(LAPTOP), server.url, red)
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator(".banner.yours")).to_be_visible()
    played = keyboard_move(page)
    expect(page.locator('[data-key="end-turn"]')).to_be_focused()
    expect(page.locator("#announcer")).to_contain_text(f"You played {played}.")
    page.keyboard.press("Shift+Tab")  # to Undo
    expect(page.locator('[data-key="undo"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(f'{IN_HAND}[data-card="{played}"]')).to_be_focused()
    keyboard_move(page)
    expect(page.locator('[data-key="end-turn"]')).to_be_focused()
    shots(page, "light-pending")
    page.keyboard.press("Enter")
    expect(page.locator("#log li")).to_have_count(1)
    view = white.get(f"/api/games/{game_id}").json()
    reply = next(m for m in view["state"]["legal_moves"] if m != "draw")
    pending = white.post(
        f"/api/games/{game_id}/moves", json={"move": reply, "version": view["version"]}
    ).json()
    white.post(f"/api/games/{game_id}/end-turn", json={"version": pending["version"]})
    expect(page.locator("#log li")).to_have_count(2)
    page.wait_for_function(f"document.activeElement.matches('{IN_HAND}, [data-key=draw]')")
    assert page.js_errors == []  # type: ignore[attr-defined]
