"""A whole game of Wars of the Roses against the random bot, played with the keyboard alone:
Tab to a control, Space or Enter, digits into the plan (WR-7 picks, WR-9 French Aid, WR-10
plans sealed, the reveal stepped through). The focus is never lost: after each action and
each of the bot's moves it stays in the phase panel; what happens is announced in the live
region; the map is told area by area."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.server.live_server import LiveServer

from .axe import assert_accessible
from .conftest import Screenshots
from .helpers import api_user, sign_in_page
from .wotr_helpers import play_on, two_people_game

pytestmark = pytest.mark.browser

LAPTOP: ViewportSize = {"width": 1366, "height": 768}
IN_PHASE_PANEL = "document.querySelector('.phase-box').contains(document.activeElement)"


class Keyboard:
    """The player's hands: only keys, never the mouse or a script's focus()."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.presses = 0

    def tab_to(self, matches: str, limit: int = 120, key: str = "Tab") -> None:
        """Tab (or Shift+Tab) until the focused element satisfies ``matches`` (a JS function
        of it)."""
        for _ in range(limit):
            if self.page.evaluate(f"({matches})(document.activeElement)"):
                return
            self.press(key)
        raise AssertionError(f"Tab never reached {matches}")

    def press(self, key: str) -> None:
        self.presses += 1
        self.page.keyboard.press(key)

    def focus_kept(self) -> None:
        assert self.page.evaluate(IN_PHASE_PANEL), self.page.evaluate(
            "document.activeElement.outerHTML.slice(0, 200)"
        )


def pick(keys: Keyboard) -> None:
    page = keys.page
    keys.tab_to("(e) => e.matches('button.draft-card')")
    name = page.evaluate("document.activeElement.dataset.card")
    keys.press("Space")
    expect(page.locator(f'button.draft-card[data-card="{name}"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    keys.tab_to("(e) => e.textContent.startsWith('Take')")
    keys.press("Enter")
    expect(page.locator(f'.draft-card[data-card="{name}"]')).to_have_count(0)
    keys.focus_kept()


def answer_french_aid(keys: Keyboard) -> None:
    keys.tab_to("(e) => e.matches('.income button')")
    keys.press("Enter")  # the first button: take it (WR-9)
    expect(keys.page.locator(".income button")).to_have_count(0)
    keys.focus_kept()


def plan_and_seal(keys: Keyboard, turn: int) -> None:
    """Two troops on the first Location held (if any), a bid of 1 for Calais, sealed."""
    page = keys.page
    expect(page.get_by_role("heading", name=f"Turn {turn}: your plan")).to_be_visible()
    keys.tab_to("(e) => e.labels?.[0]?.textContent.startsWith('Calais bid')")
    keys.press("Control+a")
    page.keyboard.type("1")
    if page.locator(".troop-row.defend input").count():
        keys.tab_to("(e) => e.closest('.troop-row.defend') !== null")
        keys.press("Control+a")
        page.keyboard.type("2")
    expect(page.locator(".plan-footer")).to_contain_text("Cost")
    keys.tab_to("(e) => e.textContent === 'Seal plan'")
    keys.press("Enter")
    expect(page.locator("form.plan-form")).to_have_count(0)
    keys.focus_kept()


def step_through_the_reveal(keys: Keyboard) -> int:
    """Enter on the focused Next button until the reveal is over; returns the steps seen."""
    page = keys.page
    steps = 0
    announcements = page.locator("#wotr-announcements")
    while page.locator(".reveal").count():
        heading = page.locator("#reveal-title").inner_text()
        expect(announcements).to_contain_text(heading)  # each step is announced
        assert page.evaluate("document.activeElement.matches('.reveal button.primary')")
        keys.press("Enter")
        steps += 1
        page.wait_for_function(
            f"!document.querySelector('#reveal-title')"
            f" || document.querySelector('#reveal-title').textContent !== {heading!r}"
        )
    keys.focus_kept()
    return steps


def test_a_whole_game_with_the_keyboard_alone(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    name = f"kb-{uuid.uuid4().hex[:6]}"
    client = api_user(server.url, name)
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
    response = client.post("/api/games", json={"game": "wotr", "players": 2, "seats": seats})
    game_id = response.json()["id"]
    page = sign_in_page(new_page(LAPTOP), server.url, client)
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator(".wotr-map")).to_be_visible()
    keys = Keyboard(page)

    # The map area by area, opened from the keyboard: each area says what is on it.
    keys.tab_to("(e) => e.matches('.map-areas summary')")
    keys.press("Enter")
    areas = page.locator(".map-areas .area")
    expect(areas).to_have_count(6)  # WR-1
    expect(areas.first).to_contain_text("Royal Castle")
    expect(areas.first).to_contain_text("held by")
    # A bishop's name says what it is: "Bishop of Durham", never "Bishop Bishop of Durham".
    expect(areas.first).to_contain_text("Bishop of Durham: held by")
    expect(areas.first).not_to_contain_text("Bishop Bishop")

    sealed: list[int] = []
    revealed = 0
    started = time.monotonic()
    for _ in range(3000):
        if page.locator(".panel.end").count():
            break
        if page.locator(".reveal").count():
            if not revealed:
                shots(page, "reveal")
                assert_accessible(page, "wotr-keyboard-reveal")
            revealed += step_through_the_reveal(keys)
        elif page.locator("button.draft-card").count():
            pick(keys)
        elif page.locator(".income button").count():
            answer_french_aid(keys)
        elif page.locator("form.plan-form").count():
            turn = int(page.locator("#plan-title").inner_text().split()[1].rstrip(":"))
            if not sealed:
                shots(page, "planning")
            plan_and_seal(keys, turn)
            sealed.append(turn)
        else:
            page.wait_for_timeout(100)  # the bot's move: the focus must not move
            if page.evaluate("document.activeElement !== document.body"):
                keys.focus_kept()
    else:
        raise AssertionError("the game did not end")
    assert sealed == [1, 2, 3, 4, 5]  # a plan sealed every turn (WR-10), by keys alone
    assert revealed >= 5
    expect(page.locator(".panel.end table tbody tr")).to_have_count(2)  # WR-18
    keys.focus_kept()
    shots(page, "over")
    assert_accessible(page, "wotr-keyboard-over")
    final = client.get(f"/api/games/{game_id}").json()
    assert final["status"] == "finished"
    assert page.js_errors == []  # type: ignore[attr-defined]
    print(f"a whole game in {time.monotonic() - started:.0f} s, {keys.presses} key presses")


def test_the_focus_stays_put_and_the_news_is_told_while_the_other_player_picks(
    server: LiveServer, new_page: Callable[..., Page]
) -> None:
    """Red reads Yellow's cards in the side panel while Yellow picks (over the API): the
    page redraws, the focus stays on that card list, and the pick is announced; the map told
    area by area names every card's holder as the server's view does (WR-8)."""
    game_id, people = two_people_game(server.url)
    (_, red), (_, yellow) = people
    page = sign_in_page(new_page(LAPTOP), server.url, red)
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator(".draft")).to_be_visible()
    keys = Keyboard(page)
    play_on(game_id, [red, yellow], lambda view: yellow_to_pick(view))
    keys.tab_to("(e) => e.matches('summary[data-key=cards-1]')")
    keys.press("Enter")  # Yellow's cards open
    view = yellow.get(f"/api/games/{game_id}").json()
    card = view["state"]["layout"][0]
    body = {"move": {"pick": card}, "version": view["version"]}
    assert yellow.post(f"/api/games/{game_id}/moves", json=body).status_code == 200
    expect(page.locator(f'.draft-card[data-card="{card}"]')).to_have_count(0)  # redrawn
    expect(page.locator("summary[data-key=cards-1]")).to_be_focused()
    expect(page.locator(".players details").nth(1)).to_have_attribute("open", "")
    expect(page.locator("#wotr-announcements")).to_contain_text("Yellow takes")

    keys.tab_to("(e) => e.matches('.map-areas summary')")
    keys.press("Enter")
    owners = red.get(f"/api/games/{game_id}").json()["state"]["owner"]
    labels = ["Red", "Yellow"]
    told = page.eval_on_selector_all(
        ".map-areas li[data-card]",
        "all => Object.fromEntries(all.map((e) => [e.dataset.card, e.textContent]))",
    )
    assert set(owners) <= set(told)  # every card taken is on the map
    assert len(told) >= 36  # WR-2: six icons in each of six zones, and the nobles taken
    for card, text in told.items():
        seat = owners.get(card)
        holder = "nobody" if seat is None else labels[seat]
        assert text.split("held by ")[1].startswith(holder), text


def yellow_to_pick(view: dict[str, object]) -> bool:
    state = view["state"]
    assert isinstance(state, dict)
    return state["phase"] == "draw cards" and state["picks"][:1] == ["Yellow"]


def test_a_replay_is_stepped_through_with_the_keyboard(
    server: LiveServer, new_page: Callable[..., Page]
) -> None:
    """The slider and the buttons of a finished game's replay, by keys: each step redraws
    the page, the focus stays on the control used, and the status line (a live region) says
    where the replay is."""
    game_id, people = two_people_game(server.url)
    (_, red), (_, yellow) = people
    play_on(game_id, [red, yellow], lambda view: False, limit=1000)  # to the end
    page = sign_in_page(new_page(LAPTOP), server.url, red)
    page.goto(f"{server.url}/games/{game_id}/replay")
    status = page.get_by_role("status")
    expect(status).to_contain_text("turn 5, game over")
    keys = Keyboard(page)
    keys.tab_to("(e) => e.matches('input[type=range]')")
    keys.press("Home")
    expect(status).to_contain_text("the start · turn 1, draw cards")
    keys.press("ArrowRight")
    expect(status).to_contain_text("decision 1 of")
    expect(page.get_by_role("slider", name="Decision")).to_be_focused()
    keys.tab_to("(e) => e.textContent === 'Next'", key="Shift+Tab")  # the buttons above
    keys.press("Enter")
    expect(status).to_contain_text("decision 2 of")
    expect(page.get_by_role("button", name="Next", exact=True)).to_be_focused()
    keys.press("Enter")
    expect(status).to_contain_text("decision 3 of")
    # A pick: the card taken (and, with some deals, an award it wins, WR-16).
    expect(page.locator(".replay-controls .events li").first).to_contain_text(" takes ")
