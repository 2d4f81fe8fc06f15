"""Time limits in the browser: a live Rose King game with a short clock, created from the
lobby's form, both clocks seen ticking, lost on time by the server with nobody asking; and a
correspondence game whose deadline passes (time moved, not waited for) and whose win is
claimed. Both pages say who lost and who won."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from roses.server.db.models import Game
from tests.server.live_server import LiveServer, running_server

from .axe import assert_accessible
from .conftest import Screenshots
from .helpers import api_user, make_a_move, register, sign_in_page

pytestmark = pytest.mark.browser

SHORT = "0.5+1"  # half a minute and a second per move: a preset only this server offers


@pytest.fixture
def short_clock_server(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(tmp_path, {"ROSES_LIVE_CLOCKS": f"{SHORT},5+5"}) as live:
        yield live


def face(page: Page, seat: int) -> str:
    return page.locator(f'.seat-clock[data-seat="{seat}"] .face').inner_text()


def test_a_live_game_is_lost_on_time_with_a_ticking_clock(
    short_clock_server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    server = short_clock_server
    suffix = uuid.uuid4().hex[:6]
    alice = new_page()
    register(alice, server.url, f"alice-{suffix}")
    bob_name = f"bob-{suffix}"
    bob_client = api_user(server.url, bob_name)
    alice.get_by_label("Time limit").select_option(f"live:{SHORT}")
    shots(alice, "new-game-with-a-clock")
    assert_accessible(alice, "clocks-new-game")
    alice.locator('select[name="seat-1"]').select_option("invite")
    alice.locator('input[name="invite-1"]').fill(bob_name)
    alice.get_by_role("button", name="Create game").click()
    alice.wait_for_url("**/games/*")
    game_id = int(alice.url.rstrip("/").split("/")[-1])
    expect(alice.locator(".game-clocks")).to_contain_text("once every seat is taken")
    assert bob_client.post(f"/api/games/{game_id}/join").status_code == 200
    bob = sign_in_page(new_page(), server.url, bob_client)
    bob.goto(f"{server.url}/games/{game_id}")

    # Red moves first: Alice's clock ticks on both pages, Bob's stands still.
    expect(alice.locator(".seat-clock.running")).to_have_attribute("data-seat", "0")
    first = face(alice, 0)
    alice.wait_for_timeout(1500)
    assert face(alice, 0) != first, "the mover's clock does not tick"
    expect(bob.locator(".seat-clock.running")).to_have_attribute("data-seat", "0")
    assert face(bob, 1) == "0:30"
    shots(alice, "red-to-move-clock-ticking")
    assert_accessible(alice, "clocks-ticking")

    make_a_move(alice)
    expect(bob.locator(".seat-clock.running")).to_have_attribute("data-seat", "1")
    standing = face(alice, 0)
    bob_first = face(bob, 1)
    bob.wait_for_timeout(1500)
    assert face(bob, 1) != bob_first and face(alice, 0) == standing
    shots(bob, "white-to-move-clock-ticking")

    # Bob does not move: the server ends the game when his half minute is gone.
    expect(bob.locator(".seat-clock.low")).to_be_visible(timeout=60_000)
    shots(bob, "white-low-on-time")
    expect(bob.locator(".time-outcome")).to_contain_text("You lost on time", timeout=90_000)
    expect(alice.locator(".time-outcome")).to_contain_text("You won on time", timeout=30_000)
    expect(alice.locator(".time-outcome")).to_contain_text("White ran out of time")
    assert face(bob, 1) == "0.0"
    shots(alice, "won-on-time")
    shots(bob, "lost-on-time")
    assert_accessible(bob, "clocks-lost-on-time")
    assert not alice.js_errors and not bob.js_errors  # type: ignore[attr-defined]


def move_clocks_back(database_url: str, game_id: int, delta: timedelta) -> None:
    """As if ``delta`` had passed since the game's clocks last moved (the server stopped):
    every moment of its clocks goes back by ``delta``."""
    engine = create_engine(database_url)
    with Session(engine) as db, db.begin():
        game = db.get(Game, game_id)
        assert game is not None and game.clock_due is None  # correspondence: claims only
        for seat in game.seats:
            for column in ("clock_since", "deadline", "warn_at"):
                moment = getattr(seat, column)
                if moment is not None:
                    setattr(seat, column, moment - delta)
    engine.dispose()


def test_a_correspondence_deadline_passes_and_the_win_is_claimed(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    suffix = uuid.uuid4().hex[:6]
    alice = new_page()
    register(alice, server.url, f"alice-{suffix}")
    bob_name = f"bob-{suffix}"
    bob_client = api_user(server.url, bob_name)
    alice.get_by_label("Time limit").select_option("correspondence:1")
    alice.locator('select[name="seat-1"]').select_option("invite")
    alice.locator('input[name="invite-1"]').fill(bob_name)
    alice.get_by_role("button", name="Create game").click()
    alice.wait_for_url("**/games/*")
    game_id = int(alice.url.rstrip("/").split("/")[-1])
    assert bob_client.post(f"/api/games/{game_id}/join").status_code == 200
    make_a_move(alice)
    white = alice.locator('.seat-clock[data-seat="1"]')
    expect(white).to_contain_text("left")
    expect(white.locator(".deadline")).to_contain_text("Deadline:")
    expect(alice.get_by_role("button", name="Claim the win on time")).to_be_hidden()
    shots(alice, "white-has-a-day")
    assert_accessible(alice, "clocks-deadline")
    bob = sign_in_page(new_page(), server.url, bob_client)
    bob.goto(server.url + "/")
    row = bob.locator(f'.game-row[data-game="{game_id}"]')
    expect(row).to_contain_text("Correspondence: 1 day per move")
    expect(row.locator(".my-deadline")).to_contain_text("Your deadline:")
    shots(bob, "lobby-my-deadline")

    server.stop()  # a day and a minute pass
    move_clocks_back(server.database_url, game_id, timedelta(days=1, minutes=1))
    server.start()
    alice.goto(f"{server.url}/games/{game_id}")
    expect(white).to_contain_text("Deadline passed")
    expect(white).to_have_class(re.compile(r"\bout\b"))
    bob.goto(f"{server.url}/games/{game_id}")
    expect(bob.locator(".game-clocks")).to_contain_text("Deadline passed")
    claim = alice.get_by_role("button", name="Claim the win on time")
    expect(claim).to_be_visible()
    expect(bob.get_by_role("button", name="Claim the win on time")).to_be_hidden()
    shots(alice, "deadline-passed-claim")
    assert_accessible(alice, "clocks-claim")
    claim.click()
    expect(alice.locator(".time-outcome")).to_contain_text("You won on time")
    expect(bob.locator(".time-outcome")).to_contain_text("You lost on time")
    shots(alice, "claimed")
    shots(bob, "lost-by-claim")
    assert not alice.js_errors and not bob.js_errors  # type: ignore[attr-defined]
