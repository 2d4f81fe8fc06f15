"""The Rose King for a screen reader and the keyboard: the board is an ARIA grid whose cells
say what is on them and which arrow keys walk; cards say whether they are chosen and can be
played (RK-18); moves are announced; the focus stays put when the opponent moves; looking
back through the game and returning; the replay's move list and its final territories
(RK-14). axe-core on each state: 0 serious or critical violations."""

from __future__ import annotations

import random
import re
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.server.live_server import LiveServer

from .axe import assert_accessible
from .conftest import Screenshots
from .helpers import api_user, sign_in_page, started_game

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}


def _people(server: LiveServer) -> tuple[httpx.Client, str, httpx.Client]:
    suffix = uuid.uuid4().hex[:6]
    white_name = f"white-{suffix}"
    return api_user(server.url, f"red-{suffix}"), white_name, api_user(server.url, white_name)


def _play(clients: list[httpx.Client], game_id: int, count: int, rng: random.Random) -> None:
    """``count`` moves over the API (or to the end), each by the seat to move."""
    for _ in range(count):
        view: dict[str, Any] = clients[0].get(f"/api/games/{game_id}").json()
        if view["status"] != "active":
            return
        mover = clients[0 if view["turn"] == "Red" else 1]
        view = mover.get(f"/api/games/{game_id}").json()
        move = rng.choice(view["state"]["legal_moves"])
        answer = mover.post(
            f"/api/games/{game_id}/moves", json={"move": move, "version": view["version"]}
        )
        assert answer.status_code == 200, answer.text


def test_the_board_grid_the_cards_and_the_announcements(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    red, white_name, white = _people(server)
    game_id = started_game(red, white_name, white)
    rng = random.Random(3)
    _play([red, white], game_id, 6, rng)
    page = sign_in_page(new_page(LAPTOP), server.url, red)
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator(".banner.yours")).to_be_visible()
    view = red.get(f"/api/games/{game_id}").json()

    grid = page.get_by_role("grid")
    expect(grid.get_by_role("row")).to_have_count(9)
    expect(grid.get_by_role("gridcell")).to_have_count(81)
    crown = view["state"]["crown"]
    expect(page.locator(f'[data-cell="{crown}"]')).to_contain_text(f"{crown}, ")
    expect(page.locator(f'[data-cell="{crown}"]')).to_contain_text("crown")
    for square, colour in view["state"]["stones"].items():
        stone = "red stone" if colour == "r" else "white stone"
        expect(page.locator(f'[data-cell="{square}"]')).to_contain_text(stone)
    assert page.locator('[role="gridcell"][tabindex="0"]').count() == 1  # one tab stop
    # Arrow keys walk the grid as seen (Red sits south: up is north, RK-1).
    page.locator(f'[data-cell="{crown}"]').focus()
    page.keyboard.press("ArrowUp" if crown[1] != "9" else "ArrowDown")
    north = f"{crown[0]}{int(crown[1]) + (1 if crown[1] != '9' else -1)}"
    expect(page.locator(f'[data-cell="{north}"]')).to_be_focused()
    expect(page.locator(f'[data-cell="{north}"]')).to_have_attribute("tabindex", "0")

    cards = page.locator(".hand-panel.mine button.card")
    for index in range(cards.count()):
        card = cards.nth(index)
        label = card.get_attribute("aria-label") or ""
        expect(card).to_have_attribute("aria-pressed", "false")
        unplayable = "unplayable" in (card.get_attribute("class") or "")
        assert ("not playable" in label) == unplayable, label
        assert unplayable or re.search(r"crown moves to|only with a hero", label), label
    playable = page.locator(".hand-panel.mine button.card:not(.unplayable)").first
    playable.focus()
    page.keyboard.press("Enter")
    expect(page.locator('.hand-panel.mine button.card[aria-pressed="true"]')).to_have_count(1)
    expect(page.locator('#actions [data-key="confirm"]')).to_be_focused()
    expect(page.locator("#announcer")).to_contain_text(re.compile(r"Move the crown|hero"))
    shots(page, "card-chosen")
    assert_accessible(page, "rk-play-card-chosen")
    page.keyboard.press("Escape")  # let go of the card: the focus is back on it
    expect(page.locator('.hand-panel.mine button.card[aria-pressed="true"]')).to_have_count(0)
    expect(page.locator(".hand-panel.mine button.card:focus")).to_have_count(1)

    # Red moves by keys; then White moves (another browser): Red's focus stays on the
    # board square it was reading, and the move is announced.
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect(page.locator("#log li")).to_have_count(7)
    expect(page.locator("#announcer")).to_contain_text(re.compile(r"Red (plays|draws)"))
    page.locator('[data-cell="a1"]').focus()
    _play([red, white], game_id, 1, rng)
    expect(page.locator("#log li")).to_have_count(8)
    expect(page.locator("#announcer")).to_contain_text(re.compile(r"White .*Your turn"))
    expect(page.locator('[data-cell="a1"]')).to_be_focused()
    last = white.get(f"/api/games/{game_id}").json()["last_move"]
    if last["to"]:  # the last move is marked on the board and said on its square
        expect(page.locator(f'[data-cell="{last["to"]}"]')).to_contain_text("last move")
        expect(page.locator(".stone.last")).to_have_count(1)
    expect(page.locator("#log li").last).to_contain_text(
        re.compile(r"White (.+ → |.+ hero: flips |draws|passes)")
    )
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_looking_back_through_a_game_under_way_and_returning(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    red, white_name, white = _people(server)
    game_id = started_game(red, white_name, white)
    rng = random.Random(4)
    _play([red, white], game_id, 9, rng)
    # A forced pass (RK-11) is a move of the log too: play on until White is to move.
    while red.get(f"/api/games/{game_id}").json()["turn"] != "White":
        _play([red, white], game_id, 1, rng)
    moves = len(red.get(f"/api/games/{game_id}").json()["log"])
    page = sign_in_page(new_page(LAPTOP), server.url, red)
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator("#log li")).to_have_count(moves)
    live_stones = page.locator("[data-stone]").count()
    page.get_by_role("button", name="Look back").click()
    position = page.locator("#lookback-position")
    expect(position).to_contain_text(f"Move {moves - 1} of {moves}")
    expect(page.get_by_role("button", name="Previous move")).to_be_focused()
    page.keyboard.press("Enter")
    expect(position).to_contain_text(f"Move {moves - 2} of {moves}")
    expect(page.locator("#announcer")).to_contain_text(f"Move {moves - 2} of {moves}")
    expect(page.locator('#log [aria-current="step"]')).to_contain_text(f"{moves - 2}.")
    page.get_by_role("button", name="First position").click()
    expect(position).to_have_text("Start of the game")
    expect(page.locator("[data-stone]")).to_have_count(0)
    shots(page, "looking-back")
    assert_accessible(page, "rk-look-back")
    page.locator("#log li").nth(4).get_by_role("button").click()  # a move of the list
    expect(position).to_contain_text(f"Move 5 of {moves}")
    # While looking back the opponent moves: the page says so and stays in the past.
    _play([red, white], game_id, 1, random.Random(5))
    expect(page.locator("#log li")).to_have_count(moves + 1)
    expect(page.locator(".lookback")).to_contain_text("New moves were made")
    expect(position).to_contain_text(f"Move 5 of {moves}")
    page.get_by_role("button", name="Back to the game").click()
    expect(page.locator(".lookback")).to_have_count(0)
    expect(page.get_by_role("button", name="Look back")).to_be_focused()
    assert page.locator("[data-stone]").count() >= live_stones
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_the_replay_lists_the_moves_and_ends_on_the_scored_territories(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    red, white_name, white = _people(server)
    game_id = started_game(red, white_name, white)
    _play([red, white], game_id, 400, random.Random(6))
    final = red.get(f"/api/games/{game_id}").json()
    assert final["status"] == "finished"
    page = sign_in_page(new_page(LAPTOP), server.url, red)
    page.goto(f"{server.url}/games/{game_id}")
    end = page.locator("#end")
    expect(end).to_contain_text(
        re.compile(r"The last stone was placed\.|Nobody can move any more\.")
    )
    red_score = final["end"]["scores"]["red"]["score"]
    expect(end.locator("tr.red td").first).to_contain_text(f"= {red_score}")
    assert_accessible(page, "rk-play-finished")
    page.get_by_role("link", name="Replay").click()
    page.wait_for_url(f"**/games/{game_id}/replay")
    moves = len(final["log"])
    expect(page.locator("#log li")).to_have_count(moves)
    expect(page.locator("#replay-position")).to_have_text("Start of the game")
    assert_accessible(page, "rk-replay-start")
    page.locator("#log li").nth(2).get_by_role("button").click()
    expect(page.locator("#replay-position")).to_contain_text(f"Move 3 of {moves}")
    expect(page.locator('#log [aria-current="step"]')).to_contain_text("3.")
    page.get_by_role("button", name="Last position").click()
    expect(page.locator("#end")).to_contain_text(
        re.compile(r"The last stone was placed\.|Nobody can move any more\.")
    )
    expect(page.locator(".territory").first).to_be_attached()
    expect(page.locator("#end tbody tr")).to_have_count(2)
    expect(page.locator("[data-cell] .sr-only").filter(has_text="territory of")).not_to_have_count(
        0
    )
    shots(page, "replay-end")
    assert_accessible(page, "rk-replay-end")
    assert page.js_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_opponents_move_is_animated_briefly_unless_motion_is_reduced(
    server: LiveServer, new_page: Callable[..., Page], motion: str
) -> None:
    red, white_name, white = _people(server)
    game_id = started_game(red, white_name, white)
    page = sign_in_page(new_page(LAPTOP), server.url, white)
    page.emulate_media(reduced_motion=motion)  # type: ignore[arg-type]
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator("#status")).to_have_text("Red to move")
    view = red.get(f"/api/games/{game_id}").json()
    play = next(m for m in view["state"]["legal_moves"] if m != "draw")
    red.post(f"/api/games/{game_id}/moves", json={"move": play, "version": view["version"]})
    crown = page.locator("[data-crown].moving")  # from the old square to the new
    expect(crown).to_have_count(1)
    animations = [
        page.evaluate("(s) => getComputedStyle(document.querySelector(s)).animationName", s)
        for s in ("[data-crown].moving", ".stone.placed")
    ]
    # prefers-reduced-motion: the move is shown at once, without the animation.
    assert all((name == "none") == (motion == "reduce") for name in animations), animations


def test_the_team_game_ends_with_the_team_result_on_a_phone(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    """RK-16: partners win or lose together; the end says so to each of them."""
    suffix = uuid.uuid4().hex[:6]
    names = [f"p{seat}-{suffix}" for seat in range(4)]
    people = [api_user(server.url, name) for name in names]
    seats = [{"kind": "me"}] + [{"kind": "invite", "name": name} for name in names[1:]]
    game = people[0].post("/api/games", json={"players": 4, "seats": seats}).json()
    for person in people[1:]:
        assert person.post(f"/api/games/{game['id']}/join").status_code == 200
    rng = random.Random(7)
    view: dict[str, Any] = people[0].get(f"/api/games/{game['id']}").json()
    while view["status"] == "active":
        mover = people[view["to_act"][0]]
        view = mover.get(f"/api/games/{game['id']}").json()
        view = mover.post(
            f"/api/games/{game['id']}/moves",
            json={"move": rng.choice(view["state"]["legal_moves"]), "version": view["version"]},
        ).json()
    winner = view["result"]["winner"]
    for seat, team in ((0, "red"), (1, "white")):  # Red 1 and White 1
        page = sign_in_page(new_page({"width": 390, "height": 844}), server.url, people[seat])
        page.goto(f"{server.url}/games/{game['id']}")
        said = {"draw": "The game is a draw.", team: "Your team won."}.get(
            winner, "Your team lost."
        )
        expect(page.locator(".banner.over")).to_contain_text(said)
        expect(page.locator("#end")).to_contain_text(
            re.compile(r"The last stone was placed\.|Nobody can move any more\.")
        )
        shots(page, f"team-end-seat-{seat}")
        assert_accessible(page, f"rk-team-end-phone-seat-{seat}")
