"""Languages: every message in the source is translated in every catalogue; the language is
the account's, else the cookie's, else the browser's, else English; errors are sentences in
the person's language, never field paths."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from roses.games import IllegalAction
from roses.games.wotr import WOTR
from roses.server import i18n
from roses.server.errors import as_sentence
from roses.server.i18n import (
    LANGUAGE_COOKIE,
    LOCALE_DIR,
    game_error,
    gettext,
    negotiate,
    speaking,
)

from .conftest import sign_in, sign_up, two_player_game

# A count written into a sentence as a number before a plural noun ("{points} points") reads
# "1 points" for one: a count goes through ngettext / tn instead. The placeholders named here
# are people and things, not counts ("{seat} moves {noble}" is a verb).
COUNTED = re.compile(
    r"\{(\w+)\} (points?|squares?|cards?|votes?|moves?|games?|players?|pounds?|troops?|days?"
    r"|hours?|minutes?|stones?|heroes|mercenar(?:y|ies)|turns?|seats?|territor(?:y|ies))\b"
)
NOT_COUNTS = {"seat", "who", "name", "player", "side", "team", "bot", "noble", "game"}
# Counts that are never 1, each with the reason.
NEVER_ONE = {
    "{game}, {n} players": "a variant's player count: 2 or more",
    "illegal move draw: {who} already holds {n} cards (RK-9)": "the hand's limit, 5",
    "{count} troops, more than {most}": "more than a limit of at least 1",
}
# The script calls that write a date or a number for a person; each must be given the
# page's language, or the browser's own locale shows through (English dates in German pages).
UNLOCALISED = re.compile(r"toLocale\w*String\(\s*(\)|undefined)|new Intl\.\w+\(\s*(\)|undefined)")

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [language for language in i18n.LANGUAGES if language != i18n.SOURCE_LANGUAGE]
PLACEHOLDER = re.compile(r"\{(\w*)\}")
# What a field path or pydantic's own wording looks like: none may reach a person.
MACHINE_WORDS = re.compile(r"\b(body|seats\.\d|Value error|Field required|String should)\b")


def _extracted() -> Catalog:
    """The messages of the source now, found as `make i18n` finds them (babel.cfg)."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    catalogue = Catalog()
    for path, line, message, _comments, context in extract_from_dir(
        str(ROOT / "roses"), method_map, options_map
    ):
        catalogue.add(message, locations=[(path, line)], context=context)
    return catalogue


@pytest.fixture(scope="module")
def source() -> Catalog:
    return _extracted()


def _po(language: str) -> Catalog:
    locale = i18n.babel_locale(language)
    with (LOCALE_DIR / locale / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=locale)


def _forms(message_id: str | tuple[str, ...]) -> tuple[str, ...]:
    return (message_id,) if isinstance(message_id, str) else tuple(message_id)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(source: Catalog, language: str) -> None:
    catalogue = _po(language)
    problems = []
    for message in source:
        if not message.id:
            continue
        where = f"{message.locations[0][0]}:{message.locations[0][1]}"
        found = catalogue.get(message.id, context=message.context)
        if found is None:
            problems.append(f"missing: {message.id!r} ({where})")
            continue
        if found.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        ids = _forms(message.id)
        strings = _forms(found.string)
        if not all(strings) or len(strings) != len(ids):
            problems.append(f"untranslated: {message.id!r} ({where})")
            continue
        for form, (original, translated) in enumerate(zip(ids, strings, strict=True)):
            differ = set(PLACEHOLDER.findall(original)) ^ set(PLACEHOLDER.findall(translated))
            # A singular form may say "one" instead of "{n}"; every other name must match.
            if differ - ({"n"} if form == 0 and len(ids) == 2 else set()):
                problems.append(f"placeholders differ: {original!r} -> {translated!r}")
    assert not problems, f"{language}: {len(problems)} problems\n" + "\n".join(problems)


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_catalogue_keeps_messages_the_source_no_longer_has(
    source: Catalog, language: str
) -> None:
    catalogue = _po(language)
    assert not catalogue.obsolete, f"{language}: obsolete entries {list(catalogue.obsolete)}"
    wanted = {(message.id, message.context) for message in source if message.id}
    kept = {(message.id, message.context) for message in catalogue if message.id}
    assert not kept - wanted, f"{language}: entries no longer in the source: {kept - wanted}"


def test_the_test_sees_an_untranslated_string(tmp_path: Path) -> None:
    """The check above is not vacuous: the source holds the lobby's messages."""
    messages = {message.id for message in _extracted()}
    assert "Create game" in messages and ("{n} player", "{n} players") in messages
    assert "the name" in messages  # a Python message (errors.py)
    assert "The Rose King" in messages  # a game's title, marked where the game names it


def test_counts_in_sentences_are_plural_messages(source: Catalog) -> None:
    """ "1 points", "1 Feldern": a count before its noun is a plural message (ngettext, tn)."""
    wrong = []
    for message in source:
        if not isinstance(message.id, str) or message.id in NEVER_ONE:
            continue
        counts = [m for m in COUNTED.finditer(message.id) if m.group(1) not in NOT_COUNTS]
        if counts:
            wrong.append(f"{message.id!r} ({message.locations[0][0]}:{message.locations[0][1]})")
    assert not wrong, "counts outside plural messages:\n" + "\n".join(wrong)


def test_the_count_check_sees_a_count_without_ngettext() -> None:
    assert COUNTED.search("red territory of {n}, {points} points")
    assert not COUNTED.search("{seat} plays {card}")


# Plural nouns of each language: none may follow "{n}" in a form for one ("1 Feldern").
PLURAL_NOUNS = {
    "de": "Feldern|Punkte|Karten|Machtkarten|Züge|Zügen|Stimmen|Plätze|Machtsteine|Tage|Stunden|"
    "Minuten|Partien|Truppen",
    "it": "punti|spazi|carte|mosse|voti|posti|giorni|ore|minuti|partite|giocatori|truppe|mercenari",
    "pt": "pontos|espaços|cartas|jogadas|votos|lugares|dias|horas|minutos|jogos|jogadores|tropas|"
    "mercenários",
}
PLURAL_NOUNS["pt-BR"] = PLURAL_NOUNS["pt"]


@pytest.mark.parametrize("language", TRANSLATED)
def test_plural_messages_have_a_form_for_one_and_for_the_rest(language: str) -> None:
    """Each plural message has both forms (nplurals=2, plural=(n != 1) in every language,
    Brazilian Portuguese too: "0 pontos"), and the form for one counts in the singular
    ("1 Feld", never "1 Feldern")."""
    catalogue = _po(language)
    assert catalogue.num_plurals == 2 and catalogue.plural_expr.replace(" ", "") == "(n!=1)"
    in_plural = re.compile(r"\{n\} (" + PLURAL_NOUNS[language] + r")\b")
    wrong = []
    for message in catalogue:
        if not message.id or isinstance(message.id, str):
            continue
        one, other = message.string
        assert one and other, message.id
        if in_plural.search(one):
            wrong.append((message.id[0], one))
    assert not wrong, f"{language}: forms for one that count in the plural: {wrong}"


@pytest.mark.parametrize(
    ("language", "written"),
    [("en", "May 6, 2031, 8:00\u202fAM UTC"), ("de", "06.05.2031, 08:00 UTC"),
     ("it", "6 mag 2031, 08:00 UTC"), ("pt", "06/05/2031, 08:00 UTC"),
     ("pt-BR", "6 de mai. de 2031 08:00 UTC")],
)  # fmt: skip
def test_dates_in_mails_are_written_in_the_readers_language(language: str, written: str) -> None:
    with speaking(language):
        assert i18n.moment(datetime(2031, 5, 6, 8, 0, tzinfo=UTC)) == written


DATES_IN_NODE = """
globalThis.document = { documentElement: { lang: process.argv.at(-1) } };
const { shortDate, pageLocale } = await import("./roses/web/js/dates.js");
console.log(JSON.stringify([pageLocale(), shortDate("2031-05-06T08:00:00Z")]));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize(
    ("language", "written"),
    [("pt-BR", ["pt-BR", "6 de mai. de 2031"]), ("pt", ["pt-PT", "6/05/2031"]),
     ("de", ["de", "6. Mai 2031"])],
)  # fmt: skip
def test_a_page_writes_dates_as_its_language_does(language: str, written: list[str]) -> None:
    """A page in "pt" is Portugal's, though Intl's plain "pt" is Brazil's (CLDR)."""
    run = [str(shutil.which("node")), "--input-type=module", "-e", DATES_IN_NODE, language]
    shown = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(shown.stdout) == written


def test_no_script_writes_a_date_in_the_browsers_locale() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "roses" / "web").rglob("*.js"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if UNLOCALISED.search(line)
    ]
    assert not found, f"dates or numbers in the browser's locale, not the page's: {found}"
    assert UNLOCALISED.search("new Date(x).toLocaleString(undefined, {})")


def test_mails_write_their_dates_through_babel() -> None:
    """The digest and the deadline warning write no date of their own (strftime is English)."""
    for name in ("digest.py", "deadline_warnings.py"):
        text = (ROOT / "roses" / "server" / "notify" / name).read_text()
        assert "strftime" not in text and "moment(" in text, name


@pytest.mark.parametrize(
    ("saved", "cookie", "header", "expected"),
    [
        ("it", "de", "pt-PT,pt;q=0.9", "it"),  # the account first
        (None, "de", "it-IT,it;q=0.9", "de"),  # then the cookie
        (None, None, "fr-FR,fr;q=0.9,pt-BR;q=0.8,en;q=0.5", "pt-BR"),  # the best one we have
        (None, None, "pt-BR", "pt-BR"),  # a Brazilian browser
        (None, None, "pt-br;q=0.9", "pt-BR"),  # tags are read in any case
        (None, None, "pt_BR", "pt-BR"),  # as some programs write it
        (None, None, "pt-BR,pt;q=0.9,en-US;q=0.8", "pt-BR"),  # Chrome in Brazil
        (None, None, "pt-PT", "pt"),  # Portugal
        (None, None, "pt-PT,pt;q=0.9,pt-BR;q=0.8", "pt"),  # Portugal first
        (None, None, "pt", "pt"),  # no region: Portugal's (Babel's alias too)
        (None, None, "pt-AO", "pt"),  # another region: the European form
        (None, "pt-BR", "pt-PT", "pt-BR"),  # the cookie keeps its tag
        ("pt", "pt-BR", "pt-BR", "pt"),  # and the account comes first
        (None, None, "en;q=0.2, de-CH;q=0.9", "de"),  # by quality, not order
        (None, "xx", "fr", "en"),  # nothing we speak: English
        (None, None, "de;q=0", "en"),  # "not German"
        (None, None, ";;;,q=", "en"),  # nonsense
        (None, None, None, "en"),
    ],
)
def test_negotiation(
    saved: str | None, cookie: str | None, header: str | None, expected: str
) -> None:
    assert negotiate(saved, cookie, header) == expected


def _page_language(client: TestClient, **headers: str) -> str:
    page = client.get("/", headers=headers)
    assert page.status_code == 200
    found = re.search(r'<html lang="([\w-]+)">', page.text)
    assert found is not None
    return found.group(1)


def test_pages_come_in_the_browsers_language_with_its_catalogue(client: TestClient) -> None:
    assert _page_language(client, **{"accept-language": "de-DE,de;q=0.9,en;q=0.5"}) == "de"
    assert _page_language(client, **{"accept-language": "it"}) == "it"
    assert _page_language(client) == "en"
    page = client.get("/ratings", headers={"accept-language": "pt"}).text
    with speaking("pt"):
        assert f"<title>{gettext('roses · ratings')}</title>" in page
        assert gettext("Loading…") in page and gettext("Loading…") != "Loading…"
        catalogue = re.search(r'id="translations" type="application/json">(.*?)</script>', page)
        assert catalogue is not None and '"Create game": "' + gettext("Create game") in catalogue[1]


def _translations(page: str) -> dict[str, object]:
    found = re.search(r'id="translations" type="application/json">(.*?)</script>', page)
    assert found is not None
    table = json.loads(found[1])
    assert isinstance(table, dict)
    return table


def test_a_brazilian_browser_gets_brazilian_portuguese(client: TestClient) -> None:
    """pt-BR is answered in Brazil's words (senha, cadastrar, configurações), pt-PT and a
    bare pt in Portugal's (palavra-passe, registar, definições): two catalogues."""
    brazil = client.get("/", headers={"accept-language": "pt-BR,pt;q=0.9,en-US;q=0.8"})
    assert '<html lang="pt-BR">' in brazil.text
    assert brazil.headers["content-language"] == "pt-BR"
    words = _translations(brazil.text)
    assert words["Password"] == "Senha" and words["Settings"] == "Configurações"
    assert "Carregando…" in brazil.text  # the shell's own words, written by the server
    assert words["Register first (choose a name and a password) to keep them."] == (
        "Cadastre-se primeiro (escolha um nome e uma senha) para mantê-los."
    )
    for header in ("pt-PT,pt;q=0.9", "pt"):
        portugal = client.get("/", headers={"accept-language": header})
        assert '<html lang="pt">' in portugal.text
        european = _translations(portugal.text)
        assert european["Password"] == "Palavra-passe" and european["Settings"] == "Definições"
    # Python's messages too: a refusal in the reader's Portuguese.
    for language, expected in (("pt-BR", "Entre primeiro"), ("pt", "Entra primeiro")):
        refused = client.get("/api/games/mine", headers={"accept-language": language})
        assert refused.status_code == 401 and _detail(refused).startswith(expected)


def test_the_brazilian_texts_speak_to_you_not_to_tu() -> None:
    """Every entry of pt_BR, and the rules pages and tutorials in pt-BR, were revised from
    the European ones: no "tu" forms, no words that a Brazilian reads as Portugal's."""
    european_only = re.compile(
        r"(?<![\w-])(tu|teu|tua|teus|tuas|tens|estás|podes|jogas|ecrã|utilizador\w*|"
        r"palavras?-passe|regist(?:ar|ado|o)\w*|equipas?|ficheiros?|controlo|ronda|"
        r"definições|descarregar|desforra|browser|carateres|contactos?|facto)(?![\w-])",
        re.IGNORECASE,
    )
    brazilian = _po("pt-BR")
    found = [
        (message.id, text)
        for message in brazilian
        if message.id
        for text in _forms(message.string)
        if european_only.search(text)
    ]
    pages = sorted((ROOT / "roses" / "web").glob("*/*/pt-BR.*"))
    assert len(pages) == 4  # each game's rules and tutorial
    found += [(str(page.name), line) for page in pages for line in page.read_text().splitlines()
              if european_only.search(line)]  # fmt: skip
    assert not found, found
    assert european_only.search("Escolhe o teu ecrã")  # the check sees Portugal's words


def test_the_cookie_comes_before_the_browser(client: TestClient) -> None:
    chosen = client.put("/api/language", json={"language": "it"})
    assert chosen.status_code == 204
    assert chosen.cookies[LANGUAGE_COOKIE] == "it"
    assert _page_language(client, **{"accept-language": "de"}) == "it"
    refused = client.put("/api/language", json={"language": "fr"})
    assert refused.status_code == 422 and "fr" not in refused.cookies.get(LANGUAGE_COOKIE, "")


def test_the_account_keeps_its_language_and_signing_in_brings_it(client: TestClient) -> None:
    player = sign_up(client)
    chosen = client.put("/api/language", json={"language": "de"}, headers=player.headers)
    assert chosen.status_code == 204
    assert chosen.content == b""  # it tells nothing, of any game or anyone
    client.cookies.clear()
    assert player.get("/api/me").json()["language"] == "de"
    # Pages ask the account too, before the browser (no cookie of the language here).
    assert _page_language(client, **player.headers, **{"accept-language": "it"}) == "de"
    # The account's language comes before the browser's, in errors too.
    refused = client.post(
        "/api/games/999999/join", headers={**player.headers, "accept-language": "it"}
    )
    with speaking("de"):
        assert refused.json()["detail"] == as_sentence(gettext("there is no game {id}", id=999999))
    # Signing in on another browser brings the account's language to it.
    again = client.post(
        "/api/accounts/login",
        json={"name": player.name, "password": "secret-rose"},
        headers={"accept-language": "pt"},
    )
    assert again.status_code == 200 and again.cookies[LANGUAGE_COOKIE] == "de"
    client.cookies.clear()


def test_a_language_chosen_before_registering_goes_with_the_account(client: TestClient) -> None:
    client.cookies.set(LANGUAGE_COOKIE, "pt")
    player = sign_up(client)  # clears the client's cookies
    assert player.get("/api/me").json()["language"] == "pt"
    same = sign_in(client, player.name)
    assert same.get("/api/me").json()["language"] == "pt"


def test_an_account_keeps_brazilian_portuguese(client: TestClient) -> None:
    player = sign_up(client)
    chosen = client.put("/api/language", json={"language": "pt-BR"}, headers=player.headers)
    assert chosen.status_code == 204 and chosen.cookies[LANGUAGE_COOKIE] == "pt-BR"
    client.cookies.clear()
    assert player.get("/api/me").json()["language"] == "pt-BR"
    assert _page_language(client, **player.headers, **{"accept-language": "pt-PT"}) == "pt-BR"
    for wrong in ("pt_BR", "pt-br", "pt-PT", "br"):  # the tags are exactly ours
        refused = client.put("/api/language", json={"language": wrong}, headers=player.headers)
        assert refused.status_code == 422, wrong
    assert player.get("/api/me").json()["language"] == "pt-BR"
    client.cookies.clear()


def _detail(response: object) -> str:
    detail = response.json()["detail"]  # type: ignore[attr-defined]
    assert isinstance(detail, str)
    return detail


@pytest.mark.parametrize("language", ["de", "it"])
def test_bad_input_is_refused_in_sentences_without_field_paths(
    client: TestClient, language: str
) -> None:
    asks = {"accept-language": language}
    long_name = client.post(
        "/api/accounts/register", json={"name": "x" * 30, "password": "secret-rose"}, headers=asks
    )
    missing = client.post("/api/accounts/register", json={"name": "ann"}, headers=asks)
    not_json = client.post(
        "/api/accounts/login", content=b"{", headers={**asks, "content-type": "application/json"}
    )
    player = sign_up(client)
    headers = {**player.headers, **asks}
    seats = [{"kind": "me"}, {"kind": "invite", "name": "y" * 30}]
    seat_name = client.post("/api/games", json={"seats": seats}, headers=headers)
    robot = client.post(
        "/api/games", json={"seats": [{"kind": "me"}, {"kind": "robot"}]}, headers=headers
    )
    blitz = client.post(
        "/api/games",
        json={"seats": [{"kind": "me"}, {"kind": "open"}], "time_limit": {"kind": "blitz"}},
        headers=headers,
    )
    nowhere = client.get("/api/no-such-thing", headers=headers)
    for response in (long_name, missing, not_json, seat_name, robot, blitz, nowhere):
        detail = _detail(response)
        assert not MACHINE_WORDS.search(detail), detail
        assert detail[0].isupper() and detail.endswith("."), detail
    with speaking(language):
        too_long = "{field} is too long (at most {max} characters)"
        assert _detail(long_name) == as_sentence(
            gettext(too_long, field=gettext("the name"), max=24)
        )
        assert _detail(missing) == as_sentence(
            gettext("{field} is missing", field=gettext("the password"))
        )
        assert _detail(not_json) == as_sentence(gettext("the request is not valid JSON"))
        invited = gettext("the name of the player invited to seat {n}", n=2)
        assert _detail(seat_name) == as_sentence(gettext(too_long, field=invited, max=24))
        assert gettext("the kind of seat {n}", n=2)[1:] in _detail(robot)
        assert _detail(blitz).startswith(as_sentence(gettext("the time limit"))[:-1])
        assert _detail(nowhere) == as_sentence(gettext("there is nothing at this address"))
    # Programs still learn which field it was.
    assert seat_name.json()["errors"][0]["field"] == "seats.1.name"
    # None of it is English.
    with speaking("en"):
        assert _detail(long_name) != as_sentence(
            gettext("{field} is too long (at most {max} characters)", field="the name", max=24)
        )


@pytest.mark.parametrize("language", ["de", "it"])
def test_the_games_refusals_come_in_the_players_language(client: TestClient, language: str) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    path = f"/api/games/{game['id']}/moves"
    asks = {"accept-language": language}
    not_a_move = client.post(
        path, json={"move": "Q7", "version": game["version"]}, headers={**red.headers, **asks}
    )
    out_of_turn = client.post(
        path, json={"move": "draw", "version": game["version"]}, headers={**white.headers, **asks}
    )
    assert not_a_move.status_code == 422 and out_of_turn.status_code == 403
    with speaking(language):
        assert _detail(not_a_move) == as_sentence(
            gettext(
                "not a move: '{text}' (expected a card like N2, a hero play like N2h, "
                "draw or pass)",
                text="Q7",
            )
        )
        assert _detail(out_of_turn) == as_sentence(
            gettext(
                "it is {waiting}'s turn; you play {seat}",
                waiting=gettext("Red"),
                seat=gettext("White"),
            )
        )
    assert "Red" not in _detail(out_of_turn)  # the seats are named in the language too


def test_a_translation_with_broken_braces_falls_back_to_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(i18n, "_translation", lambda language, key: "Kaputt: {nam")
    with speaking("de"):
        assert gettext("there is no game {id}", id=7) == "there is no game 7"
        assert i18n.ngettext("{n} card", "{n} cards", 2) == "2 cards"


def test_a_wars_of_the_roses_refusal_is_translated_with_its_words() -> None:
    """The engine's template and values: the phase's name is translated too."""
    game = WOTR.restore(WOTR.setup(1, 2, {}), 2, {})
    (seat,) = WOTR.to_act(game)
    with pytest.raises(IllegalAction) as refused:
        WOTR.apply(
            game, seat, WOTR.parse_action({"orders": {}})
        )  # no plans while the cards are drawn
    with speaking("it"):
        phase = gettext("draw cards")
        assert phase != "draw cards"
        assert game_error(refused.value) == gettext("no orders are given in {phase}", phase=phase)
