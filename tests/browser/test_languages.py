"""The site in German and Italian: the switcher on the lobby remembers the choice (a reload,
another browser signing in); a Brazilian browser gets Brazil's Portuguese, and the switcher
offers Portugal's beside it; a Rose King game is played with the page's buttons and its move
log in the language, and a lost connection is a sentence in it; a Wars of the Roses game's
log is in it too. Every expected text comes
from the catalogues (roses/locale), so the test reads what a translator wrote."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import httpx
import pytest
from playwright.sync_api import Page, expect

from roses.server.i18n import gettext, ngettext, speaking
from tests.server.live_server import LiveServer

from .axe import assert_accessible
from .conftest import Screenshots
from .helpers import api_user, make_a_move, sign_in_page, started_game
from .wotr_helpers import play_on, two_people_game

pytestmark = pytest.mark.browser


@contextmanager
def words(language: str) -> Iterator[Callable[..., str]]:
    """``gettext`` into ``language``: the text the page must show for an English message."""
    with speaking(language):
        yield gettext


def test_the_chosen_language_stays_after_a_reload_and_signing_in_again(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    page = new_page()
    page.goto(server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "en")  # the browser's: English
    page.locator("#language-choice").select_option("de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    with words("de") as de:
        games = f"{de('The Rose King')} und {de('Wars of the Roses')}"  # the catalogue's titles
        welcome = de("Play {games}").format(games=games)
        assert welcome != "Play The Rose King and Wars of the Roses"
        expect(page.get_by_role("heading", name=welcome)).to_be_visible()
        shots(page, "sign-in-german")
        assert_accessible(page, "languages-sign-in-de")
        page.reload()
        expect(page.get_by_role("heading", name=welcome)).to_be_visible()

        name = f"sprache-{uuid.uuid4().hex[:6]}"
        page.get_by_label(de("Name")).fill(name)
        page.get_by_label(de("Password")).fill("secret-rose")
        page.get_by_role("button", name=de("Create account")).click()
        expect(page.get_by_role("heading", name=de("New game"))).to_be_visible()
        expect(page.get_by_role("button", name=de("Create game"))).to_be_visible()
        shots(page, "lobby-german")
        assert_accessible(page, "languages-lobby-de")

        # Another browser, in English until the account signs in: then German.
        other = new_page()
        other.goto(server.url + "/")
        expect(other.locator("html")).to_have_attribute("lang", "en")
        other.get_by_label("Name").fill(name)
        other.get_by_label("Password").fill("secret-rose")
        other.get_by_role("button", name="Sign in").click()
        expect(other.locator("html")).to_have_attribute("lang", "de")
        expect(other.get_by_role("heading", name=de("New game"))).to_be_visible()
        other.reload()
        expect(other.get_by_role("heading", name=de("New game"))).to_be_visible()
        assert other.locator("#language-choice").input_value() == "de"
        shots(other, "another-browser-signed-in-german")

    # A Brazilian browser gets Brazil's Portuguese; the switcher offers Portugal's beside it.
    brazil = new_page()
    brazil.set_extra_http_headers({"Accept-Language": "pt-BR,pt;q=0.9,en-US;q=0.8"})
    brazil.goto(server.url + "/")
    expect(brazil.locator("html")).to_have_attribute("lang", "pt-BR")
    choice = brazil.locator("#language-choice")
    expect(choice).to_have_value("pt-BR")
    expect(choice.locator("option[value='pt-BR']")).to_have_text("Português (Brasil)")
    expect(choice.locator("option[value='pt']")).to_have_text("Português (Portugal)")
    with words("pt-BR") as br:
        assert br("Password") == "Senha" and br("Create account") == "Criar conta"
        expect(brazil.get_by_label(br("Password"))).to_be_visible()
        expect(brazil.get_by_role("button", name=br("Create account"))).to_be_visible()
    shots(brazil, "sign-in-brazilian-portuguese")
    choice.select_option("pt")
    expect(brazil.locator("html")).to_have_attribute("lang", "pt")  # the cookie, then
    with words("pt") as pt:
        assert pt("Password") == "Palavra-passe"
        expect(brazil.get_by_label(pt("Password"))).to_be_visible()
    assert not page.js_errors and not other.js_errors  # type: ignore[attr-defined]
    assert not brazil.js_errors  # type: ignore[attr-defined]


def _white_moves(white: httpx.Client, game_id: int) -> None:
    view = white.get(f"/api/games/{game_id}").json()
    move = view["state"]["legal_moves"][0]
    answer = white.post(
        f"/api/games/{game_id}/moves", json={"move": move, "version": view["version"]}
    )
    assert answer.status_code == 200, answer.text


@pytest.mark.parametrize("language", ["de", "it"])
def test_a_rose_king_game_in_the_players_language(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots, language: str
) -> None:
    suffix = uuid.uuid4().hex[:6]
    red, white = api_user(server.url, f"red-{suffix}"), api_user(server.url, f"white-{suffix}")
    assert red.put("/api/language", json={"language": language}).status_code == 204
    game_id = started_game(red, f"white-{suffix}", white)
    # Only the session travels to the browser: the page comes in the account's language.
    page = sign_in_page(new_page(), server.url, red)
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator("html")).to_have_attribute("lang", language)
    with words(language) as say:
        for _ in range(3):
            make_a_move(page, prefer_hero=False)
            _white_moves(white, game_id)
        expect(page.locator("#log li")).to_have_count(6)
        expect(page.locator("#log-title")).to_have_text(say("Moves ({n})", n=6))
        seats = page.locator("#log .seat")
        expect(seats.nth(0)).to_have_text(say("Red"))
        expect(seats.nth(1)).to_have_text(say("White"))
        expect(page.get_by_role("button", name=say("Resign…"))).to_be_visible()
        expect(page.locator("#log")).not_to_contain_text("draws")  # no English move text
        shots(page, f"game-{language}")

        # The connection drops (a message to the table cannot be sent): a sentence in the
        # language, never the browser's own words ("Failed to fetch").
        page.context.set_offline(True)
        page.get_by_placeholder(say("Say something to the table")).fill("hallo")
        page.get_by_role("button", name=say("Send"), exact=True).click()
        lost = say("The connection was lost; reconnecting…")
        expect(page.locator("#connection")).to_have_text(lost)
        assert "Failed to fetch" not in page.locator("body").inner_text()
        shots(page, f"connection-lost-{language}")
        page.context.set_offline(False)
        expect(page.locator("#connection")).to_have_text(say("Back online."))
        shots(page, f"back-online-{language}")
    assert not page.js_errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("language", ["de", "it"])
def test_a_wars_of_the_roses_log_in_the_players_language(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots, language: str
) -> None:
    """The engine logs phrases; the page says them in the reader's language, the seats'
    colours, the counts and the awards too."""
    game_id, ((_, red), (_, yellow)) = two_people_game(server.url)
    assert red.put("/api/language", json={"language": language}).status_code == 204
    view = play_on(game_id, [red, yellow], lambda view: view["state"]["phase"] == "planning")
    log = view["state"]["log"]
    order = log[0]["params"]["seats"]
    pick = next(event for event in log if event["template"] == "{seat} takes {card}.")
    income = next(
        event for event in log if event["template"] == "{seat} collects {pounds} of income."
    )
    page = sign_in_page(new_page(), server.url, red)
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator("html")).to_have_attribute("lang", language)
    with words(language) as say:
        lines = page.locator(".wotr-log li")
        expect(lines.first).to_contain_text(
            say("Turn order: {seats}.", seats=", ".join(say(seat) for seat in order))
        )
        taken = say(
            "{seat} takes {card}.",
            seat=say(pick["params"]["seat"]),
            card=say(pick["params"]["card"]),
        )
        expect(lines.filter(has_text=taken).first).to_be_visible()
        pounds = income["params"]["pounds"]["params"]["n"]
        amount = ngettext("{n} pound", "{n} pounds", pounds)
        collected = say(
            "{seat} collects {pounds} of income.", seat=say(income["params"]["seat"]), pounds=amount
        )
        expect(lines.filter(has_text=collected).first).to_be_visible()
        expect(page.locator(".wotr-log")).not_to_contain_text(" takes ")  # no English sentence
        shots(page, f"wotr-log-{language}")
        assert_accessible(page, f"languages-wotr-{language}")
    assert not page.js_errors  # type: ignore[attr-defined]
