"""The turn review of a finished Wars of the Roses game against a bot: reached from the
game's page and from its replay, it reviews every revealed plan (progress while it runs),
then shows each turn's plans in words beside the search's, with the VP expected from each,
at laptop and phone sizes, in English and in German; refused while the game runs."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from roses.server.i18n import gettext, ngettext, speaking
from tests.server.live_server import LiveServer, running_server

from .axe import assert_accessible
from .conftest import Screenshots
from .helpers import sign_in_page
from .test_wotr_layout import no_sideways_scrolling
from .wotr_helpers import person

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
TURNS = 5


@pytest.fixture
def review_server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    with running_server(tmp_path, {"ROSES_ANALYSIS_SECONDS": "0.1"}, request.node.nodeid) as live:
        yield live


def one_decimal(value: float) -> str:
    """As the page writes a VP figure (Intl.NumberFormat rounds a half up, not to even)."""
    return str(Decimal(str(value)).quantize(Decimal("0.1"), ROUND_HALF_UP))


def my_action(view: dict[str, Any]) -> dict[str, Any]:
    """The first card, no French Aid, and a plan that bids 1 for Calais in the Midlands."""
    state = view["state"]
    if state["phase"] == "draw cards":
        return {"pick": state["layout"][0]}
    if state["phase"] == "income":
        return {"french_aid": False}
    if state["money"][view["you"]] >= 1:
        return {"orders": {"calais": {"bid": 1, "zone": "MI"}}}
    return {"orders": {}}


def game_against_the_heuristic(client: httpx.Client, until: str = "finished") -> int:
    """A 2-player game: this person (Red) and the heuristic bot (Yellow), played on until
    ``until`` is the game's status or its phase."""
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "heuristic"}]
    created = client.post("/api/games", json={"game": "wotr", "players": 2, "seats": seats})
    assert created.status_code == 201, created.text
    game_id = int(created.json()["id"])
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        view = client.get(f"/api/games/{game_id}").json()
        reached = until in (view["status"], view["state"]["phase"])
        if reached and (until == "finished" or view["can_act"]):
            return game_id
        if view["can_act"]:
            body = {"move": my_action(view), "version": view["version"]}
            assert client.post(f"/api/games/{game_id}/moves", json=body).status_code == 200
        else:
            time.sleep(0.05)  # the bot thinks in a worker
    raise AssertionError(f"game {game_id} did not get to {until}")


def test_the_review_of_a_finished_bot_game_in_two_sizes_and_two_languages(
    review_server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    url = review_server.url
    _, red = person(url, "rev")
    game_id = game_against_the_heuristic(red)
    plans = TURNS * 2
    done = f"All {plans} plans reviewed, 0.1 s each."

    # English, on a laptop: from the game's page.
    page = sign_in_page(new_page(LAPTOP), url, red)
    page.goto(f"{url}/games/{game_id}")
    page.get_by_role("link", name="Turn review").click()
    page.wait_for_url(f"**/games/{game_id}/analysis")
    status = page.locator("#analysis-status")
    expect(status).to_contain_text("plans reviewed")
    expect(status).to_have_text(done, timeout=240_000)
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Turn review of game {game_id}")
    reviews = red.get(f"/api/games/{game_id}/analysis").json()["decisions"]
    assert [(r["turn"], r["seat"]) for r in reviews] == [
        (turn, seat) for turn in range(1, TURNS + 1) for seat in ("Red", "Yellow")
    ]

    table = page.locator(".review-table")
    expect(table.locator("tbody tr")).to_have_count(2)
    expect(table.locator("thead th")).to_have_count(1 + TURNS)
    seats = page.locator(".review-seat")
    expect(seats).to_have_count(2)
    expect(page.locator("#review-turn h2")).to_have_text("Turn 1")
    red_made = seats.nth(0).locator('[data-plan="made"]')
    expect(seats.nth(0).locator("h3")).to_have_text("Red (you)")
    expect(red_made.locator("li")).to_have_text(["Bids 1 for Calais in Midlands"])
    first = reviews[0]
    after = f"After this turn: {one_decimal(first['made']['vp'])} VP"
    expect(red_made.locator(".review-values")).to_contain_text(after)
    expect(seats.nth(1).locator("h3")).to_have_text("Yellow (Rules of thumb bot)")
    for index in range(2):
        expect(seats.nth(index).locator('[data-plan="search"] li').first).to_be_visible()
        expect(seats.nth(index).locator(".review-verdict")).to_contain_text("search")
    no_sideways_scrolling(page)
    shots(page, "laptop-turn-1")
    assert_accessible(page, "wotr-review")

    # Another turn: its plans, the bot's in words (no raw ids of sea zones or places).
    page.get_by_role("button", name="Turn 4").click()
    expect(page.locator("#review-turn h2")).to_have_text("Turn 4")
    expect(page.get_by_role("button", name="Turn 4")).to_have_attribute("aria-pressed", "true")
    yellow = next(r for r in reviews if r["turn"] == 4 and r["seat"] == "Yellow")
    shown = page.locator('.review-seat[data-seat="Yellow"] [data-plan="made"]').inner_text()
    for sea in yellow["made"]["orders"].get("ship_moves", {}).values():
        assert sea not in shown, f"the raw sea zone {sea} is shown"
    assert "-sea" not in page.locator("#review-turn").inner_text()
    shots(page, "laptop-turn-4")

    # From the replay too.
    page.goto(f"{url}/games/{game_id}/replay")
    page.get_by_role("link", name="Turn review").click()
    page.wait_for_url(f"**/games/{game_id}/analysis")
    expect(status).to_have_text(done)
    assert not page.js_errors  # type: ignore[attr-defined]

    # German, on a phone: the account's language.
    assert red.put("/api/language", json={"language": "de"}).status_code == 204
    phone = sign_in_page(new_page(PHONE), url, red)
    phone.goto(f"{url}/games/{game_id}/analysis")
    expect(phone.locator("html")).to_have_attribute("lang", "de")
    with speaking("de"):
        heading = gettext("Turn review of game {id}", id=game_id)
        all_done = ngettext(
            "All {n} plan reviewed, {seconds} s each.",
            "All {n} plans reviewed, {seconds} s each.",
            plans,
            seconds=0.1,
        )
        bid = gettext("Bids {bid} for Calais in {zone}", bid=1, zone="Midlands")
        made = gettext("The plan made")
    expect(phone.get_by_role("heading", level=1)).to_have_text(heading)
    expect(phone.locator("#analysis-status")).to_have_text(all_done)
    red_phone = phone.locator('.review-seat[data-seat="Red"]')
    expect(red_phone.locator('[data-plan="made"] h4')).to_have_text(made)
    expect(red_phone.locator('[data-plan="made"] li')).to_have_text([bid])
    expect(red_phone.locator('[data-plan="made"] .review-values')).to_contain_text(
        one_decimal(first["made"]["vp"]).replace(".", ",")
    )
    no_sideways_scrolling(phone)
    fits = "(box) => box.scrollWidth <= box.clientWidth"
    assert phone.locator(".review-overview").evaluate(fits), "the table is wider than the phone"
    shots(phone, "phone-de")
    assert not phone.js_errors  # type: ignore[attr-defined]


def test_the_review_of_a_game_in_progress_is_refused_with_a_reason(
    review_server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    _, red = person(review_server.url, "run")
    game_id = game_against_the_heuristic(red, until="planning")
    page = sign_in_page(new_page(PHONE), review_server.url, red)
    page.goto(f"{review_server.url}/games/{game_id}/analysis")
    expect(page.get_by_role("alert")).to_contain_text("only once the game is over")
    expect(page.get_by_role("link", name="Back to the game")).to_be_visible()
    shots(page, "refused")
    assert red.get(f"/api/games/{game_id}/analysis").status_code == 403
