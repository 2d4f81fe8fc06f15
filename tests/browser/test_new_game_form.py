"""The new-game form in the lobby, for every game of the catalogue: its options say in words
what they do (the rule number only as a tooltip); the strength menu shows only for a seat
played by a bot that has strengths (HasBots.bots()); and on a phone, two laptops and a
wide screen every menu lies inside the screen and the form, wide enough for its longest
choice. axe-core and a screenshot at each size."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from roses.games import GAMES, bots_offered
from tests.server.live_server import LiveServer

from .axe import assert_accessible
from .conftest import Screenshots
from .helpers import api_user, sign_in_page

pytestmark = pytest.mark.browser

RULE_NUMBER = re.compile(r"\b(RK|WR)-\d+")
SIZES: list[ViewportSize] = [
    {"width": 390, "height": 844},
    {"width": 1280, "height": 800},
    {"width": 1366, "height": 768},
    {"width": 1600, "height": 1000},
]

# For each shown menu and field of the form: its box, the form's box, and whether its
# longest choice fits (text measured in the menu's own font, plus its padding and arrow).
MEASURE = """() => {
  const form = document.querySelector("form.new-game").getBoundingClientRect();
  const pen = document.createElement("canvas").getContext("2d");
  const fields = [...document.querySelectorAll("form.new-game select, form.new-game input")]
    .filter((field) => field.offsetParent !== null);
  return fields.map((field) => {
    const style = getComputedStyle(field);
    pen.font = style.font;
    const texts = field.tagName === "SELECT" ? [...field.options].map((o) => o.text) : [""];
    const widest = Math.max(...texts.map((text) => pen.measureText(text).width));
    const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      - (field.tagName === "SELECT" ? 16 : 0);
    const box = field.getBoundingClientRect();
    return { name: field.name, left: box.left, right: box.right, top: box.top,
      formLeft: form.left, formRight: form.right, fits: widest <= room + 0.5,
      widest, room };
  });
}"""


def signed_in(server: LiveServer, new_page: Callable[..., Page], size: ViewportSize) -> Page:
    client = api_user(server.url, f"ann-{uuid.uuid4().hex[:6]}")
    page = sign_in_page(new_page(size), server.url, client)
    page.goto(server.url + "/")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    return page


def choose_game(page: Page, title: str, players: int) -> None:
    page.get_by_role("radio", name=title).check()
    page.get_by_role("radio", name=f"{players} players").check()


def test_every_option_says_what_it_does_in_words(
    server: LiveServer, new_page: Callable[..., Page]
) -> None:
    page = signed_in(server, new_page, SIZES[1])
    for module in GAMES.values():
        for players in module.player_counts:
            choose_game(page, module.title, players)
            offered = [o for o in module.option_fields if players in o.players]
            labels = page.locator("form.new-game .options label")
            expect(labels).to_have_count(len(offered))
            for option, label in zip(offered, labels.all(), strict=True):
                text = label.inner_text()
                assert not RULE_NUMBER.search(text), f"{text!r} names a rule number"
                assert len(text.split()) >= 4, f"{text!r} does not say what it does"
                assert label.get_attribute("title") is None  # no "Rule RK-19" tooltip either
                expect(page.get_by_label(option.label)).to_be_visible()
            form_text = page.locator("form.new-game").inner_text()
            assert not RULE_NUMBER.search(form_text), form_text


def test_the_strength_menu_shows_only_for_a_bot_that_has_strengths(
    server: LiveServer, new_page: Callable[..., Page]
) -> None:
    page = signed_in(server, new_page, SIZES[1])
    catalog: dict[str, Any] = page.evaluate("fetch('/api/catalog').then((r) => r.json())")
    checked = {True: 0, False: 0}
    for game in catalog["games"]:
        choose_game(page, game["title"], game["player_counts"][0])
        strength = page.locator("select[name=strength-1]")  # the second seat's menus
        for kind in ("me", "open", "invite"):
            page.locator("select[name=seat-1]").select_option(kind)
            expect(strength).to_be_hidden()
        page.locator("select[name=seat-1]").select_option("bot")
        for bot, strengths in game["bots"].items():
            page.locator("select[name=bot-1]").select_option(bot)
            if strengths:
                expect(strength).to_be_visible()
                options = strength.locator("option").all_inner_texts()
                assert options == strengths
            else:
                expect(strength).to_be_hidden()
            checked[bool(strengths)] += 1
    assert checked[True] and checked[False], "both kinds of bot should be in the catalogue"


@pytest.mark.parametrize("size", SIZES, ids=[f"{s['width']}x{s['height']}" for s in SIZES])
def test_every_menu_lies_inside_the_screen_and_fits_its_choices(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots, size: ViewportSize
) -> None:
    page = signed_in(server, new_page, size)
    for module in GAMES.values():
        players = max(module.player_counts)  # the most seats, each a bot, an invitation
        choose_game(page, module.title, players)
        bots = bots_offered(module)
        with_strengths = [name for name, strengths in bots.items() if strengths]
        for seat in range(1, players - 1):
            page.locator(f"select[name=seat-{seat}]").select_option("bot")
            page.locator(f"select[name=bot-{seat}]").select_option(
                (with_strengths or list(bots))[0]
            )
        page.locator(f"select[name=seat-{players - 1}]").select_option("invite")
        page.locator(f"input[name=invite-{players - 1}]").fill("somebody")
        page.locator("form.new-game").scroll_into_view_if_needed()
        fields = page.evaluate(MEASURE)
        assert fields
        for field in fields:
            where = f"{module.name} at {size['width']}: {field['name']}"
            assert field["left"] >= field["formLeft"] - 0.5, f"{where} sticks out left"
            assert field["right"] <= field["formRight"] + 0.5, f"{where} sticks out right"
            assert field["right"] <= size["width"], f"{where} is cut off by the screen"
            assert field["fits"], f"{where}: {field['widest']} px of text in {field['room']}"
        width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], "the lobby scrolls sideways"
        if size["width"] >= 1600:  # a wide screen uses its width
            used = page.locator(".lobby-grid").bounding_box()
            assert used is not None and used["width"] >= 0.9 * size["width"], used
        shots(page, f"{module.name}-{size['width']}x{size['height']}")
        assert_accessible(page, f"new-game-{module.name}-{size['width']}")
