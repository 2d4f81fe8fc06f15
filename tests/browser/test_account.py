"""An account's lifecycle in Debian's chromium (issue 35): the password changed, the
browsers signed in listed and one signed out, one's data downloaded and the account
deleted, on a 1366x768 laptop; the address confirmed from the link a real SMTP server
received and a forgotten password reset from its link (once only), on a 390x844 phone in
German; a name too long or reserved refused with a sentence, never cut."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from roses.server.i18n import gettext, speaking
from tests.server.hidden import walk
from tests.server.live_server import LiveServer
from tests.server.smtp import Inbox, smtp_server, take_link

from .axe import assert_accessible
from .conftest import PHONE, Screenshots
from .helpers import api_user, sign_in_page

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture
def mailing_server(tmp_path: Path) -> Iterator[tuple[LiveServer, Inbox]]:
    with smtp_server() as (smtp_url, inbox):
        live = LiveServer(f"sqlite:///{tmp_path / 'roses.sqlite3'}", tmp_path / "server.log")
        live.env = {"ROSES_SMTP_URL": smtp_url, "ROSES_PUBLIC_URL": live.url}
        live.start()
        try:
            yield live, inbox
        finally:
            live.stop()


def _fits(page: Page) -> None:
    """Nothing sticks out sideways: no horizontal scrolling."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width  # type: ignore[index]


@pytest.mark.parametrize(
    ("viewport", "language"), [(LAPTOP, "en"), (PHONE, "it")], ids=["laptop-en", "phone-it"]
)
def test_password_sessions_download_and_deletion(
    server: LiveServer,
    new_page: Callable[..., Page],
    shots: Screenshots,
    viewport: Any,
    language: str,
) -> None:
    ann = api_user(server.url, "ann")
    elsewhere = httpx.Client(base_url=server.url, headers={"user-agent": "Phone Browser 1.0"})
    signed = elsewhere.post("/api/accounts/login", json={"name": "ann", "password": "secret-rose"})
    assert signed.status_code == 200
    page = sign_in_page(new_page(viewport), server.url, ann)
    page.context.add_cookies([{"name": "lang", "value": language, "url": server.url}])
    with speaking(language):
        _ = gettext
        page.goto(server.url + "/settings")
        expect(page.locator("html")).to_have_attribute("lang", language)

        sessions = page.locator("#sessions")
        expect(sessions.locator(".session")).to_have_count(2)
        expect(sessions.get_by_text(_("this browser"))).to_be_visible()
        phone = sessions.locator(".session", has_text="Phone Browser 1.0")
        _fits(page)
        shots(page, "settings")
        assert_accessible(page, f"account-settings-{language}")
        phone.get_by_role("button", name=_("Sign out")).click()
        expect(sessions.locator(".session")).to_have_count(1)
        assert elsewhere.get("/api/me").status_code == 401

        password = page.locator("#password")
        password.get_by_label(_("Current password")).fill("not my password")
        password.get_by_label(_("New password (at least 8 characters)")).fill("a new rose")
        password.get_by_role("button", name=_("Change the password")).click()
        wrong = _("the current password is not right; nothing was changed")
        expect(password.get_by_role("alert")).to_contain_text(wrong[1:])  # capitalised
        password.get_by_label(_("Current password")).fill("secret-rose")
        password.get_by_role("button", name=_("Change the password")).click()
        changed = _(
            "Your password is changed. Every other browser signed in to your account is signed out."
        )
        expect(password.get_by_role("status")).to_have_text(changed)
        shots(page, "password-changed")
        fresh = httpx.post(
            f"{server.url}/api/accounts/login", json={"name": "ann", "password": "a new rose"}
        )
        assert fresh.status_code == 200

        with page.expect_download() as download:
            page.get_by_role("link", name=_("Download my data")).click()
        data = json.loads(Path(download.value.path()).read_text())
        walk(data)
        assert data["account"]["name"] == "ann" and len(data["sessions"]) >= 1

        delete = page.locator("#delete")
        delete.get_by_label(_("Your password")).fill("a new rose")
        page.once("dialog", lambda dialog: dialog.accept())
        delete.get_by_role("button", name=_("Delete my account")).click()
        page.wait_for_url(server.url + "/")
        expect(page.get_by_role("button", name=_("Sign in"))).to_be_visible()
    gone = httpx.post(
        f"{server.url}/api/accounts/login", json={"name": "ann", "password": "a new rose"}
    )
    assert gone.status_code == 401
    shots(page, "deleted")
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_sign_out_everywhere_on_a_phone(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    bob = api_user(server.url, "bob")
    page = sign_in_page(new_page(PHONE), server.url, bob)
    page.goto(server.url + "/settings")
    expect(page.locator("#sessions .session")).to_have_count(1)
    _fits(page)
    shots(page, "settings-phone")
    page.get_by_role("button", name="Sign out everywhere").click()
    page.wait_for_url(server.url + "/")
    expect(page.get_by_role("button", name="Sign in")).to_be_visible()
    assert bob.get("/api/me").status_code == 401
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_confirm_the_address_and_reset_the_password_in_german_on_a_phone(
    mailing_server: tuple[LiveServer, Inbox], new_page: Callable[..., Page], shots: Screenshots
) -> None:
    server, inbox = mailing_server
    carla = api_user(server.url, "carla")
    assert carla.put("/api/language", json={"language": "de"}).status_code == 204
    page = sign_in_page(new_page(PHONE), server.url, carla)
    page.context.add_cookies([{"name": "lang", "value": "de", "url": server.url}])
    with speaking("de"):
        de = gettext
        page.goto(server.url + "/settings")
        expect(page.locator("html")).to_have_attribute("lang", "de")
        page.get_by_label(de("E-mail address")).fill("carla@example.org")
        page.get_by_role("button", name=de("Save"), exact=True).click()
        not_yet = de(
            "Not confirmed yet: open the link sent to {email}. Until then no e-mail goes there."
        )
        expect(page.get_by_text(not_yet.format(email="carla@example.org"))).to_be_visible()
        _fits(page)
        shots(page, "unconfirmed")
        confirm = take_link(inbox, "carla@example.org", "confirm-email")
        page.goto(f"{server.url}/confirm-email/{confirm}")
        done = de("Thank you: {email} is confirmed. The e-mails you chose will go there.")
        expect(page.get_by_role("status")).to_have_text(done.format(email="carla@example.org"))
        shots(page, "confirmed")
        assert_accessible(page, "confirm-email-de")

        page.context.clear_cookies()
        page.context.add_cookies([{"name": "lang", "value": "de", "url": server.url}])
        page.goto(server.url + "/")
        page.get_by_role("link", name=de("Forgot your password?")).click()
        page.get_by_label(de("Name or e-mail address")).fill("Carla")
        page.get_by_role("button", name=de("Send me a link")).click()
        answer = de(
            "If an account of that name or address has a confirmed e-mail address, a link "
            "to choose a new password is on its way there. It works once, within an hour."
        )
        expect(page.get_by_role("status")).to_have_text(answer)
        _fits(page)
        shots(page, "reset-asked")
        token = take_link(inbox, "carla@example.org", "reset-password")
        page.goto(f"{server.url}/reset-password/{token}")
        page.get_by_label(de("New password (at least 8 characters)")).fill("neue Rose 1")
        page.get_by_role("button", name=de("Set the new password")).click()
        expect(page.get_by_role("status")).to_have_text(
            de("Your new password is set, and you are signed in.")
        )
        _fits(page)
        shots(page, "reset-done")
        assert_accessible(page, "reset-password-de")
        assert carla.get("/api/me").status_code == 401  # the old session is signed out
        page.goto(f"{server.url}/reset-password/{token}")  # once only
        used = de(
            "this reset link was used already (or the password changed since): ask for a new one"
        )
        expect(page.get_by_role("alert")).to_contain_text(used[1:])  # its first letter capitalised
        shots(page, "reset-used")
    assert page.js_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_names_too_long_or_reserved_are_refused_with_a_sentence(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots, viewport: Any
) -> None:
    page = new_page(viewport)
    page.goto(server.url + "/")
    long_name = "Rosamunde of the Long Name"  # 26 characters: the browser must not cut it
    page.get_by_label("Name").fill(long_name)
    assert page.get_by_label("Name").input_value() == long_name
    page.get_by_label("Password").fill("secret-rose")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "The name is too long (at most 24 characters)."
    )
    page.get_by_label("Name").fill("Adm1n")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("alert")).to_contain_text("reads as a name kept for the site")
    _fits(page)
    shots(page, "refused")
    assert page.js_errors == []  # type: ignore[attr-defined]
