"""The settings page's programs part in Debian's chromium: an API token made (its secret
shown once, then listed by its label with its last use) and revoked; the account marked as
a bot account, after which its page and its seats show it as "BOT name"."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.server.live_server import LiveServer

from .axe import assert_accessible
from .conftest import Screenshots
from .helpers import api_user, sign_in_page

pytestmark = pytest.mark.browser


def test_a_token_is_made_used_and_revoked_and_the_account_becomes_a_bot(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    robo = api_user(server.url, "robo")
    page = sign_in_page(new_page(), server.url, robo)
    page.goto(server.url + "/settings")
    programs = page.locator("#programs")
    programs.get_by_label("What the token is for").fill("my agent")
    programs.get_by_role("button", name="Make a token").click()
    secret = programs.locator(".token-secret")
    expect(secret).to_have_text(re.compile(r"^roses_\S{40,}$"))
    token = secret.inner_text()
    expect(programs.locator(".token")).to_have_count(1)
    expect(programs.locator(".token")).to_contain_text("never used")
    shots(page, "programs")
    assert_accessible(page, "programs-settings")
    bearer = {"authorization": f"Bearer {token}"}
    assert httpx.get(f"{server.url}/api/games/mine", headers=bearer).status_code == 200
    page.reload()
    expect(page.locator("#programs .token")).to_contain_text("last used")
    assert token not in page.content()  # shown once, never again
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#programs").get_by_role("button", name="Make this a bot account").click()
    expect(page.locator("#programs")).to_contain_text("This is a bot account")
    page.locator("#programs .token").get_by_role("button", name="Revoke").click()
    expect(page.locator("#programs .token")).to_have_count(0)
    assert httpx.get(f"{server.url}/api/games/mine", headers=bearer).status_code == 401
    page.goto(server.url + "/players/robo")
    expect(page.locator("h1")).to_have_text("BOT robo")
