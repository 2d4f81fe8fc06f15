"""The analysis page of a finished Rose King game: linked from the game's page and the
replay, it analyses the game (progress while it runs), then shows each move's judgement,
the win-probability graph, and the position of the move or graph point clicked."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.bots.test_analysis import FOUR_MOVES
from tests.server.live_server import LiveServer, running_server

from .axe import assert_accessible
from .conftest import Screenshots
from .helpers import api_user, sign_in_page, started_game

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]
JUDGEMENTS = {"best", "good", "inaccuracy", "mistake", "blunder", "forced"}


@pytest.fixture
def fast_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose deeper search of a position takes 0.3 s (the default is 1 s) and
    whose analysis of a game searches each move 0.05 s (the default is 0.2 s): what the
    page shows does not depend on how long, and the suite keeps its time."""
    env = {"ROSES_POSITION_ANALYSIS_SECONDS": "0.3", "ROSES_ANALYSIS_SECONDS": "0.05"}
    with running_server(tmp_path, env) as live:
        yield live


def finished_game(red: httpx.Client, white: httpx.Client, white_name: str) -> int:
    """A game played to its end whose last decision is solved by any search: the supply's
    last stone (RK-12) placed from a full hand with no hero play on offer, so that every
    move offered ends the game. A decision with a draw on offer can stay unsolved: its
    search must reach the end past draws from a pile of many cards."""
    for _ in range(20):  # about every second game ends so
        game_id, offered, reason = played_game(red, white, white_name)
        if reason == "last-stone" and not any(m == "draw" or m.endswith("h") for m in offered):
            return game_id
    raise AssertionError("no game ended on the last stone placed from a full hand")


def played_game(
    red: httpx.Client, white: httpx.Client, white_name: str
) -> tuple[int, list[str], str]:
    """A game played to its end: each seat draws while its hand has room, plays a hero
    while it can (so none is left at the end), else its first legal move. Returns the game,
    the moves its last decision offered and why it ended."""
    game_id = started_game(red, white_name, white)
    offered: list[str] = []
    while True:
        mover = red if red.get(f"/api/games/{game_id}").json()["can_act"] else white
        seen = mover.get(f"/api/games/{game_id}").json()
        if seen["status"] == "finished":
            return game_id, offered, seen["end"]["reason"]
        offered = seen["state"]["legal_moves"]
        heroes = [m for m in offered if m.endswith("h")]
        chosen = "draw" if "draw" in offered else heroes[0] if heroes else offered[0]
        move = {"move": chosen, "version": seen["version"]}
        assert mover.post(f"/api/games/{game_id}/moves", json=move).status_code == 200


def test_a_finished_game_is_analysed_in_the_browser(
    fast_server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    red_name, white_name = f"ann-{uuid.uuid4().hex[:6]}", f"bob-{uuid.uuid4().hex[:6]}"
    red, white = api_user(fast_server.url, red_name), api_user(fast_server.url, white_name)
    game_id = finished_game(red, white, white_name)
    frames = red.get(f"/api/games/{game_id}/replay").json()["frames"]
    moves = len(frames) - 1
    done = f"All {moves} moves analysed, 0.05 s each."

    page = sign_in_page(new_page(), fast_server.url, red)
    page.goto(f"{fast_server.url}/games/{game_id}")
    page.locator("#status").get_by_role("link", name="Analysis").click()
    page.wait_for_url(f"**/games/{game_id}/analysis")
    status = page.locator("#analysis-status")
    expect(status).to_contain_text("moves analysed")
    shots(page, "analysing")
    expect(status).to_have_text(done, timeout=240_000)
    assert not page.js_errors  # type: ignore[attr-defined]

    rows = page.locator(".analysis-moves tbody tr")
    expect(rows).to_have_count(moves)
    for ply in range(moves):
        row = rows.nth(ply)
        judgement = row.locator("td.judgement").inner_text()
        assert any(word in judgement for word in JUDGEMENTS), judgement
        assert re.fullmatch(r"\d+% → \d+%", row.locator("td.chance").inner_text().strip())
    expect(page.locator("#from-here")).to_have_text("The game is over: there is no move from here.")
    # "exact" marks the moves whose search reached the end: the last one at least.
    decisions = red.get(f"/api/games/{game_id}/analysis").json()["decisions"]
    exact = [ply for ply, decision in enumerate(decisions) if decision["exact"]]
    assert exact[-1:] == [moves - 1], "the last move's search did not reach the end"
    expect(page.locator(".analysis-moves .exact")).to_have_count(len(exact))
    expect(rows.nth(exact[-1]).locator(".exact")).to_have_text("exact")
    assert "null" not in page.locator(".analysis-moves").inner_text()
    graph = page.get_by_role("img", name=re.compile("^Red's chance of winning over the game"))
    expect(graph).to_be_visible()
    expect(page.locator(".analysis-graph .graph-point")).to_have_count(moves + 1)
    expect(page.locator(".analysis-graph .graph-point.current")).to_have_count(1)
    shots(page, "analysed")
    assert_accessible(page, "analysis-finished")

    # Clicking a move shows the position after it, marked in the list and on the graph.
    rows.nth(2).get_by_role("button").click()
    position = page.locator("#analysis-position")
    expect(position).to_contain_text(f"Move 3 of {moves}")
    expect(position).to_contain_text("Judgement:")
    expect(page.locator("[data-crown]")).to_have_attribute("data-crown", frames[3]["crown"])
    expect(rows.nth(2)).to_have_class(re.compile("current"))
    expect(rows.nth(2).get_by_role("button")).to_have_attribute("aria-current", "true")
    current = page.locator(".analysis-graph .graph-point.current")
    expect(current).to_have_attribute("data-position", "3")
    # Every move from the position shown (after move 3), the one played next among them.
    from_here = page.locator("#from-here")
    expect(from_here.locator("li.played")).to_have_count(1)
    fourth = rows.nth(3).get_by_role("button").inner_text()
    expect(from_here.locator("li.played strong")).to_have_text(fourth)
    for item in from_here.locator("li").all():
        assert re.search(r"\d+%", item.inner_text())
    # Analyse from here: the position shown searched longer, every move with its chance.
    page.get_by_role("button", name="Analyse from here").click()
    deeper = page.locator("#from-here-deeper")
    expect(deeper).to_contain_text("searched 0.3 s")
    expect(deeper.locator("li").first).to_contain_text("%")
    assert deeper.locator("li").count() == from_here.locator("li").count()
    shots(page, "move-3")
    assert_accessible(page, "analysis-move")

    # A position set up by the player (RK-23), and one that is not a position.
    box = page.get_by_label("A position in the notation of the rules, or a view (JSON)")
    box.fill(FOUR_MOVES)
    page.get_by_role("button", name="Analyse this position").click()
    result = page.locator("#set-up-result")
    expect(result.locator("li")).to_have_count(4)
    expect(result).to_contain_text("Red to move")
    expect(result).to_contain_text("E2")
    box.fill("no position at all")
    page.get_by_role("button", name="Analyse this position").click()
    expect(result.get_by_role("alert")).to_contain_text("Not a position")
    shots(page, "set-up")

    # Clicking the graph shows the position nearest the click.
    point = page.locator('.analysis-graph .graph-point[data-position="6"]')
    point.scroll_into_view_if_needed()
    box = point.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(position).to_contain_text(f"Move 6 of {moves}")
    expect(page.locator("[data-crown]")).to_have_attribute("data-crown", frames[6]["crown"])
    page.keyboard.press("ArrowLeft")
    expect(position).to_contain_text(f"Move 5 of {moves}")
    shots(page, "graph-clicked")

    # A second visit is instant: everything is read from the database.
    page.reload()
    expect(status).to_have_text(done)
    expect(page.locator(".analysis-moves tbody td.judgement .symbol")).to_have_count(moves)

    # The replay links here too.
    page.goto(f"{fast_server.url}/games/{game_id}/replay")
    page.get_by_role("link", name="Analysis").click()
    page.wait_for_url(f"**/games/{game_id}/analysis")
    expect(status).to_have_text(done)
    assert not page.js_errors  # type: ignore[attr-defined]


def test_a_player_of_a_rated_game_in_progress_is_told_why_not(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    red_name, white_name = f"ann-{uuid.uuid4().hex[:6]}", f"bob-{uuid.uuid4().hex[:6]}"
    red, white = api_user(server.url, red_name), api_user(server.url, white_name)
    seats = [{"kind": "me"}, {"kind": "invite", "name": white_name}]
    game_id = red.post("/api/games", json={"seats": seats, "rated": True}).json()["id"]
    assert white.post(f"/api/games/{game_id}/join").status_code == 200
    page = sign_in_page(new_page(), server.url, red)
    page.goto(f"{server.url}/games/{game_id}/analysis")
    expect(page.get_by_role("alert")).to_contain_text("once the game is over")
    expect(page.get_by_role("link", name="Back to the game")).to_be_visible()
    shots(page, "refused")
    assert_accessible(page, "analysis-refused")
