"""The Wars of the Roses log in each language: the engine writes phrases (an English template
and its values, roses/wotr/text.py) and the page says them (roses/web/wotr/dom.js
``phraseText``, run here by Node with each language's catalogue, as a page carries it).

Whole games played by bots, and a sealed plan taken back and one too dear, give every kind of
event; each must come out translated in German, Italian and both Portugueses (no placeholder, no
English word left) and in English exactly as the engine (and the terminal) says it."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir

from roses.games.wotr import WOTR
from roses.server.i18n import js_catalogue
from roses.wotr import Game, Orders, Phase, Unseal
from roses.wotr.phases.deployment import deploy
from roses.wotr.phases.parliament import crown_king
from tests.wotr.helpers import BLUE, GREEN, RED, YELLOW, game_at, give

ROSES = Path(__file__).resolve().parents[2] / "roses"
NODE = shutil.which("node")
LANGUAGES = ("de", "it", "pt-BR", "pt")

# Each line a JSON phrase in, the page's text out. The catalogue is the page's
# (``<script id="translations">``), so the document is faked before i18n.js is loaded.
RUN = """
import { readFileSync } from "node:fs";
const catalogue = readFileSync(process.argv[2], "utf8");
globalThis.document = { getElementById: () => ({ textContent: catalogue }) };
const { phraseText } = await import("./dom.js");
const phrases = JSON.parse(readFileSync(process.argv[3], "utf8"));
console.log(JSON.stringify(phrases.map(phraseText)));
"""

# English words of the templates and values that must not survive a translation (place
# names, nobles, "Lancaster", "York", "Calais", "Cinque Ports", the Italian "Lord" and "VP" may).
ENGLISH = re.compile(
    r"\b(Red|Yellow|Green|Blue|nobody|troops?|pounds?|mercenary|mercenaries|cube|bid|"
    r"Turn|order|takes|collects|income|French|Aid|declines|sealed|planning|bribes?|attacks|"
    r"won|repulsed|destroyed|scores|bonuses|trade|church|moves|sails|places|defend|attack|"
    r"Captain|Left|over|game|Votes|crowned|goes|back|Ship|Bishop|Archbishop|High|"
    r"Admiral|Warden|Constable|Tower|short|money|cancelled|left|against|with)\b"
)


def phrase_templates() -> set[str]:
    """Every template the engine can log: what babel.cfg extracts as phrases."""
    keywords = {"note": None, "phrase": None, "counted": (1, 2), "score": (4,)}
    found = extract_from_dir(str(ROSES / "wotr"), method_map=[("**.py", "python")],
                             keywords=keywords)  # fmt: skip
    return {message if isinstance(message, str) else message[0] for _, _, message, *_ in found}


def _templates(phrase: dict[str, Any]) -> set[str]:
    found = {phrase["template"]}
    for value in phrase["params"].values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict):
                found |= _templates(item)
    return found


def played_logs() -> list[tuple[dict[str, Any], str]]:
    """Each event of bot games (2, 3 and 4 players) as the page gets it, with its English,
    and a plan's cancelled parts as a sealed plan's preview shows them."""
    found: list[tuple[dict[str, Any], str]] = []
    rng = random.Random(11)
    for players, seed in [(2, 1), (3, 2), (4, 3), (4, 4)]:
        game: Game = WOTR.restore(WOTR.setup(seed, players, {}), players, {})
        while not game.is_over():
            seat = rng.choice(WOTR.to_act(game))
            action = WOTR.action_json(WOTR.fallback_action(WOTR.bot_input(game, seat), rng))
            if game.phase is Phase.PLANNING:
                # A plan sealed and taken back before the last seal (WR-10), and plans
                # often too dear (WR-11).
                if len(WOTR.to_act(game)) > 1 and rng.random() < 0.2:
                    WOTR.apply(game, seat, WOTR.parse_action(action))
                    WOTR.apply(game, seat, Unseal())
                troops = action["orders"].get("troops", {})
                for location in list(troops)[:2]:  # at most 20 troops (WR-10)
                    troops[location] += rng.randint(0, max(0, 20 - sum(troops.values())))
                preview = game.view(seat).preview(Orders.from_json(action["orders"]))
                found += [(c.phrase.to_json(), c.text) for c in preview.cancelled]
            WOTR.apply(game, seat, WOTR.parse_action(action))
        found += [(event.phrase.to_json(), event.text) for event in game.state.log]
    # Three events no bot game is likely to reach: a Calais bid beyond the purse in a plan's
    # preview (WR-11), Parliament with nobody present anywhere (WR-15), and an attack ordered
    # on the strength of a Calais bid another player wins (WR-10, WR-11).
    game = WOTR.restore(WOTR.setup(5, 4, {}), 4, {})
    money = game.view(0).money[0]
    preview = game.view(0).preview(Orders(calais_bid=money + 1, calais_zone="MI"))
    found += [(c.phrase.to_json(), c.text) for c in preview.cancelled]
    crown_king(game.state)
    found.append((game.state.log[-1].phrase.to_json(), game.state.log[-1].text))
    lost = game_at(money=10).state
    give(lost, YELLOW, "windsor")
    lost.orders = {RED: Orders(calais_bid=1, calais_zone="SE", troops={"windsor": 1}),
                   YELLOW: Orders(calais_bid=2, calais_zone="MI"), GREEN: Orders(),
                   BLUE: Orders()}  # fmt: skip
    lost.phase = Phase.DEPLOYMENT
    deploy(lost)
    found += [(event.phrase.to_json(), event.text) for event in lost.log]
    return found


def said(tmp_path: Path, language: str, phrases: list[dict[str, Any]]) -> list[str]:
    catalogue = tmp_path / f"{language}.json"
    catalogue.write_text(json.dumps(js_catalogue(language)), encoding="utf-8")
    (tmp_path / "phrases.json").write_text(json.dumps(phrases), encoding="utf-8")
    done = subprocess.run(
        [str(NODE), "wotr/run.js", str(catalogue), "phrases.json"], cwd=tmp_path,
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    return list(json.loads(done.stdout))


@pytest.fixture(scope="module")
def events() -> list[tuple[dict[str, Any], str]]:
    return played_logs()


def test_the_games_log_every_kind_of_event(events: list[tuple[dict[str, Any], str]]) -> None:
    seen = set().union(*(_templates(phrase) for phrase, _ in events))
    assert phrase_templates() - seen == set()


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_every_event_is_said_in_each_language(
    tmp_path: Path, events: list[tuple[dict[str, Any], str]]
) -> None:
    (tmp_path / "wotr").mkdir()
    (tmp_path / "js").mkdir()
    shutil.copy(ROSES / "web" / "wotr" / "dom.js", tmp_path / "wotr" / "dom.js")
    shutil.copy(ROSES / "web" / "js" / "i18n.js", tmp_path / "js" / "i18n.js")
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "wotr" / "run.js").write_text(RUN)
    unique = list({json.dumps(phrase, sort_keys=True): (phrase, text) for phrase, text in events}
                  .values())  # fmt: skip
    phrases, english = [phrase for phrase, _ in unique], [text for _, text in unique]
    assert said(tmp_path, "en", phrases) == english
    for language in LANGUAGES:
        lines = said(tmp_path, language, phrases)
        for line, original in zip(lines, english, strict=True):
            assert line != original, (language, original)
            assert "{" not in line and "}" not in line, (language, line)
            assert not ENGLISH.search(line), (language, line, original)
