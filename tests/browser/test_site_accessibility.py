"""axe-core on every page of the site but the Rose King board: the lobby signed out and in,
the new-game form with each game, a game waiting for players, Wars of the Roses while
planning, after a reveal, finished (resigned, and played to the end), its replay, the
ratings, a player's page and a game that does not exist. 0 serious or critical violations;
a screenshot of each page state at 1366x768 (test artifacts)."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.server.live_server import LiveServer

from .axe import assert_accessible
from .conftest import Screenshots
from .helpers import api_user, sign_in_page
from .wotr_helpers import planning, play_on, two_people_game

pytestmark = pytest.mark.browser

LAPTOP: ViewportSize = {"width": 1366, "height": 768}


def check(page: Page, shots: Screenshots, name: str) -> None:
    shots(page, name)
    assert_accessible(page, name)


def test_the_lobby_the_form_and_the_people_pages(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    page = new_page(LAPTOP)
    page.goto(server.url + "/")
    expect(page.get_by_role("button", name="Create account")).to_be_visible()
    check(page, shots, "signed-out")

    name = f"ann-{uuid.uuid4().hex[:6]}"
    client = api_user(server.url, name)
    sign_in_page(page, server.url, client)
    page.goto(server.url + "/")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    check(page, shots, "lobby-rose-king")
    page.get_by_label("Wars of the Roses").check()
    page.get_by_label("4 players").check()
    page.locator("select[name=seat-1]").select_option("bot")  # Yellow
    check(page, shots, "lobby-wars-of-the-roses")

    page.get_by_role("button", name="Create game").click()  # seats open: it waits
    page.wait_for_url("**/games/*")
    expect(page.locator("#status")).to_contain_text("Waiting for players")
    check(page, shots, "waiting-for-players")
    page.goto(server.url + "/")
    expect(page.locator(".game-row")).to_have_count(1)  # the game waiting, in my games
    check(page, shots, "lobby-with-a-game")

    page.goto(f"{server.url}/ratings")
    expect(page.get_by_role("heading", name="Ratings")).to_be_visible()
    check(page, shots, "ratings")
    page.goto(f"{server.url}/players/{name}")
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    check(page, shots, "player")
    page.goto(f"{server.url}/games/999999")
    expect(page.locator(".error")).to_be_visible()
    check(page, shots, "no-such-game")
    page.goto(f"{server.url}/players/nobody-{uuid.uuid4().hex[:6]}")
    expect(page.locator(".error")).to_be_visible()
    check(page, shots, "no-such-player")


def test_wars_of_the_roses_planning_revealed_finished_and_replayed(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    game_id, people = two_people_game(server.url)
    (_, red), (_, yellow) = people
    play_on(game_id, [red, yellow], planning)
    page = sign_in_page(new_page(LAPTOP), server.url, red)
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator("form.plan-form")).to_be_visible()
    check(page, shots, "wotr-planning")

    page.get_by_role("button", name="Seal plan").click()
    expect(page.locator(".plan-status, .sealed").first).to_be_visible()
    check(page, shots, "wotr-sealed")
    play_on(game_id, [yellow], lambda view: not planning(view))  # Yellow seals: the reveal
    expect(page.locator(".reveal")).to_be_visible()
    check(page, shots, "wotr-reveal")
    while page.locator(".reveal").count():
        page.locator(".reveal button.primary").click()
    expect(page.locator(".draft")).to_be_visible()
    check(page, shots, "wotr-after-reveal")

    play_on(game_id, [red, yellow], lambda view: False, limit=1000)  # to the end
    page.reload()
    expect(page.locator(".panel.end table")).to_be_visible()
    check(page, shots, "wotr-finished")
    page.goto(f"{server.url}/games/{game_id}/replay")
    expect(page.locator(".replay .wotr-map")).to_be_visible()
    check(page, shots, "wotr-replay")


def test_wars_of_the_roses_resigned(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    game_id, people = two_people_game(server.url)
    (_, red), (_, yellow) = people
    assert yellow.post(f"/api/games/{game_id}/resign").status_code == 200
    page = sign_in_page(new_page(LAPTOP), server.url, red)
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator(".panel.end")).to_contain_text("Yellow resigned")
    check(page, shots, "wotr-resigned")
    page.goto(server.url + "/")
    finished = page.locator("[data-section=Finished] .game-row")
    expect(finished).to_have_count(1)
    expect(finished.get_by_role("link", name="Replay")).to_be_visible()
    check(page, shots, "lobby-with-a-finished-game")
