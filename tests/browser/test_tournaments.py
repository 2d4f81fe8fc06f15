"""Tournaments in the browser, from the organiser's form to the final standings: a small
Swiss of The Rose King (6 people and 2 bots, 3 rounds, live 3+2) and a Wars of the Roses
pool (8 players at two tables of four, bots among them). One person uses the pages (on a
laptop's screen, then a phone's); the others enter through the API, and the people's
games end by a resignation through the API (the point is the tournament, not the game);
bots play their own games. The pages are told of every change by the lobby socket."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.server.hidden import assert_tournament_only, walk
from tests.server.live_server import LiveServer, running_server

from .axe import assert_accessible
from .conftest import PHONE, Screenshots
from .helpers import api_user, record_messages, sign_in_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    """The server with its tournament job looking five times a second."""
    env = {"ROSES_TOURNAMENT_CHECK_SECONDS": "0.2"}
    with running_server(tmp_path, env, deals=request.node.nodeid) as live:
        yield live


def _people(server: LiveServer, count: int) -> dict[str, httpx.Client]:
    suffix = uuid.uuid4().hex[:6]
    return {f"p{n}-{suffix}": api_user(server.url, f"p{n}-{suffix}") for n in range(count)}


def _organise(page: Page, server: LiveServer, fill: Callable[[Page], None]) -> int:
    page.goto(server.url + "/tournaments")
    expect(page.get_by_role("heading", name="Tournaments")).to_be_visible()
    page.get_by_text("Organise a tournament").click()
    fill(page)
    assert_accessible(page, "tournaments-form")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r".*/tournaments/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def _tournaments_only(received: list[Any]) -> None:
    """Every answer and socket message the page had: the tournament's say who plays whom
    and how the games ended, nothing of any game's state."""
    for message in received:
        walk(message)
        if isinstance(message, dict) and (
            message.get("type") == "tournament" or "pairings" in message
        ):
            assert_tournament_only(message)
    assert any(isinstance(m, dict) and m.get("type") == "tournament" for m in received)


def _view(client: httpx.Client, tournament_id: int) -> dict[str, Any]:
    answer = client.get(f"/api/tournaments/{tournament_id}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _play_out(people: dict[str, httpx.Client], tournament_id: int) -> dict[str, Any]:
    """Round after round: at each table a person resigns (bots play their own games),
    until the tournament is over."""
    client = next(iter(people.values()))
    resigned: set[int] = set()
    deadline = time.monotonic() + 200
    while time.monotonic() < deadline:
        view = _view(client, tournament_id)
        if view["status"] == "finished":
            return view
        names = {entrant["player"]: entrant["name"] for entrant in view["entrants"]}
        for round_ in view["pairings"]:
            for table in round_["tables"]:
                seated = [names[p] for p in table["seats"] if names[p] in people]
                if table["ranks"] is None and seated and table["game_id"] not in resigned:
                    answer = people[seated[-1]].post(f"/api/games/{table['game_id']}/resign")
                    assert answer.status_code == 200, answer.text
                    resigned.add(table["game_id"])
        time.sleep(0.2)
    raise AssertionError("the tournament did not finish")


def test_a_small_swiss_from_the_form_to_the_standings(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    people = _people(server, 6)
    me = next(iter(people))
    page = sign_in_page(new_page(LAPTOP), server.url, people[me])
    received = record_messages(page)

    def swiss(form: Page) -> None:
        form.get_by_label("Name", exact=True).fill("Autumn Swiss")
        form.get_by_label("Format").select_option("swiss")
        form.get_by_label("Game", exact=True).select_option("roseking")
        form.get_by_label("Time limit").select_option("live:3+2")
        form.get_by_label("Rounds").fill("3")
        bots = form.locator(".bot-choice input")
        bots.nth(0).check()
        bots.nth(1).check()

    tournament_id = _organise(page, server, swiss)
    expect(page.get_by_role("heading", name="Autumn Swiss")).to_be_visible()
    expect(page.locator(".starts")).to_contain_text("Start:")
    page.get_by_role("button", name="Enter").click()
    expect(page.get_by_role("button", name="Withdraw")).to_be_visible()
    for name, client in people.items():
        if name != me:
            assert client.post(f"/api/tournaments/{tournament_id}/join").status_code == 200
    expect(page.locator(".standings tbody tr")).to_have_count(8)  # told by the socket
    expect(page.locator(".standings")).to_contain_text("Random bot")  # in words, not its key
    shots(page, "swiss-entries")
    page.get_by_role("button", name="Start now").click()
    expect(page.locator(".status")).to_contain_text("Round 1 of 3")
    expect(page.locator(".pairings").first.locator("li")).to_have_count(4)
    shots(page, "swiss-round-1")
    final = _play_out(people, tournament_id)
    expect(page.locator(".status")).to_contain_text("Finished")  # told by the socket
    expect(page.locator(".round h3").first).to_have_text("Round 3")
    expect(page.get_by_role("columnheader", name="Buchholz")).to_be_visible()
    expect(page.get_by_role("columnheader", name="Sonneborn-Berger")).to_be_visible()
    assert len(final["pairings"]) == 3 and sum(row["games"] for row in final["standings"]) == 24
    shots(page, "swiss-standings")
    assert_accessible(page, "tournament-standings")
    phone = sign_in_page(new_page(PHONE), server.url, people[me])
    phone.goto(f"{server.url}/tournaments/{tournament_id}")
    expect(phone.locator(".standings tbody tr")).to_have_count(8)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shots(phone, "swiss-standings-phone")
    assert not page.js_errors and not phone.js_errors  # type: ignore[attr-defined]
    _tournaments_only(received)


def test_a_wars_of_the_roses_pool_of_two_tables_of_four(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    people = _people(server, 6)
    me = next(iter(people))
    page = sign_in_page(new_page(PHONE), server.url, people[me])
    received = record_messages(page)

    def pool(form: Page) -> None:
        form.get_by_label("Name", exact=True).fill("Pool of the Roses")
        form.get_by_label("Format").select_option("pools")
        form.get_by_label("Game", exact=True).select_option("wotr")
        form.get_by_label("Table", exact=True).select_option("4")
        form.get_by_label("Time limit").select_option("correspondence:3")
        form.get_by_label("Rounds").fill("2")
        bots = form.locator(".bot-choice input")
        bots.nth(0).check()
        bots.nth(1).check()

    tournament_id = _organise(page, server, pool)
    page.get_by_role("button", name="Enter").click()
    expect(page.get_by_role("button", name="Withdraw")).to_be_visible()
    for name, client in people.items():
        if name != me:
            assert client.post(f"/api/tournaments/{tournament_id}/join").status_code == 200
    expect(page.locator(".standings tbody tr")).to_have_count(8)
    page.get_by_role("button", name="Start now").click()
    expect(page.locator(".pairings").first.locator("li")).to_have_count(2)  # two tables of 4
    first_round = _view(people[me], tournament_id)["pairings"][0]["tables"]
    assert [len(table["seats"]) for table in first_round] == [4, 4]
    shots(page, "pool-round-1-phone")
    final = _play_out(people, tournament_id)
    expect(page.locator(".status")).to_contain_text("Finished")
    expect(page.locator(".round h3").first).to_have_text("Round 2")
    assert len(final["pairings"]) == 2 and sum(row["games"] for row in final["standings"]) == 16
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shots(page, "pool-standings-phone")
    assert not page.js_errors  # type: ignore[attr-defined]
    _tournaments_only(received)
