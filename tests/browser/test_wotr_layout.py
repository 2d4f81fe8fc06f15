"""The Wars of the Roses page at four screen sizes, measured by the elements' boxes: on a
laptop (1366x768, 1280x800) the map, the player's own plan and its Seal button are all on
the screen without scrolling, in each seat, and a control reached with Tab is never under
the sticky Seal bar; on a phone (390x844), in each seat, no panel covers another and nothing
runs off the side; a wide screen (1600x1000) puts the map, the plan and the players side by side
across its width. A screenshot of each (test artifacts), and axe-core on each."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, ViewportSize, expect

from roses.wotr import default_board
from tests.server.live_server import LiveServer

from .axe import assert_accessible
from .conftest import Screenshots
from .helpers import sign_in_page
from .wotr_helpers import planning, play_on, two_people_game

pytestmark = pytest.mark.browser

Box = dict[str, float]


def box(locator: Locator) -> Box:
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not shown"
    return found


def on_screen(found: Box, viewport: ViewportSize) -> bool:
    return (
        found["x"] >= 0
        and found["y"] >= 0
        and found["x"] + found["width"] <= viewport["width"] + 0.5
        and found["y"] + found["height"] <= viewport["height"] + 0.5
    )


def overlap(a: Box, b: Box) -> bool:
    return (
        a["x"] < b["x"] + b["width"] - 0.5
        and b["x"] < a["x"] + a["width"] - 0.5
        and a["y"] < b["y"] + b["height"] - 0.5
        and b["y"] < a["y"] + a["height"] - 0.5
    )


def no_sideways_scrolling(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page is {width[0]} px wide on a {width[1]} px screen"


# Where the focused control of the plan is, against the screen and the sticky footer.
FOCUSED = """() => {
  const field = document.activeElement;
  if (!field.closest("form.plan-form")) return null;
  const shown = field.getBoundingClientRect();
  const footer = document.querySelector(".plan-footer").getBoundingClientRect();
  return { name: field.getAttribute("aria-label") || field.name || field.textContent,
    inFooter: field.closest(".plan-footer") !== null, top: shown.top, bottom: shown.bottom,
    footerTop: footer.top, height: window.innerHeight };
}"""


def tab_through_the_plan(page: Page) -> None:
    """Every control of the plan reached with Tab is on the screen and clear of the sticky
    footer with the Seal button (WCAG 2.4.11: the focus is not hidden)."""
    page.locator("#plan-title").focus()
    seen = 0
    for _ in range(200):
        page.keyboard.press("Tab")
        field = page.evaluate(FOCUSED)
        if field is None:  # past the plan
            break
        seen += 1
        where = f"{field['name']} at {field['top']:.0f}-{field['bottom']:.0f}"
        assert field["top"] >= 0 and field["bottom"] <= field["height"] + 0.5, where
        if not field["inFooter"]:
            assert field["bottom"] <= field["footerTop"] + 0.5, f"{where}: under the footer"
    assert seen >= 4, "too few controls in the plan"


@pytest.fixture(params=[0, 1], ids=["red", "yellow"])
def planning_game(server: LiveServer, request: pytest.FixtureRequest) -> tuple[int, Any]:
    """Each seat's page can show its plan (Red, the creator's, and Yellow, who joined):
    turn 1's cards taken over the API."""
    game_id, people = two_people_game(server.url)
    clients = [client for _, client in people]
    play_on(game_id, clients, planning)
    return game_id, clients[request.param]


def open_plan(
    server: LiveServer, new_page: Callable[..., Page], game: tuple[int, Any], size: ViewportSize
) -> Page:
    game_id, red = game
    page = sign_in_page(new_page(size), server.url, red)
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator("form.plan-form")).to_be_visible()
    expect(page.locator(".wotr-map .icon").first).to_be_visible()
    return page


@pytest.mark.parametrize(
    "size", [{"width": 1366, "height": 768}, {"width": 1280, "height": 800}], ids=["1366", "1280"]
)
def test_a_laptop_shows_the_map_the_plan_and_its_seal_button_at_once(
    server: LiveServer,
    new_page: Callable[..., Page],
    shots: Screenshots,
    planning_game: tuple[int, Any],
    size: ViewportSize,
) -> None:
    page = open_plan(server, new_page, planning_game, size)
    assert on_screen(box(page.locator(".wotr-map")), size), "the map runs off the screen"
    assert on_screen(box(page.get_by_role("heading", name="Turn 1: your plan")), size)
    seal = page.get_by_role("button", name="Seal plan")
    assert on_screen(box(seal), size), "the Seal button is off the screen"
    assert box(page.locator(".wotr-map"))["x"] + 10 < box(seal)["x"]  # side by side
    no_sideways_scrolling(page)
    page.screenshot(path=str(shots.folder / f"planning-{size['width']}x{size['height']}.png"))
    assert on_screen(box(page.locator("#game-terms")), size), "the game's terms are off the screen"
    tab_through_the_plan(page)
    shots(page, f"planning-{size['width']}x{size['height']}-whole-page")
    assert_accessible(page, f"wotr-layout-{size['width']}")


def test_a_phone_stacks_the_panels_without_covering_any(
    server: LiveServer,
    new_page: Callable[..., Page],
    shots: Screenshots,
    planning_game: tuple[int, Any],
) -> None:
    size: ViewportSize = {"width": 390, "height": 844}
    page = open_plan(server, new_page, planning_game, size)
    page.get_by_text("The map, area by area").click()  # opened, it takes its own room
    parts = [
        ".map-box",
        "section.planning",
        ".panel.others",
        ".panel.players",
        ".panel.track",
        ".panel.log-box",
        ".resign-box",
        "#chat",
    ]
    boxes = {part: box(page.locator(part)) for part in parts}
    for index, first in enumerate(parts):
        assert boxes[first]["width"] <= size["width"], f"{first} is wider than the phone"
        for second in parts[index + 1 :]:
            assert not overlap(boxes[first], boxes[second]), f"{first} covers {second}"
    no_sideways_scrolling(page)
    seal = page.get_by_role("button", name="Seal plan")
    seal.scroll_into_view_if_needed()
    assert on_screen(box(seal), size)
    page.screenshot(path=str(shots.folder / "planning-390x844.png"))
    tab_through_the_plan(page)
    shots(page, "planning-390x844-whole-page")
    assert_accessible(page, "wotr-layout-390")


def test_a_wide_screen_puts_map_plan_and_players_side_by_side(
    server: LiveServer,
    new_page: Callable[..., Page],
    shots: Screenshots,
    planning_game: tuple[int, Any],
) -> None:
    size: ViewportSize = {"width": 1600, "height": 1000}
    page = open_plan(server, new_page, planning_game, size)
    game = box(page.locator(".wotr"))
    assert game["width"] >= 0.9 * size["width"], f"the page uses {game['width']} px of 1600"
    columns = (".wotr-map", "section.planning", ".panel.players")
    shown = [box(page.locator(part)) for part in columns]
    for left, right in itertools.pairwise(shown):
        assert left["x"] + left["width"] <= right["x"], "not side by side"
    assert shown[0]["width"] >= 600, "the map stays small on a wide screen"
    assert on_screen(shown[0], size)
    assert on_screen(box(page.get_by_role("button", name="Seal plan")), size)
    no_sideways_scrolling(page)
    page.screenshot(path=str(shots.folder / "planning-1600x1000.png"))
    shots(page, "planning-1600x1000-whole-page")
    assert_accessible(page, "wotr-layout-1600")


# A crowded table drawn into the page beside the real map: every icon held (4 seats), two
# visiting nobles in South East England besides its own, ships afloat there, the Captain of
# Calais landed there and troops of three seats on its Locations (the reveal's badges).
CROWDED = """async ({ board, width }) => {
  const { Board } = await import("/static/wotr/dom.js");
  const { drawMap } = await import("/static/wotr/map.js");
  const data = new Board(board);
  const owner = {};
  Object.keys(data.icons).forEach((card, index) => { owner[card] = index % 4; });
  const noble_zone = {};
  for (const [id, noble] of Object.entries(data.nobles)) {
    owner[id] = 1;
    noble_zone[id] = noble.home;
  }
  noble_zone.beaufort = "SE";
  noble_zone.plantagenet = "SE";
  const ship_sea = {};
  for (const [id, icon] of Object.entries(data.icons)) {
    if (icon.kind === "ship") ship_sea[id] = data.icons[icon.port].sea;
  }
  ship_sea["ship-of-plymouth"] = "SE-sea";
  ship_sea["ship-of-kings-lynn"] = "SE-sea";
  const troops = {};
  for (const [id, icon] of Object.entries(data.icons)) {
    if (icon.zone === "SE" && data.isLocation(id)) {
      troops[id] = [0, 2, 3].map((seat) => ({ seat, count: 12 }));
    }
  }
  const table = { owner, noble_zone, ship_sea, calais: [2, "SE"] };
  const svg = drawMap(data, table, ["Red", "Yellow", "Green", "Blue"], troops);
  const holder = document.createElement("div");
  holder.id = "crowded-map";
  holder.style.width = `${width}px`;
  holder.append(svg);
  document.body.append(holder);
  // An icon's glyph and each of its troop badges apart: their joint box is not drawn.
  const labels = [...svg.querySelectorAll(".zone-name, .zone-votes, .sea-zone circle, "
    + ".icon > :is(path, circle), .icon .troops, .noble, .calais")];
  const boxes = labels.map((label) => {
    const found = label.getBoundingClientRect();
    const group = label.closest("[data-card], [data-sea]") || label;
    const name = group.dataset.card || group.dataset.sea || label.textContent;
    const what = label.getAttribute("class") || label.tagName;
    return { name: `${what} ${name}`, x: found.x, y: found.y, width: found.width,
      height: found.height };
  });
  return { boxes, text: svg.textContent };
}"""


@pytest.mark.parametrize("size", [(390, 844), (1366, 768), (1600, 1000)], ids=str)
def test_the_map_labels_never_overlap(
    server: LiveServer,
    new_page: Callable[..., Page],
    shots: Screenshots,
    planning_game: tuple[int, Any],
    size: tuple[int, int],
) -> None:
    """WR-1: on a crowded table (South East England with four nobles, the Captain of
    Calais, ships afloat and the troops of three seats on its Locations) no two labels of
    the map, zone names, votes, sea zones, icons with their troops, nobles, Calais, overlap,
    at a phone's, a laptop's and a wide screen's size; no sea zone is named by its id."""
    viewport: ViewportSize = {"width": size[0], "height": size[1]}
    page = open_plan(server, new_page, planning_game, viewport)
    width = box(page.locator(".wotr-map"))["width"]
    drawn = page.evaluate(CROWDED, {"board": default_board().to_json(), "width": width})
    labels = drawn["boxes"]
    assert not re.search(r"\b[A-Z]{2}-(sea|west|east)\b", drawn["text"])  # seas in words
    page.locator("#crowded-map").screenshot(path=str(shots.folder / f"crowded-{size[0]}.png"))
    clashes = [
        f"{a['name']} / {b['name']}" for a, b in itertools.combinations(labels, 2) if overlap(a, b)
    ]
    assert clashes == [], "\n".join(clashes)
