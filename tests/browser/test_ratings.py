"""Ratings in the browser: a rated game chosen in the lobby, then the leaderboard and the
player's page with the new rating and its history plot. A bot without strengths (random) is
chosen without one and rated by its name alone."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.server.live_server import LiveServer

from .conftest import Screenshots
from .helpers import create_game, register

pytestmark = pytest.mark.browser


def test_a_rated_game_shows_on_the_leaderboard_and_the_profile(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    name = f"ann-{uuid.uuid4().hex[:6]}"
    page = new_page()
    register(page, server.url, name)
    page.get_by_label("Rated").check()
    page.get_by_label("Seat White", exact=True).select_option("bot")
    page.get_by_label("Bot in seat White", exact=True).select_option("random")
    expect(page.get_by_label("Strength of the bot in seat White", exact=True)).to_be_hidden()
    create_game(page, {"Red": "me", "White": "bot"})
    page.get_by_role("button", name="Resign…").click()
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.locator(".banner.over")).to_contain_text("Red resigned")

    page.goto(server.url + "/")
    page.get_by_role("link", name="Ratings").click()
    rows = page.locator(".leaderboard tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first.locator("td").nth(1)).to_have_text("random bot")  # no strength to name
    expect(rows.first).to_contain_text("1662")  # the bot won: 1662 ± 290
    expect(rows.last).to_contain_text(name)
    expect(rows.last).to_contain_text("1338")
    shots(page, "leaderboard")

    page.get_by_role("link", name=name).click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    expect(page.locator(".rating-value")).to_have_text("1338")
    expect(page.get_by_role("img", name="rating history: 1338")).to_be_visible()
    expect(page.locator(".record")).to_contain_text("Red")
    expect(page.locator(".recent li")).to_have_count(1)
    shots(page, "profile")
