"""Vacation and history in the browser (Debian's chromium): a player goes on vacation from the
settings page and the opponent sees it on the game page and in the lobby; a vacation is
refused with a sentence while a live game is being played; a player's history is browsed,
filtered and paged, with win rates and a rating graph with axes and dates; at 1366x768 and
390x844, and in German."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.server.live_server import LiveServer

from .axe import assert_accessible
from .conftest import PHONE, Screenshots
from .helpers import api_user, sign_in_page

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}


def _game(red: httpx.Client, white_name: str, white: httpx.Client, **body: object) -> int:
    seats = [{"kind": "me"}, {"kind": "invite", "name": white_name}]
    created = red.post("/api/games", json={"seats": seats, **body})
    assert created.status_code == 201, created.text
    game_id = int(created.json()["id"])
    assert white.post(f"/api/games/{game_id}/join").status_code == 200
    return game_id


def _fits(page: Page) -> None:
    """Nothing sticks out sideways (a phone scrolls only down)."""
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"] + 1, wide  # type: ignore[index]


def test_a_vacation_requested_in_settings_is_shown_to_the_opponent(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    suffix = uuid.uuid4().hex[:6]
    red_name, white_name = f"red-{suffix}", f"white-{suffix}"
    red, white = api_user(server.url, red_name), api_user(server.url, white_name)
    game_id = _game(red, white_name, white, time_limit={"kind": "correspondence", "days": 3})
    away = sign_in_page(new_page(LAPTOP), server.url, red)
    away.goto(server.url + "/settings")
    section = away.locator("#vacation")
    expect(section).to_contain_text("You have 7 vacation days.")
    section.get_by_label("Days of vacation").fill("3")
    section.get_by_role("button", name="Go on vacation").click()
    expect(section.locator(".vacation-status")).to_contain_text("You are on vacation until")
    expect(section).to_contain_text("You have 4 vacation days.")
    shots(away, "settings-on-vacation")
    _fits(away)
    assert_accessible(away, "vacation-settings")

    opponent = sign_in_page(new_page(PHONE), server.url, white)
    opponent.goto(f"{server.url}/games/{game_id}")
    notice = opponent.locator(".game-clocks .on-vacation")
    expect(notice).to_contain_text(f"{red_name} is on vacation until")
    expect(notice).to_contain_text("their clock is paused")
    expect(opponent.locator("#status")).not_to_have_text("Loading…")
    shots(opponent, "game-page-phone")
    opponent.goto(server.url + "/")
    row = opponent.locator(f'.game-row[data-game="{game_id}"]')
    expect(row.locator(".on-vacation")).to_contain_text(f"{red_name} is on vacation until")
    shots(opponent, "lobby-phone")

    away.goto(f"{server.url}/games/{game_id}")
    expect(away.locator(".game-clocks .on-vacation")).to_contain_text("You are on vacation until")
    away.goto(server.url + "/settings")
    away.locator("#vacation").get_by_role("button", name="Come back now").click()
    expect(away.locator("#vacation").get_by_role("button", name="Go on vacation")).to_be_visible()
    opponent.goto(f"{server.url}/games/{game_id}")
    expect(opponent.locator(".game-clocks")).to_be_visible()
    expect(opponent.locator(".on-vacation")).to_have_count(0)
    assert not away.js_errors and not opponent.js_errors  # type: ignore[attr-defined]


def test_a_vacation_is_refused_with_a_sentence_during_a_live_game(
    server: LiveServer, new_page: Callable[..., Page]
) -> None:
    suffix = uuid.uuid4().hex[:6]
    red, white = api_user(server.url, f"red-{suffix}"), api_user(server.url, f"white-{suffix}")
    game_id = _game(red, f"white-{suffix}", white, time_limit={"kind": "live", "clock": "5+5"})
    page = sign_in_page(new_page(LAPTOP), server.url, red)
    page.goto(server.url + "/settings")
    section = page.locator("#vacation")
    section.get_by_label("Days of vacation").fill("2")
    section.get_by_role("button", name="Go on vacation").click()
    expect(section.get_by_role("alert")).to_have_text(
        "A vacation pauses correspondence clocks only, never a live game's: "
        f"finish your live game {game_id} first."
    )
    expect(section).to_contain_text("You have 7 vacation days.")


def _history_of(server: LiveServer) -> tuple[str, httpx.Client]:
    """A player with 21 finished games (one rated and won first) and one being played."""
    suffix = uuid.uuid4().hex[:6]
    red_name, white_name = f"red-{suffix}", f"white-{suffix}"
    red, white = api_user(server.url, red_name), api_user(server.url, white_name)
    won = _game(red, white_name, white, rated=True)
    assert white.post(f"/api/games/{won}/resign").status_code == 200
    for _ in range(20):
        lost = _game(red, white_name, white)
        assert red.post(f"/api/games/{lost}/resign").status_code == 200
    _game(red, white_name, white)
    return red_name, red


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_player_s_history_is_browsed_filtered_and_paged(
    server: LiveServer,
    new_page: Callable[..., Page],
    shots: Screenshots,
    viewport: dict[str, int],
) -> None:
    name, red = _history_of(server)
    page = sign_in_page(new_page(viewport), server.url, red)
    page.goto(f"{server.url}/players/{name}")
    # The graph: a rating axis with round ticks, a time axis with the games' dates.
    plot = page.locator(".rating-history")
    expect(plot.locator(".y-axis .tick").first).to_be_visible()
    assert plot.locator(".y-axis .tick").count() >= 2
    expect(plot.locator(".x-axis .tick text").first).to_have_text(re.compile(r"\d{4}"))
    expect(page.locator(".record .win-rate").first).to_have_text("5%")  # 1 of 21
    rows = page.locator("table.history tbody tr")
    expect(rows).to_have_count(20)
    expect(page.locator(".pager")).to_contain_text("Page 1 of 2")
    expect(rows.first.locator(".result")).to_have_text("being played")
    expect(rows.nth(1)).to_contain_text("white-")
    expect(rows.nth(1)).to_contain_text("casual")
    shots(page, "history")
    _fits(page)
    assert_accessible(page, f"history-{viewport['width']}")
    page.get_by_role("button", name="Older").click()
    expect(page.locator(".pager")).to_contain_text("Page 2 of 2")
    expect(rows).to_have_count(2)
    expect(rows.last.locator(".result")).to_have_text("won")
    expect(rows.last).to_contain_text("rated")
    page.get_by_label("Result").select_option("won")
    page.get_by_role("button", name="Show").click()
    expect(rows).to_have_count(1)
    expect(page.locator(".pager")).to_contain_text("Page 1 of 1")
    page.get_by_label("Result").select_option("")
    page.locator(".history-filters select[name=rated]").select_option("false")
    page.get_by_role("button", name="Show").click()
    expect(page.locator(".history-games")).to_contain_text("21 games")
    shots(page, "history-filtered")
    assert not page.js_errors  # type: ignore[attr-defined]


def test_history_and_vacation_speak_german(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    name, red = _history_of(server)
    assert red.put("/api/language", json={"language": "de"}).status_code == 204
    page = sign_in_page(new_page(LAPTOP), server.url, red)
    page.goto(f"{server.url}/players/{name}")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", name="Verlauf")).to_be_visible()
    rows = page.locator("table.history tbody tr")
    expect(rows.first.locator(".result")).to_have_text("läuft")
    expect(rows.nth(1).locator(".result")).to_have_text("verloren")
    # The date as German writes it (Intl in the page's language): "28. Nov. 2026".
    date = rows.first.locator("time")
    expected = page.evaluate(
        "iso => new Intl.DateTimeFormat('de', {day: 'numeric', month: 'short', year: 'numeric'})"
        ".format(new Date(iso))",
        date.get_attribute("datetime"),
    )
    expect(date).to_have_text(expected)
    assert re.match(r"\d{1,2}\. ", expected)
    expect(page.locator(".pager")).to_contain_text("Seite 1 von 2")
    shots(page, "history-de")
    page.goto(server.url + "/settings")
    section = page.locator("#vacation")
    expect(section.get_by_role("heading", name="Urlaub")).to_be_visible()
    expect(section).to_contain_text("Du hast 7 Urlaubstage.")
    section.get_by_label("Urlaubstage").fill("40")
    section.get_by_role("button", name="In den Urlaub gehen").click()
    expect(section.get_by_role("alert")).to_have_text("Ein Urlaub dauert 1 bis 30 Tage.")
    shots(page, "vacation-de")
