"""The rules pages: /rules/<game> for each game and language, from the Markdown files in each
game's web folder; the language asked for, negotiated, or English; a clear 404 otherwise."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from roses.games import GAMES, register
from roses.server.learn.rules_pages import WEB
from tests.server.conftest import sign_up
from tests.server.duel import DUEL

HEADINGS = {
    ("roseking", "en"): ("The Rose King: the rules", ["Your turn", "Scoring"]),
    ("roseking", "de"): ("Rosenkönig: die Spielregel", ["Spielverlauf", "Wertung"]),
    ("roseking", "it"): ("Rosenkönig: il regolamento", ["Il turno", "Punteggio"]),
    ("roseking", "pt"): ("Rosenkönig: as regras", ["Modo de jogar", "Pontuação"]),
    ("roseking", "pt-BR"): (
        "Rosenkönig: as regras",
        ["Modo de jogar", "2. Comprar uma carta de poder"],
    ),
    ("wotr", "en"): ("Wars of the Roses: the rules", ["8. Parliament", "Secrets"]),
    ("wotr", "de"): ("Die Rosenkriege (Wars of the Roses): die Spielregel", ["8. Parlament"]),
    ("wotr", "it"): ("Wars of the Roses: il regolamento", ["8. Parlamento", "Segreti"]),
    ("wotr", "pt"): ("Wars of the Roses (a Guerra das Rosas): as regras", ["8. Parlamento"]),
    ("wotr", "pt-BR"): ("Wars of the Roses (a Guerra das Rosas): as regras", ["Uma rodada"]),
}


def headings(html: str, level: int) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", text) for text in re.findall(rf"<h{level}>(.*?)</h{level}>", html)
    ]


@pytest.mark.parametrize(("game", "language"), sorted(HEADINGS))
def test_each_game_in_each_language(client: TestClient, game: str, language: str) -> None:
    answer = client.get(f"/rules/{game}", params={"lang": language})
    assert answer.status_code == 200
    assert answer.headers["content-language"] == language
    assert f'<html lang="{language}">' in answer.text
    title, sections = HEADINGS[(game, language)]
    assert headings(answer.text, 1) == [title]
    assert f"<title>{title} — roses</title>" in answer.text
    found = headings(answer.text, 2) + headings(answer.text, 3)
    assert all(section in found for section in sections), found
    # The other languages are offered under their own names, this one marked as shown.
    assert f'hreflang="{language}" lang="{language}" aria-current="page"' in answer.text


def test_the_same_sections_in_every_language() -> None:
    """A translation that drops or adds a section would mislead its readers."""
    for game in ("roseking", "wotr"):
        shapes = {
            path.stem: [
                line.count("#") for line in path.read_text().splitlines() if line.startswith("#")
            ]
            for path in (WEB / game / "rules").glob("*.md")
        }
        assert set(shapes) == {"en", "de", "it", "pt-BR", "pt"}
        assert all(shape == shapes["en"] for shape in shapes.values()), (game, shapes)


def test_the_language_is_negotiated_without_lang(client: TestClient) -> None:
    german = client.get("/rules/roseking", headers={"Accept-Language": "de-CH, en;q=0.5"})
    assert '<html lang="de">' in german.text and "Rosenkönig: die Spielregel" in german.text
    client.cookies.set("lang", "it")
    italian = client.get("/rules/roseking", headers={"Accept-Language": "de"})
    assert '<html lang="it">' in italian.text and "il regolamento" in italian.text
    explicit = client.get("/rules/roseking?lang=pt", headers={"Accept-Language": "de"})
    assert '<html lang="pt">' in explicit.text and "as regras" in explicit.text
    client.cookies.clear()
    # A Brazilian browser reads Brazil's text; Portugal's tag, Portugal's.
    brazil = client.get("/rules/roseking", headers={"Accept-Language": "pt-BR,pt;q=0.9"})
    assert '<html lang="pt-BR">' in brazil.text and "Embaralhe as cartas" in brazil.text
    portugal = client.get("/rules/roseking", headers={"Accept-Language": "pt-PT"})
    assert '<html lang="pt">' in portugal.text and "Baralha as cartas" in portugal.text


def test_the_accounts_language_comes_before_the_browsers(client: TestClient) -> None:
    reader = sign_up(client)
    assert client.put("/api/language", json={"language": "pt"}, headers=reader.headers).is_success
    client.cookies.clear()
    page = client.get("/rules/wotr", headers={**reader.headers, "Accept-Language": "de"})
    assert '<html lang="pt">' in page.text and "as regras" in page.text


def test_an_unknown_language_falls_back_to_english(client: TestClient) -> None:
    answer = client.get("/rules/wotr", params={"lang": "xx"})
    assert answer.status_code == 200
    assert '<html lang="en">' in answer.text
    assert headings(answer.text, 1) == ["Wars of the Roses: the rules"]


def test_an_unknown_game_is_a_clear_404(client: TestClient) -> None:
    answer = client.get("/rules/chess")
    assert answer.status_code == 404
    assert "There is no game called “chess”." in answer.text
    for name in ("roseking", "wotr"):  # where to go instead
        assert f'<a href="/rules/{name}">' in answer.text


@pytest.fixture
def duel_offered() -> Iterator[None]:
    register(DUEL)
    try:
        yield
    finally:
        del GAMES[DUEL.name]


@pytest.mark.usefixtures("duel_offered")
def test_a_game_without_a_rules_file_is_a_404_naming_it(client: TestClient) -> None:
    """The route is generic: a game has rules only if its web folder holds them."""
    answer = client.get(f"/rules/{DUEL.name}")
    assert answer.status_code == 404
    assert f"The game {DUEL.title} has no rules page yet." in answer.text
    assert f'<a href="/rules/{DUEL.name}">' not in answer.text


TABLE_TALK = {"en": ("Table talk", "courtesy phrases"),
              "de": ("Gespräch am Tisch", "Höflichkeitsfloskeln"),
              "it": ("Conversazione al tavolo", "frasi di cortesia"),
              "pt": ("Conversa à mesa", "frases de cortesia"),
              "pt-BR": ("Conversa à mesa", "frases de cortesia")}  # fmt: skip


@pytest.mark.parametrize("language", sorted(TABLE_TALK))
def test_the_wotr_rules_say_the_table_offers_courtesy_only_wr20(
    client: TestClient, language: str
) -> None:
    html = client.get("/rules/wotr", params={"lang": language}).text
    heading, courtesy = TABLE_TALK[language]
    assert heading in headings(html, 2)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert "Non sono consentite discussioni strategiche e tattiche tra i giocatori" in text
    assert courtesy in text
