"""What a person does in the browser, in small steps the tests share."""

from __future__ import annotations

import json
from typing import Any

import httpx
from playwright.sync_api import Page, Route, WebSocket, expect

from roses.server.accounts.users import SESSION_COOKIE


def register(page: Page, base_url: str, name: str) -> None:
    page.goto(base_url + "/")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill("secret-rose")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()


def create_game(page: Page, seats: dict[str, str], *, light: bool = False) -> int:
    """From the lobby; ``seats`` maps a seat's label to "me", "open", "invite:NAME", "bot"."""
    for label, choice in seats.items():
        kind, _, name = choice.partition(":")
        page.get_by_label(f"Seat {label}", exact=True).select_option(kind)
        if kind == "invite":
            page.get_by_label(f"Player invited to seat {label}", exact=True).fill(name)
    if light:
        page.get_by_label("A play can be taken back").check()
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url("**/games/*")
    page.wait_for_selector("#status")
    return int(page.url.rstrip("/").split("/")[-1])


def log_length(page: Page) -> int:
    return page.locator("#log li").count()


def is_my_turn(page: Page) -> bool:
    return page.locator(".banner.yours").count() > 0


def make_a_move(page: Page, *, prefer_hero: bool = True) -> str:
    """Click as a person would: a card, then confirm it; or draw when no card can be played."""
    expect(page.locator(".banner.yours")).to_be_visible()
    before = log_length(page)
    cards = page.locator("button.card:not(.unplayable)")
    heroes = page.locator("button.card.needs-hero")
    chosen = heroes.first if prefer_hero and heroes.count() else cards.first
    if cards.count():
        name = chosen.get_attribute("data-card") or ""
        chosen.click()
        expect(page.locator(".card.selected")).to_have_attribute("data-card", name)
        confirm = page.locator("#actions button.primary")
        label = confirm.inner_text()
        confirm.click()
        done = f"{name}h" if "hero" in label else name
    else:
        # by its key, not its words: the page may be in any language
        page.locator('#actions [data-key="draw"]').click()
        done = "draw"
    page.wait_for_function(
        f"document.querySelectorAll('#log li').length > {before}"
        " || document.querySelector('.banner.over') !== null"
    )
    return done


def api_user(base_url: str, name: str) -> httpx.Client:
    """A person signed in over the HTTP API (faster set-up than the forms)."""
    client = httpx.Client(base_url=base_url, timeout=10)
    response = client.post("/api/accounts/register", json={"name": name, "password": "secret-rose"})
    assert response.status_code == 201, response.text
    return client


def sign_in_page(page: Page, base_url: str, client: httpx.Client) -> Page:
    token = client.cookies[SESSION_COOKIE]
    page.context.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": base_url}])
    return page


def started_game(red: httpx.Client, white_name: str, white: httpx.Client, **options: Any) -> int:
    seats = [{"kind": "me"}, {"kind": "invite", "name": white_name}]
    game = red.post("/api/games", json={"seats": seats, "options": options}).json()
    assert white.post(f"/api/games/{game['id']}/join").status_code == 200
    return int(game["id"])


def record_messages(page: Page) -> list[Any]:
    """Collects every JSON answer from the API and every WebSocket message the page gets."""
    received: list[Any] = []

    def through(route: Route) -> None:
        response = route.fetch()
        if response.headers.get("content-type", "").startswith("application/json"):
            received.append(json.loads(response.body()))
        route.fulfill(response=response)

    def listen(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: received.append(json.loads(payload)))

    page.route("**/api/**", through)
    page.on("websocket", listen)
    return received
