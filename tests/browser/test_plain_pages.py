"""Pages that say what matters, in Debian's chromium: every lobby entry, invitation, waiting
page and game page says whether the game is rated and its clock; the badge counts an
invitation; bots are offered by what they are and how well they play, and a bot's move is
announced while it thinks; one header on every page; the front page links the rules and
the tutorial; the Rose King's cards in each language's compass letters (the rulebooks'), and
the German log in the rulebook's words (a card is "aufgenommen", never "zieht N2")."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from roses.server.i18n import gettext, speaking
from tests.server.live_server import LiveServer

from .conftest import Screenshots
from .helpers import api_user, sign_in_page

pytestmark = pytest.mark.browser


def test_entries_invitations_waiting_and_game_pages_say_the_terms_and_the_badge_counts(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    suffix = uuid.uuid4().hex[:6]
    host, guest = api_user(server.url, f"hal-{suffix}"), api_user(server.url, f"gil-{suffix}")
    body = {
        "seats": [{"kind": "me"}, {"kind": "invite", "name": f"gil-{suffix}"}],
        "time_limit": {"kind": "correspondence", "days": 3},
    }
    game = host.post("/api/games", json=body).json()
    terms = "Casual · Correspondence: 3 days per move"
    page = sign_in_page(new_page(), server.url, guest)
    page.goto(server.url + "/")
    invitation = page.locator('[data-section="Invitations"] .game-row')
    expect(invitation).to_contain_text(terms)
    expect(page.locator("#notify .badge")).to_have_attribute("data-count", "1")
    expect(page.locator("#notify .badge")).to_be_visible()
    shots(page, "invitation")
    page.goto(f"{server.url}/games/{game['id']}")  # the waiting page
    expect(page.locator("#status")).to_be_visible()
    expect(page.locator("#game-terms")).to_have_text(terms)
    page.get_by_role("button", name="Take a seat").click()
    expect(page.locator(".rk")).to_be_visible()  # the game page
    expect(page.locator("#game-terms")).to_have_text(terms)
    started = guest.get(f"/api/games/{game['id']}").json()
    waiting = "1" if started["your_turn"] else "0"  # the invitation answered: only a turn
    expect(page.locator("#notify .badge")).to_have_attribute("data-count", waiting)
    page.goto(server.url + "/")
    listed = page.locator(f'.game-row[data-game="{game["id"]}"]')
    expect(listed).to_contain_text(terms)
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_bots_are_offered_by_what_they_are_and_say_when_they_think(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    client = api_user(server.url, f"bo-{uuid.uuid4().hex[:6]}")
    page = sign_in_page(new_page(), server.url, client)
    page.goto(server.url + "/")
    page.get_by_label("Seat White", exact=True).select_option("bot")
    bots = page.get_by_label("Bot in seat White", exact=True)
    options = bots.locator("option").all_inner_texts()
    assert options[0].startswith("Random — easiest"), options
    assert "Greedy — beginner" in options and options[-1] == "Search — strongest", options
    expect(bots).to_have_value("search")  # the strongest is offered first
    assert not any(re.search(r"\b(alphabeta|mcts|expectimax)\b", text) for text in options)
    shots(page, "bots")
    # The bot plays Red and moves first, searching for its strong time (seconds).
    seats = [{"kind": "bot", "bot": "search", "strength": "strong"}, {"kind": "me"}]
    game = client.post("/api/games", json={"seats": seats}).json()
    page.goto(f"{server.url}/games/{game['id']}")
    thinking = page.locator("#bot-thinking")
    expect(thinking).to_have_text("Red (Search bot) is thinking…")
    shots(page, "thinking")
    expect(page.locator(".banner.yours")).to_be_visible(timeout=120_000)  # a busy machine
    expect(thinking).to_be_hidden()
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_every_page_has_the_same_header(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    name = f"hd-{uuid.uuid4().hex[:6]}"
    page = sign_in_page(new_page(), server.url, api_user(server.url, name))
    for path in ("/", "/ratings", f"/players/{name}", "/tutorial/roseking", "/settings",
                 "/rules/roseking"):  # fmt: skip
        page.goto(server.url + path)
        header = page.locator("#account")
        for link, href in (("Lobby", "/"), ("Ratings", "/ratings"), ("Settings", "/settings")):
            expect(header.get_by_role("link", name=link, exact=True)).to_have_attribute(
                "href", href
            )
        expect(header.get_by_role("link", name=name)).to_be_visible()
        expect(header.get_by_role("button", name="Sign out")).to_be_visible()
    shots(page, "rules-header")
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_the_front_page_links_the_rules_and_the_tutorial(
    server: LiveServer, new_page: Callable[..., Page], shots: Screenshots
) -> None:
    page = new_page()
    page.goto(server.url + "/")
    learn = page.get_by_role("navigation", name="Learn to play")
    expect(learn.get_by_role("link", name="Rules of The Rose King")).to_have_attribute(
        "href", "/rules/roseking"
    )
    expect(learn.get_by_role("link", name="Rules of Wars of the Roses")).to_have_attribute(
        "href", "/rules/wotr"
    )
    expect(learn.get_by_role("link", name="The Rose King tutorial")).to_have_attribute(
        "href", "/tutorial/roseking"
    )
    expect(page.locator("#account")).to_be_empty()  # the form itself is the way in
    shots(page, "front")


# Each language's eight directions as its rulebook prints them, N to NW clockwise.
COMPASS = {
    "de": ["N", "NO", "O", "SO", "S", "SW", "W", "NW"],
    "it": ["N", "NE", "E", "SE", "S", "SO", "O", "NO"],
    "pt": ["N", "NE", "L", "SE", "S", "SO", "O", "NO"],
    "pt-BR": ["N", "NE", "L", "SE", "S", "SO", "O", "NO"],  # leste, oeste: Brazil's too
}
ENGLISH = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]

LETTERS = """async () => {
  const { cardName } = await import("/static/roseking/cards.js");
  const { moveText, moveSentence } = await import("/static/roseking/describe.js");
  const names = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"].map((d) => cardName(`${d}2`));
  const draw = { kind: "draw", drew: "NE3", seat_index: 0 };
  const play = { kind: "play", card: "SE1", to: "e4", seat_index: 1 };
  return { names, drawn: moveText(draw), said: moveSentence(draw, 2), played: moveText(play) };
}"""


@pytest.mark.parametrize("language", ["de", "it", "pt", "pt-BR"])
def test_cards_use_the_rulebooks_letters_and_german_draws_are_not_moves(
    server: LiveServer, new_page: Callable[..., Page], language: str
) -> None:
    client = api_user(server.url, f"lg-{uuid.uuid4().hex[:6]}")
    assert client.put("/api/language", json={"language": language}).status_code == 204
    page = sign_in_page(new_page(), server.url, client)
    page.goto(server.url + "/ratings")
    expect(page.locator("html")).to_have_attribute("lang", language)
    shown = page.evaluate(LETTERS)
    assert shown["names"] == [f"{letters}2" for letters in COMPASS[language]]
    east = COMPASS[language][ENGLISH.index("NE")]
    with speaking(language):
        assert shown["drawn"] == gettext("draws {card}", card=f"{east}3")
        assert shown["said"] == gettext(
            "{seat} draws {card}.", seat=gettext("Red"), card=f"{east}3"
        )
    if language == "de":  # the rulebook's "Machtkarte aufnehmen": never "zieht NO3"
        assert shown["drawn"] == "nimmt Machtkarte NO3 auf"
        assert shown["said"] == "Rot nimmt die Machtkarte NO3 auf."
        assert shown["played"] == "SO1 → e4"
    assert page.js_errors == []  # type: ignore[attr-defined]
