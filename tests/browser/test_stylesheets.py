"""A game's page is drawn only once its own stylesheet has loaded (roses/web/js/styles.js):
with the stylesheet slow to arrive, the board a player first sees is already laid out.
Drawn before it, a laptop's Wars of the Roses map filled the width and ran off the screen
until the sheet came, and a test measuring the page then saw it so."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, Route, expect

from tests.server.live_server import LiveServer

from .helpers import api_user, sign_in_page
from .wotr_helpers import planning, play_on, two_people_game

pytestmark = pytest.mark.browser

# Records, at the moment the board first enters the page, whether the game's stylesheet
# applied to it then.
FIRST_DRAWN = """
window.firstDrawnStyled = null;
new MutationObserver((_, observer) => {
  const board = document.querySelector(%r);
  if (!board) return;
  window.firstDrawnStyled = (%s)(board);
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });
"""


def slowly(route: Route) -> None:
    time.sleep(1.5)
    route.continue_()


def open_slowly(page: Page, url: str, stylesheet: str, board: str, styled: str) -> None:
    page.add_init_script(FIRST_DRAWN % (board, styled))
    page.route(f"**{stylesheet}", slowly)
    page.goto(url)
    expect(page.locator(board)).to_be_visible()
    assert page.evaluate("window.firstDrawnStyled") is True, "the board was drawn unstyled"


def test_the_wotr_map_is_first_drawn_with_its_stylesheet(
    server: LiveServer, new_page: Callable[..., Page]
) -> None:
    game_id, people = two_people_game(server.url)
    clients = [client for _, client in people]
    play_on(game_id, clients, planning)
    page = sign_in_page(new_page({"width": 1366, "height": 768}), server.url, clients[0])
    open_slowly(page, f"{server.url}/games/{game_id}", "/static/wotr/wotr.css", ".wotr-grid",
                "(grid) => getComputedStyle(grid).display === 'grid'")  # fmt: skip


def test_the_rose_king_board_is_first_drawn_with_its_stylesheet(
    server: LiveServer, new_page: Callable[..., Page]
) -> None:
    client = api_user(server.url, f"css-{uuid.uuid4().hex[:6]}")
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
    answer = client.post("/api/games", json={"players": 2, "seats": seats})
    assert answer.status_code == 201, answer.text
    page = sign_in_page(new_page({"width": 1366, "height": 768}), server.url, client)
    url = f"{server.url}/games/{answer.json()['id']}"
    open_slowly(page, url, "/static/roseking/roseking.css", ".rk",
                "(rk) => getComputedStyle(rk).getPropertyValue('--board') !== ''")  # fmt: skip
