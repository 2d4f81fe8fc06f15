"""The Wars of the Roses tutorial walked to the end with clicks, at a laptop's size and a
phone's, each kind of wrong decision answered with a hint that changes nothing; and in
German. Offered from the lobby, the rules page and a first game's page."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import assert_accessible
from tests.browser.helpers import api_user, sign_in_page
from tests.server.live_server import LiveServer

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def seal(page: Page) -> None:
    page.locator("form.plan-form button[type=submit]").click()


def troops(page: Page, card: str, count: int, kind: str = "troops") -> None:
    field = page.locator(f'.troop-row[data-card="{card}"] input').nth(0 if kind == "troops" else 1)
    field.fill(str(count))


def move(page: Page, name: str, where: str) -> None:
    page.locator(f"select[name=noble_moves-{name}]").select_option(where)


def cube(page: Page, card: str) -> None:
    page.locator(f'input[name="bribe-{card}"]').check()


def hint(page: Page, text: str) -> None:
    expect(page.locator(".tutorial-message.hint")).to_contain_text(text)


def accepted(page: Page, shots: Any, label: str, *, last: bool = False) -> None:
    expect(page.locator(".tutorial-message.done")).to_be_visible()
    shots(page, label)
    page.locator("#tutorial-next").click()


def walk(page: Page, shots: Any, size: str) -> None:
    """Every step, each with a wrong decision first (English); axe-core on the laptop."""

    def accessible(name: str) -> None:
        if size == "laptop":
            assert_accessible(page, f"wotr-tutorial-{name}")

    expect(page.locator("#step-title")).to_have_text("Take a card")
    page.locator('button.draft-card[data-card="percy"]').click()
    hint(page, "take Newcastle")
    accessible("draft-hint")
    expect(page.locator('g.icon[data-card="newcastle"]')).to_have_attribute("data-owner", "")
    page.locator('button.draft-card[data-card="newcastle"]').click()
    expect(page.locator('g.icon[data-card="newcastle"]')).to_have_attribute("data-owner", "0")
    accepted(page, shots, f"{size}-draft")

    expect(page.locator("#step-title")).to_have_text("Income and French Aid")
    page.get_by_role("button", name="Decline").click()
    hint(page, "5 pounds for nothing")
    page.get_by_role("button", name="Take French Aid: 5 pounds").click()
    accepted(page, shots, f"{size}-french-aid")

    expect(page.locator("#step-title")).to_have_text("Troops and presence")
    troops(page, "lincoln", 3)
    seal(page)
    hint(page, "You are not present in Northern England")  # WR-10
    move(page, "percy", "NE")
    seal(page)
    expect(page.locator(".tutorial-message.done")).to_contain_text("Lincoln is yours")
    expect(page.locator('g.icon[data-card="lincoln"]')).to_have_attribute("data-owner", "0")
    expect(page.locator(".reveal .events")).to_contain_text("won, 1 left")
    accessible("troops-done")
    accepted(page, shots, f"{size}-troops")

    expect(page.locator("#step-title")).to_have_text("A shortfall")
    troops(page, "newcastle", 3)
    troops(page, "bamburgh", 3)
    # The engine's running account of the plan, before it is sealed (WR-11).
    summary = page.locator(".plan-summary")
    expect(summary).to_contain_text("Cost 18 pounds")
    expect(summary.locator(".shortfall")).to_contain_text(
        "Short by 3: deployment would cancel 1 troop on Newcastle"
    )
    shots(page, f"{size}-shortfall-plan")
    seal(page)
    hint(page, "Your plan costs 18 pounds and you have 15")  # WR-11
    accessible("shortfall-hint")
    troops(page, "bamburgh", 0)
    seal(page)
    accepted(page, shots, f"{size}-shortfall")

    expect(page.locator("#step-title")).to_have_text("Combat and mercenaries")
    move(page, "percy", "NE")
    troops(page, "lincoln", 4)
    seal(page)
    hint(page, "both sides were destroyed")  # WR-13
    troops(page, "lincoln", 2)
    troops(page, "lincoln", 3, "mercenaries")
    seal(page)
    accepted(page, shots, f"{size}-combat")

    expect(page.locator("#step-title")).to_have_text("Bribes")
    cube(page, "clifford")
    seal(page)
    hint(page, "took your Ship of Kingston")  # WR-12
    cube(page, "ship-of-kingston")
    seal(page)
    accepted(page, shots, f"{size}-bribes")

    expect(page.locator("#step-title")).to_have_text("Parliament and the King")
    seal(page)
    hint(page, "Lancaster 18 votes, York 21")  # WR-15
    move(page, "percy", "NE")
    seal(page)
    expect(page.locator(".reveal .events")).to_contain_text("Lancaster is crowned")
    accepted(page, shots, f"{size}-king")

    expect(page.locator("#step-title")).to_have_text("The awards")
    cube(page, "ship-of-berwick")
    seal(page)
    expect(page.locator(".reveal .events")).to_contain_text("Lord High Admiral: Red scores 4 VP")
    accepted(page, shots, f"{size}-awards", last=True)
    expect(page.get_by_role("heading", name="Tutorial complete")).to_be_visible()
    accessible("summary")
    expect(page.get_by_role("link", name="Read the rules")).to_have_attribute("href", "/rules/wotr")


@pytest.mark.parametrize(("size", "viewport"), [("laptop", LAPTOP), ("phone", PHONE)])
def test_the_tutorial_walked_to_the_end(
    server: LiveServer, new_page: Any, shots: Any, size: str, viewport: dict[str, int]
) -> None:
    page: Page = new_page(viewport)
    page.goto(server.url + "/tutorial/wotr")
    page.get_by_role("button", name="Start the tutorial").click()
    walk(page, shots, size)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], "nothing is wider than the screen"
    assert not page.js_errors  # type: ignore[attr-defined]


def test_the_tutorial_in_german(server: LiveServer, new_page: Any, shots: Any) -> None:
    page: Page = new_page(LAPTOP)
    page.goto(server.url + "/tutorial/wotr?lang=de")
    page.context.add_cookies([{"name": "lang", "value": "de", "url": server.url}])
    page.goto(server.url + "/tutorial/wotr")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.get_by_role("button", name="Einführung starten").click()
    expect(page.locator("#step-title")).to_have_text("Eine Karte nehmen")
    page.locator('button.draft-card[data-card="percy"]').click()
    hint(page, "Newcastle")
    expect(page.locator(".tutorial-message.hint")).to_contain_text("Pfund")
    page.locator('button.draft-card[data-card="newcastle"]').click()
    expect(page.locator(".tutorial-message.done")).to_contain_text("Newcastle gehört dir")
    page.locator("#tutorial-next").click()
    expect(page.locator("#step-title")).to_have_text("Einkommen und Französische Hilfe")
    shots(page, "de-french-aid")
    assert not page.js_errors  # type: ignore[attr-defined]


def test_offered_from_the_lobby_the_rules_and_a_first_game(
    server: LiveServer, new_page: Any
) -> None:
    """A player's game page offers the tutorial until they have finished a game of Wars of
    the Roses (here: resigned one)."""
    newcomer = api_user(server.url, "newcomer")
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]

    def new_game() -> int:
        game = newcomer.post("/api/games", json={"game": "wotr", "players": 2, "seats": seats})
        assert game.status_code == 201, game.text
        return int(game.json()["id"])

    first = new_game()
    page: Page = sign_in_page(new_page(LAPTOP), server.url, newcomer)
    page.goto(server.url + "/")
    learn = page.get_by_role("navigation", name="Learn to play")
    expect(learn.get_by_role("link", name="Wars of the Roses tutorial")).to_have_attribute(
        "href", "/tutorial/wotr"
    )
    page.goto(server.url + "/rules/wotr")
    expect(page.get_by_role("link", name="interactive tutorial")).to_have_attribute(
        "href", "/tutorial/wotr"
    )
    page.goto(f"{server.url}/games/{first}")
    offer = page.locator(".game-meta").get_by_role("link", name="Try the tutorial")
    expect(offer).to_have_attribute("href", "/tutorial/wotr")
    expect(offer).to_contain_text("New to Wars of the Roses?")
    assert newcomer.post(f"/api/games/{first}/resign").status_code == 200

    with page.expect_response(lambda answer: "/api/players/newcomer" in answer.url):
        page.goto(f"{server.url}/games/{new_game()}")
    expect(page.locator(".game-meta").get_by_role("link", name="Rules")).to_be_visible()
    page.evaluate("() => new Promise((done) => setTimeout(done, 200))")  # the page has read it
    expect(page.locator("#account .first-game")).to_have_count(0)
    assert not page.js_errors  # type: ignore[attr-defined]
