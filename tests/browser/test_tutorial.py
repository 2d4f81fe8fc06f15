"""The Rose King tutorial walked to the end with clicks, one wrong move answered with a hint;
the rules pages in English and German; axe-core on each page state (1366 x 768)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import assert_accessible
from tests.browser.helpers import api_user, sign_in_page
from tests.server.live_server import LiveServer

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}


def choose(page: Page, card: str, *, hero: bool = False) -> None:
    page.locator(f'button.card[data-card="{card}"]').click()
    name = f"Play {card} with a hero" if hero else f"Play {card}"
    page.get_by_role("button", name=name, exact=True).click()


def accepted(page: Page, shots: Any, label: str, *, last: bool = False) -> None:
    expect(page.locator(".tutorial-message.done")).to_be_visible()
    shots(page, label)
    page.get_by_role("button", name="Finish" if last else "Next step").click()


def test_the_tutorial_walked_to_the_end(server: LiveServer, new_page: Any, shots: Any) -> None:
    page: Page = new_page(LAPTOP)
    page.goto(server.url + "/tutorial/roseking")
    page.get_by_role("button", name="Start the tutorial").click()
    expect(page.get_by_role("heading", name="Play a power card")).to_be_visible()
    assert_accessible(page, "tutorial-first-step")
    shots(page, "play-card")

    # A legal move that is not the one asked for: a hint, the position unchanged (RK-8).
    choose(page, "N3")
    hint = page.locator(".tutorial-message.hint")
    expect(hint).to_contain_text("NE3")
    expect(page.get_by_role("button", name="Play N3", exact=True)).to_be_focused()
    expect(page.locator('[data-cell="e8"]')).not_to_contain_text("red stone")
    assert page.locator("circle.stone").count() == 0
    assert_accessible(page, "tutorial-hint")
    shots(page, "hint")

    choose(page, "NE3")
    expect(page.locator('circle.stone.red[data-stone="h8"]')).to_be_visible()
    accepted(page, shots, "play-card-done")

    expect(page.get_by_role("heading", name="Take a stone with a hero")).to_be_visible()
    choose(page, "NE2", hero=True)
    expect(page.locator('circle.stone.red[data-stone="i8"]')).to_be_visible()
    accepted(page, shots, "hero-done")

    expect(page.get_by_role("heading", name="Draw a card")).to_be_visible()
    page.get_by_role("button", name="Draw a card").click()
    expect(page.locator(".hand-panel.mine .card")).to_have_count(5)
    accepted(page, shots, "draw-done")

    expect(page.get_by_role("heading", name="When a hero is a must")).to_be_visible()
    choose(page, "SE2", hero=True)
    accepted(page, shots, "forced-hero-done")

    expect(page.get_by_role("heading", name="A forced pass")).to_be_visible()
    page.reload()  # a reload (e.g. another language chosen) comes back to the same step
    expect(page.get_by_role("heading", name="A forced pass")).to_be_visible()
    page.get_by_role("button", name="Pass").click()
    accepted(page, shots, "pass-done")

    expect(page.get_by_role("heading", name="The last stone and the score")).to_be_visible()
    choose(page, "NE3")  # ties the score, and loses on the largest territory (RK-15)
    expect(page.locator(".tutorial-message.hint")).to_contain_text("114 (8, 26)")
    choose(page, "SW3")
    expect(page.locator(".tutorial-scores")).to_contain_text("124 (7, 26)")
    expect(page.locator("rect.territory.red").first).to_be_attached()
    expect(page.locator(".tutorial-board")).not_to_contain_text("null")
    assert_accessible(page, "tutorial-scored")
    accepted(page, shots, "last-stone-done", last=True)

    expect(page.get_by_role("heading", name="Tutorial complete")).to_be_visible()
    expect(page.get_by_role("link", name="Play against a bot")).to_have_attribute("href", "/")
    expect(page.get_by_role("link", name="Read the rules")).to_have_attribute(
        "href", "/rules/roseking"
    )
    assert_accessible(page, "tutorial-summary")
    shots(page, "summary")
    assert not page.js_errors  # type: ignore[attr-defined]


def test_rules_pages_in_english_and_german(server: LiveServer, new_page: Any, shots: Any) -> None:
    page: Page = new_page(LAPTOP)
    page.goto(server.url + "/rules/roseking")
    expect(page.get_by_role("heading", level=1)).to_have_text("The Rose King: the rules")
    expect(page.get_by_role("link", name="interactive tutorial")).to_be_visible()
    assert_accessible(page, "rules-roseking-en")
    shots(page, "rules-en")

    page.get_by_role("link", name="Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", level=1)).to_have_text("Rosenkönig: die Spielregel")
    expect(page.get_by_role("heading", name="Heldenkarte zusammen mit Machtkarte")).to_be_visible()
    assert_accessible(page, "rules-roseking-de")
    shots(page, "rules-de")

    page.goto(server.url + "/rules/wotr?lang=de")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Rosenkriege")
    assert_accessible(page, "rules-wotr-de")
    shots(page, "rules-wotr-de")
    assert not page.js_errors  # type: ignore[attr-defined]


def test_the_lobby_and_a_game_page_link_the_rules(
    server: LiveServer, new_page: Any, shots: Any
) -> None:
    reader = api_user(server.url, "reader")
    game = reader.post("/api/games", json={"seats": [{"kind": "me"}, {"kind": "open"}]})
    assert game.status_code == 201, game.text
    page: Page = sign_in_page(new_page(LAPTOP), server.url, reader)
    page.goto(server.url + "/")
    learn = page.get_by_role("navigation", name="Learn to play")
    expect(learn.get_by_role("link", name="Rules of The Rose King")).to_have_attribute(
        "href", "/rules/roseking"
    )
    expect(learn.get_by_role("link", name="Rules of Wars of the Roses")).to_have_attribute(
        "href", "/rules/wotr"
    )
    expect(learn.get_by_role("link", name="The Rose King tutorial")).to_have_attribute(
        "href", "/tutorial/roseking"
    )
    shots(page, "lobby")
    page.goto(f"{server.url}/games/{game.json()['id']}")
    rules = page.locator(".game-meta").get_by_role("link", name="Rules")
    expect(rules).to_have_attribute("href", "/rules/roseking")
    rules.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("The Rose King: the rules")
    assert not page.js_errors  # type: ignore[attr-defined]
