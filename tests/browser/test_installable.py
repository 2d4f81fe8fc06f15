"""The installable app in Debian's chromium: every page links a valid manifest with its
icons, the service worker registers at the root and, with the network down, a page of the
site becomes the offline page (in the page's language); the settings page offers the
choices of push messages and webhooks."""

from __future__ import annotations

import io
import uuid
from collections.abc import Callable

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from tests.server.live_server import LiveServer

from .conftest import Screenshots
from .helpers import api_user, sign_in_page

pytestmark = pytest.mark.browser


def test_the_site_installs_and_shows_its_offline_page_offline(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    person = api_user(server.url, f"ivy-{uuid.uuid4().hex[:6]}")
    page = sign_in_page(new_page(), server.url, person)
    page.goto(server.url + "/settings")
    manifest_link = page.locator('link[rel="manifest"]')
    assert manifest_link.get_attribute("href") == "/manifest.webmanifest"
    manifest = page.request.get(server.url + "/manifest.webmanifest")
    assert manifest.ok and manifest.headers["content-type"] == "application/manifest+json"
    app = manifest.json()
    assert app["short_name"] == "roses" and app["display"] == "standalone"
    assert app["start_url"] == "/" and app["theme_color"].startswith("#")
    for icon in app["icons"]:  # each icon is the PNG its size says
        answer = page.request.get(server.url + icon["src"])
        assert answer.ok and icon["type"] == "image/png"
        size = Image.open(io.BytesIO(answer.body())).size
        assert f"{size[0]}x{size[1]}" == icon["sizes"]
    assert {icon["sizes"] for icon in app["icons"]} == {"192x192", "512x512"}
    # The service worker takes the whole site, and the page is under its control.
    script = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")
    assert script == server.url + "/sw.js"
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    expect(page.locator("#reach")).to_contain_text("When a game becomes your turn")
    expect(page.locator('#reach input[name="reach-turn"]')).not_to_be_checked()
    with page.expect_response(lambda r: r.url.endswith("/api/settings/reach")) as saved:
        page.locator('#reach input[name="reach-turn"]').check()
    assert saved.value.ok
    expect(page.locator('#reach input[name="reach-turn"]')).to_be_checked()
    assert person.get("/api/settings/reach").json()["turn"] is True
    shots(page, "settings")
    page.context.set_offline(True)
    page.goto(server.url + "/games/1")
    expect(page.locator("h1")).to_have_text("You are offline")
    shots(page, "offline")
    page.context.set_offline(False)
    assert page.js_errors == []  # type: ignore[attr-defined]
