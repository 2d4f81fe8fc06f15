"""Ratings in the browser: a rated game chosen in the lobby, then the leaderboard and the
player's page with the new rating and its history plot. A bot without strengths (random) is
chosen without one and rated by its name alone. A Wars of the Roses game of four is rated by
Weng-Lin, and the pages say so."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from roses.server.ratings.systems import System, rate
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
    expect(rows.first.locator("td").nth(1)).to_have_text("Random bot")  # by what it is; no strength
    expect(rows.first).to_contain_text("1662")  # the bot won: 1662 ± 290
    expect(rows.last).to_contain_text(name)
    expect(rows.last).to_contain_text("1338")
    shots(page, "leaderboard")

    page.locator("#main").get_by_role("link", name=name).click()  # not the header's
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    expect(page.locator(".rating-value")).to_have_text("1338")
    expect(page.get_by_role("img", name="rating history: 1338")).to_be_visible()
    expect(page.locator(".record")).to_contain_text("Red")
    expect(page.locator(".recent li")).to_have_count(1)
    shots(page, "profile")


def test_the_leaderboard_shows_the_weng_lin_ratings_of_a_wars_of_the_roses_game_of_four(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    """A rated free-for-all of four (me and three bots), ended by my resignation: the
    leaderboard of "Wars of the Roses, 4 players" names its system and shows the Weng-Lin
    ratings, mine below 1500, and my page says which system rates it."""
    name = f"wl-{uuid.uuid4().hex[:6]}"
    page = new_page()
    register(page, server.url, name)
    page.get_by_label("Wars of the Roses").check()
    page.get_by_label("4 players").check()
    page.get_by_label("Rated").check()
    for seat, bot in [(1, "heuristic"), (2, "random"), (3, "random")]:
        page.locator(f"select[name=seat-{seat}]").select_option("bot")
        page.locator(f"select[name=bot-{seat}]").select_option(bot)
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url("**/games/*")
    game_id = int(page.url.rstrip("/").split("/")[-1])
    page.get_by_role("button", name="Resign…").click()
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.locator(".panel.end")).to_contain_text("resigned")
    ranks = page.request.get(f"{server.url}/api/games/{game_id}").json()["result"]["ranks"]
    keys = ["me", "bot:heuristic:", "bot:random:", "bot:random:"]
    expected = rate(System.WENG_LIN, {}, keys, ranks, (0, 1, 2, 3))

    page.goto(server.url + "/ratings")
    # Exact: the header's badge is labelled "0 games are waiting for you".
    page.get_by_label("Game", exact=True).select_option(label="Wars of the Roses, 4 players")
    expect(page.locator(".rating-system")).to_contain_text("Weng-Lin (openskill)")
    rows = page.locator(".leaderboard tbody tr")
    expect(rows).to_have_count(3)  # me, and each bot once (random sat twice)
    mine = rows.filter(has_text=name)
    expect(mine.locator("td").nth(2)).to_have_text(str(round(expected["me"].rating)))
    expect(mine.locator("td").nth(3)).to_have_text(str(round(expected["me"].deviation)))
    assert expected["me"].rating < 1500
    expect(rows.filter(has_text="Rules of thumb bot").locator("td").nth(2)).to_have_text(
        str(round(expected["bot:heuristic:"].rating))
    )
    shots(page, "weng-lin-leaderboard")

    mine.get_by_role("link", name=name).click()
    expect(page.locator(".rating-value")).to_have_text(str(round(expected["me"].rating)))
    expect(page.locator(".profile .rating-system")).to_have_text("(Weng-Lin)")
    shots(page, "weng-lin-profile")
