"""The planning form (roses/web/wotr/plan.js) in a real browser, on a table set up in the
engine: what it offers (WR-10), what it costs (WR-11: the engine's preview, which the
server answers each saved draft with), and that what it seals and saves is an action the
game accepts."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from roses.games.wotr import WOTR
from roses.server.i18n import gettext, ngettext, speaking
from roses.wotr import Game, Orders, Phase
from tests.server.live_server import LiveServer
from tests.wotr.helpers import RED, YELLOW, game_at, give

from .conftest import Screenshots

pytestmark = pytest.mark.browser

MOUNT = """async ([board, view, planning]) => {
  const { Planner } = await import("/static/wotr/plan.js");
  const { Board } = await import("/static/wotr/dom.js");
  window.sent = [];
  window.drafts = [];
  const api = {
    act: async (action) => { window.sent.push(action); },
    saveDraft: async (draft) => {  // as the server answers PUT /api/games/{id}/draft
      window.drafts.push(draft);
      return { preview: await window.enginePreview(draft) };
    },
  };
  const planner = new Planner({ board: new Board(board), api, seat: view.you }, view, planning);
  document.body.replaceChildren(planner.element);
}"""


def table() -> Game:
    """Red holds Percy in the Northern Marches and Windsor; Yellow holds York next door."""
    game = game_at(2, phase=Phase.PLANNING, turn=2, money=20)
    give(game.state, RED, "percy", "windsor")
    give(game.state, YELLOW, "york", "neville")
    return game


def mount(page: Page, server: LiveServer, game: Game, draft: Any = None) -> dict[str, Any]:
    """The form for Red, built as play.js builds it from Red's view (with the ``draft`` kept
    on the server); its drafts previewed by the game module, as the server previews them."""
    page.goto(server.url + "/")
    page.expose_function("enginePreview", lambda draft: WOTR.preview(game, RED, draft))
    view = {"you": RED, "draft": draft, **WOTR.view(game, RED)}
    state = view["state"]
    planning = {
        **state["planning_options"],
        "money": state["money"][RED],
        "mercenaries": state["mercenaries"][RED],
    }
    page.evaluate(MOUNT, [WOTR.materials(2, {})["board"], view, planning])
    return view


def test_a_noble_moving_gives_presence_to_attack_and_takes_it_away(
    server: LiveServer, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    mount(page, server, table())
    attack = page.get_by_label("Troops on York")
    expect(attack).to_have_count(0)  # WR-10: no presence in Northern England
    page.get_by_label("Move Percy").select_option("NE")  # present in both zones while moving
    attack.fill("2")
    expect(page.locator(".plan-footer")).to_contain_text("Cost 6 pounds")
    page.get_by_label("Move Percy").select_option("")  # stays: no presence, no attack
    expect(attack).to_have_count(0)
    expect(page.locator(".plan-footer")).to_contain_text("Cost 0 pounds")


def test_a_reloaded_plan_keeps_its_attack_where_a_noble_move_gives_presence_wr10(
    server: LiveServer, new_page: Callable[..., Page]
) -> None:
    """The presence a noble's move gives comes from the server's preview: until it arrives
    the form drops no troops of the plan kept on the server."""
    page = new_page()
    kept = {"turn": 2, "orders": {"noble_moves": {"percy": "NE"}, "troops": {"york": 3}}}
    mount(page, server, table(), kept)
    expect(page.get_by_label("Troops on York")).to_have_value("3")
    expect(page.locator(".plan-footer")).to_contain_text("Cost 9 pounds")
    assert page.evaluate("window.drafts.every((draft) => draft.orders.troops?.york === 3)")


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_what_the_form_seals_and_saves_the_game_accepts(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots, size: dict[str, int]
) -> None:
    page = new_page(size)
    game = table()
    mount(page, server, game)
    page.get_by_label("Calais bid (pounds)").fill("4")
    page.get_by_label("Calais lands in").select_option("SE")
    page.get_by_label("Move Percy").select_option("NE")
    page.get_by_label("Troops on York").fill("3")
    page.get_by_label("Troops on Windsor").fill("2")
    page.get_by_label("White cube on your Percy").check()
    page.get_by_label("Black cube on Neville").check()
    # 4 + 9 + 16 + 15 = 44 > 20 pounds: WR-11 pays the bid, the white cube, skips the
    # black cube, then buys Windsor's troops (a castle comes first) and none for York.
    footer = page.locator(".plan-footer")
    expect(footer).to_contain_text("Cost 44 pounds · money 20 · left 1")
    expect(footer).to_contain_text("cancel the black cube on Neville, 3 troops on York")
    shots(page, f"shortfall-{size['width']}x{size['height']}")
    page.wait_for_function("window.drafts.length > 0")  # saved as the player typed
    page.get_by_role("button", name="Seal plan").click()
    page.wait_for_function("window.sent.length === 1")
    sealed = page.evaluate("window.sent[0]")
    draft = page.evaluate("window.drafts[window.drafts.length - 1]")
    assert draft == {"turn": 2, "orders": sealed["orders"]}
    preview = game.view(RED).preview(Orders.from_json(sealed["orders"]))
    assert [c.text for c in preview.cancelled] == ["the black cube on Neville", "3 troops on York"]
    WOTR.apply(game, RED, WOTR.parse_action(json.loads(json.dumps(sealed))))  # legal
    assert game.state.orders[RED].noble_moves == {"percy": "NE"}


@pytest.fixture(params=["en", "de", "it", "pt"])
def speaker(request: pytest.FixtureRequest, browser: Browser) -> Iterator[tuple[str, Page]]:
    """A page whose browser speaks ``language`` (the site follows it) and its words."""
    context = browser.new_context(locale=request.param)
    try:
        yield request.param, context.new_page()
    finally:
        context.close()


def test_the_chart_names_seas_garrisons_calais_and_mercenaries_in_words(
    server: LiveServer, speaker: tuple[str, Page]
) -> None:
    """WR-5: ships sail to sea zones named in words, never by id; WR-13: every troop row
    shows its Location's garrison; WR-10/WR-11: an attack in the zone of the plan's own
    Calais bid is offered, marked as standing only if the bid wins; WR-8: a Mercenary card
    says how many it gives this turn (troops chart) and what the supply still holds. In
    every language of the site."""
    language, page = speaker
    game = table()
    give(game.state, RED, "ship-of-sandwich")
    give(game.state, YELLOW, "kenilworth")  # in the Midlands, where Red is not present
    mount(page, server, game)
    expect(page.locator("html")).to_have_attribute("lang", language)
    with speaking(language):
        sail = page.get_by_label(gettext("Sail {name}", name=gettext("Ship of Sandwich")))
        options = sail.locator("option").all_inner_texts()
        assert not [text for text in options if re.search(r"\b[A-Z]{2}-(sea|west|east)\b", text)]
        here = gettext("the sea off {zone}", zone="South East England")
        assert options[0] == gettext("stays in {place}", place=here)
        west = gettext("the west sea off {zone}", zone="Northern Marches")
        midlands = gettext("the sea off {zone}", zone="Midlands")
        assert gettext("to {place}", place=midlands) in options
        assert all(west not in text for text in options)  # too far (WR-5)
        windsor = page.locator('.troop-row[data-card="windsor"]')
        expect(windsor).to_contain_text(
            gettext(
                "{kind}, {zone}, garrison {garrison}",
                kind=gettext("Royal Castle"),
                zone="South East England",
                garrison=3,
            )
        )
        kenilworth = page.locator('.troop-row[data-card="kenilworth"]')
        expect(kenilworth).to_have_count(0)  # no presence in the Midlands without the bid
        page.locator(".plan-form fieldset").first.locator("input").fill("2")  # the Calais bid
        page.locator('select[name="calais-zone"]').select_option("MI")
        expect(kenilworth).to_contain_text(
            gettext("only if you win the Captain of Calais; otherwise cancelled at no cost")
        )
        windsor_if = page.locator('.troop-row[data-card="windsor"] .if-captain')
        expect(windsor_if).to_have_count(0)  # Red's own, to defend
        described = page.evaluate(
            """async (board) => {
              const { Board } = await import("/static/wotr/dom.js");
              return new Board(board).describe("mercenary-1", 3, 2);
            }""",
            WOTR.materials(2, {})["board"],
        )
        # Turn 3's troops chart gives 4; the supply holds only 2.
        assert described == ngettext(
            "{n} mercenary now (troops chart, turn {turn}), to use this turn or keep; "
            "{supply} left in the supply",
            "{n} mercenaries now (troops chart, turn {turn}), to use this turn or keep; "
            "{supply} left in the supply",
            2,
            turn=3,
            supply=2,
        )
