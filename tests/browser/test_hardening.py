"""Hardening in a real browser (issue 12): after signing in, ``?next=`` leads only to a
path on this site; a form posted from another port of the same host changes nothing."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Page, Route, expect

from tests.server.live_server import LiveServer, free_port, running_server

from .helpers import register

pytestmark = pytest.mark.browser

OFF_SITE = [
    "//elsewhere.example/steal",
    "/\\elsewhere.example/steal",
    "https://elsewhere.example/steal",
    "javascript:alert(1)",
    "http://[broken",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for this module's tests (fewer than guests_per_address sign in)."""
    folder = tmp_path_factory.mktemp("hardening")
    with running_server(folder) as live:
        yield live


def test_the_next_page_is_a_path_on_this_site(page_rule: Page, server: LiveServer) -> None:
    answers = page_rule.evaluate(
        """async (cases) => {
            const { sameOriginPath } = await import("/static/js/lobby.js");
            return cases.map((next) => sameOriginPath(next));
        }""",
        [*OFF_SITE, "/games/7", "/games/7/replay?at=3#end", "", None],
    )
    assert answers == [None] * len(OFF_SITE) + ["/games/7", "/games/7/replay?at=3#end", None, None]


@pytest.fixture
def page_rule(new_page: Callable[..., Page], server: LiveServer) -> Page:
    page = new_page()
    page.goto(server.url + "/")
    return page


@pytest.mark.parametrize("next_page", OFF_SITE[:3])
def test_signing_in_never_leads_off_site(
    new_page: Callable[..., Page], server: LiveServer, next_page: str
) -> None:
    page = new_page()
    elsewhere: list[str] = []

    def off_site(route: Route) -> None:
        elsewhere.append(route.request.url)
        route.fulfill(body="stolen")

    page.context.route(re.compile(r"^https?://elsewhere\.example"), off_site)
    page.goto(f"{server.url}/?next={next_page}")
    page.get_by_role("button", name="play as a guest").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    assert page.url.startswith(server.url)
    assert elsewhere == []


def test_signing_in_goes_on_to_a_page_of_this_site(
    new_page: Callable[..., Page], server: LiveServer
) -> None:
    page = new_page()
    page.goto(f"{server.url}/?next=/games/7/replay")
    page.get_by_role("button", name="play as a guest").click()
    page.wait_for_url(f"{server.url}/games/7/replay")


class _Attacker(BaseHTTPRequestHandler):
    """Serves one page that posts a form to the game server as soon as it loads."""

    target = ""

    def do_GET(self) -> None:
        page = (
            f'<form method="post" action="{self.target}"><input name="x" value="1"></form>'
            "<script>document.forms[0].submit()</script>"
        ).encode()
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def attacker() -> Iterator[tuple[str, type[_Attacker]]]:
    handler = type("Attacker", (_Attacker,), {})
    site = ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{site.server_address[1]}/", handler
    finally:
        site.shutdown()
        site.server_close()


def test_a_form_from_another_port_cannot_cancel_a_game(
    new_page: Callable[..., Page], server: LiveServer, attacker: tuple[str, type[_Attacker]]
) -> None:
    page = new_page()
    register(page, server.url, "victim-" + str(free_port()))
    seats = [{"kind": "me"}, {"kind": "open"}]
    created = page.request.post(f"{server.url}/api/games", data={"seats": seats})
    assert created.status == 201, created.text()
    game_id = created.json()["id"]
    url, handler = attacker
    handler.target = f"{server.url}/api/games/{game_id}/cancel"
    with page.expect_response(handler.target) as posted:
        page.goto(url)  # the person visits another site on this host, which posts the form
    assert posted.value.status == 403
    game = page.request.get(f"{server.url}/api/games/{game_id}").json()
    assert game["status"] == "waiting"
