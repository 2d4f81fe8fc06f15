"""The Rose King's play page at common screen sizes: the player's own hand, the board and the
confirm button are inside the window without scrolling (1366x768, 1280x800, 1600x1000 two
players; 390x844 the four-player game, where the actions never cover the hand); a wide
screen puts the moves beside the board. The same in each seat, Red (the creator's default,
hand at the bottom) and White (hand at the top), under a live clock, whose panel above the
game must shrink the board rather than push the hand below the window. A screenshot and
axe-core of each (test artifacts)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.server.live_server import LiveServer

from .axe import assert_accessible
from .conftest import Screenshots
from .helpers import api_user, sign_in_page

pytestmark = pytest.mark.browser

QUICK_BOT = {"kind": "bot", "bot": "random"}


def play_page(server: LiveServer, page_for: Callable[..., Page], width: int, height: int,
              players: int, seat: int = 0, clock: str | None = None) -> Page:  # fmt: skip
    """A new game against quick bots, the signed-in player in ``seat`` (0: Red, who moves
    first; 1: White, after the bot's move), with a live ``clock`` if given."""
    name = f"lay-{uuid.uuid4().hex[:6]}"
    client = api_user(server.url, name)
    seats = [QUICK_BOT] * players
    seats[seat] = {"kind": "me"}
    body: dict[str, Any] = {"players": players, "seats": seats}
    if clock:
        body["time_limit"] = {"kind": "live", "clock": clock}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    page = sign_in_page(page_for({"width": width, "height": height}), server.url, client)
    page.goto(f"{server.url}/games/{answer.json()['id']}")
    expect(page.locator(".banner.yours")).to_be_visible()
    return page


def box(locator: Locator) -> dict[str, Any]:
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not shown"
    return dict(found)


def assert_in_view(page: Page, locator: Locator, what: str) -> dict[str, Any]:
    """Entirely inside the window as it is (scrolled to the top)."""
    size = page.viewport_size
    assert size is not None
    found = box(locator)
    assert found["x"] >= 0 and found["y"] >= 0, f"{what} starts outside the window: {found}"
    assert found["x"] + found["width"] <= size["width"] + 0.5, f"{what} is too wide: {found}"
    assert found["y"] + found["height"] <= size["height"] + 0.5, f"{what} is below: {found}"
    return found


def overlaps(one: dict[str, Any], other: dict[str, Any]) -> bool:
    return not (
        one["x"] + one["width"] <= other["x"]
        or other["x"] + other["width"] <= one["x"]
        or one["y"] + one["height"] <= other["y"]
        or other["y"] + other["height"] <= one["y"]
    )


def choose_a_card(page: Page) -> Locator:
    """A playable card chosen (RK-18): the confirm button shows; then back to the top."""
    page.locator(".hand-panel.mine button.card:not(.unplayable)").first.click()
    confirm = page.locator('#actions [data-key="confirm"]')
    expect(confirm).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    return confirm


@pytest.mark.parametrize(
    ("width", "height", "players"),
    [(1366, 768, 2), (1280, 800, 2), (1600, 1000, 2), (390, 844, 4)],
    ids=["1366x768", "1280x800", "1600x1000", "phone-390x844-four"],
)
def test_hand_board_and_confirm_are_in_the_window_without_scrolling(
    server: LiveServer,
    new_page: Callable[..., Page],
    shots: Screenshots,
    width: int,
    height: int,
    players: int,
) -> None:
    page = play_page(server, new_page, width, height, players)
    confirm = choose_a_card(page)
    assert page.evaluate("window.scrollY") == 0
    page.screenshot(path=str(shots.folder / f"window-{width}x{height}.png"))  # as seen
    shots(page, f"{width}x{height}")
    hand = assert_in_view(page, page.locator(".hand-panel.mine"), "the player's hand")
    board = assert_in_view(page, page.locator("#board"), "the board")
    assert_in_view(page, confirm, "the confirm button")
    actions = box(page.locator("#actions"))
    assert not overlaps(actions, hand), "the action panel covers the hand"
    assert board["width"] >= min(width - 40, 400), f"the board is too small: {board}"
    assert_accessible(page, f"rk-layout-{width}x{height}")
    if width >= 1600:  # a wide screen uses its width: the moves beside the board
        log = box(page.locator(".log-panel"))
        assert log["x"] >= board["x"] + board["width"] and log["y"] < board["y"] + board["height"]
        assert log["x"] + log["width"] > 1300


@pytest.mark.parametrize(
    ("width", "height"),
    [(1366, 768), (1280, 800), (390, 844)],
    ids=["1366x768", "1280x800", "phone"],
)
@pytest.mark.parametrize("seat", [0, 1], ids=["red", "white"])
def test_each_seat_sees_its_hand_and_confirm_under_a_live_clock(
    server: LiveServer,
    new_page: Callable[..., Page],
    shots: Screenshots,
    width: int,
    height: int,
    seat: int,
) -> None:
    page = play_page(server, new_page, width, height, 2, seat=seat, clock="3+2")
    expect(page.locator(".game-clocks .seat-clock")).to_have_count(2)
    confirm = choose_a_card(page)
    page.screenshot(path=str(shots.folder / f"window-{width}x{height}-seat{seat}.png"))
    hand = page.locator(".hand-panel.mine")
    if width >= 1000:  # a laptop: nothing to scroll for
        assert page.evaluate("window.scrollY") == 0
        assert_in_view(page, page.locator(".game-clocks"), "the clocks")
        hand_box = assert_in_view(page, hand, "the player's hand")
        assert_in_view(page, confirm, "the confirm button")
        assert_in_view(page, page.locator("#board"), "the board")
        assert not overlaps(box(page.locator("#actions")), hand_box), "the actions cover the hand"
    else:  # a phone scrolls, but the hand and the sticky actions never cover each other
        for scroll in (0, 300, 10_000):
            page.evaluate(f"window.scrollTo(0, {scroll})")
            assert not overlaps(box(page.locator("#actions")), box(hand)), f"scrolled to {scroll}"
        hand.scroll_into_view_if_needed()
        assert_in_view(page, hand, "the player's hand, scrolled to")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_on_a_phone_the_actions_never_cover_the_hand_when_scrolled(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    """Four players on a phone: wherever the page is scrolled, no panel floats over the hand."""
    page = play_page(server, new_page, 390, 844, 4)
    choose_a_card(page)
    hand = page.locator(".hand-panel.mine")
    for scroll in (0, 200, 400, 10_000):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        hand_box, actions = box(hand), box(page.locator("#actions"))
        assert not overlaps(actions, hand_box), f"scrolled to {scroll}"
    shots(page, "phone-scrolled")
