"""The Wars of the Roses tutorial API: each step's texts in the reader's language and its
position as Red sees it, with the board to draw it; each decision judged by the engine, a
wrong one answered with a hint in the reader's language and nothing changed; nothing of
another seat's sealed plan, money or the deck's order ever sent (WR-20)."""

from __future__ import annotations

import json
import string
import tomllib
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.games.wotr import WOTR
from roses.server.learn.rules_pages import WEB
from roses.wotr import Phase, default_board
from roses.wotr.tutorial import STEPS, Reason

LANGUAGES = ("en", "de", "it", "pt-BR", "pt")
KEYS = [step.key for step in STEPS]


def test_every_language_has_every_text() -> None:
    """Every step's title, task and answer, and a hint for every reason a decision can be
    refused, in all four languages, with the placeholders of the English."""
    reasons = {reason.value for reason in Reason} - {Reason.EXPECTED.value}
    english: dict[str, Any] = {}
    for language in LANGUAGES:
        with (WEB / "wotr" / "tutorial" / f"{language}.toml").open("rb") as source:
            texts = tomllib.load(source)
        english = english or texts
        assert {"title", "intro", "summary"} <= set(texts)
        assert set(texts["hints"]) == reasons, language
        assert list(texts["steps"]) == KEYS, language
        for key, hint in texts["hints"].items():
            assert _fields(hint) <= _fields(english["hints"][key]), (language, key)
        for key in KEYS:
            words = texts["steps"][key]
            assert {"title", "task", "done"} <= set(words)
            assert set(words.get("hints", {})) <= reasons, (language, key)
            if language != "en":  # a real translation, not the English copied
                assert words["task"] != english["steps"][key]["task"], (language, key)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "Take a card"), ("de", "Eine Karte nehmen"), ("it", "Prendere una carta"),
     ("pt", "Tirar uma carta"), ("pt-BR", "Pegar uma carta")],
)  # fmt: skip
def test_the_steps_in_each_language(client: TestClient, language: str, title: str) -> None:
    tutorial = client.get("/api/tutorials/wotr", params={"lang": language}).json()
    assert tutorial["language"] == language
    assert [step["key"] for step in tutorial["steps"]] == KEYS
    assert tutorial["steps"][0]["title"] == title
    assert "WR-10" in tutorial["steps"][2]["task"]


def test_each_step_is_the_engine_position_as_red_sees_it(client: TestClient) -> None:
    tutorial = client.get("/api/tutorials/wotr").json()
    board = default_board().to_json()
    for step, shown in zip(STEPS, tutorial["steps"], strict=True):
        game = step.game()
        view = shown["view"]
        assert view["state"] == json.loads(json.dumps(game.view(0).to_json()))
        assert view["materials"]["board"] == json.loads(json.dumps(board))
        assert view["state"]["viewer"] == "Red"


def test_no_sealed_plan_money_or_deck_order_leaves_the_server_wr20(client: TestClient) -> None:
    """Where Red plans the others have sealed: their plans, their money and the deck's order
    are nowhere in the answer, only that they have sealed."""
    tutorial = client.get("/api/tutorials/wotr").json()
    for step, shown in zip(STEPS, tutorial["steps"], strict=True):
        game = step.game()
        state = shown["view"]["state"]
        text = json.dumps(shown)
        assert "deck" not in state and state["deck_size"] == len(game.state.deck)
        assert json.dumps(game.state.deck) not in text
        if game.phase is Phase.PLANNING:
            others = [seat for seat in range(game.players) if seat != 0]
            assert state["sealed"] == [state["seats"][seat] for seat in others]
            assert state["my_orders"] is None and state["revealed"] == {}
            assert all(state["money"][seat] is None for seat in others)
            assert all(state["mercenaries"][seat] is None for seat in others)
            for seat in others:
                sealed = game.state.orders[seat].to_json()["orders"]
                for part in sealed.values():  # e.g. Yellow's 4 troops on Newcastle
                    assert json.dumps(part)[1:-1] not in text or not part


def test_a_wrong_decision_gets_a_hint_and_changes_nothing(client: TestClient) -> None:
    troops = {"orders": {"troops": {"lincoln": 3}}}
    wrong = client.post("/api/tutorials/wotr/steps/2", json={"move": troops})
    assert wrong.status_code == 200
    answer = wrong.json()
    assert answer["accepted"] is False and answer["view"] is None
    assert answer["reason"] == "not-present"
    assert (
        "You are not present in Northern England, so you may not attack Lincoln"
        in answer["message"]
    )
    german = client.post(
        "/api/tutorials/wotr/steps/2", json={"move": troops}, params={"lang": "de"}
    )
    assert "Du bist in Northern England nicht präsent" in german.json()["message"]
    short = {"orders": {"troops": {"newcastle": 3, "bamburgh": 3}}}
    italian = client.post(
        "/api/tutorials/wotr/steps/3", json={"move": short}, params={"lang": "it"}
    )
    assert "Il tuo piano costa 18 sterline e ne hai 15" in italian.json()["message"]
    picked = client.post("/api/tutorials/wotr/steps/0", json={"move": {"pick": "percy"}},
                         params={"lang": "pt"}).json()  # fmt: skip
    assert picked["reason"] == "not-asked" and "Percy também é uma boa carta" in picked["message"]
    # Nothing was stored: the step still takes its decision.
    right = {"orders": {"noble_moves": {"percy": "NE"}, "troops": {"lincoln": 3}}}
    assert client.post("/api/tutorials/wotr/steps/2", json={"move": right}).json()["accepted"]


def test_the_right_decision_answers_with_the_game_after_it(client: TestClient) -> None:
    plan = {"orders": {"noble_moves": {"percy": "NE"}}}
    answer = client.post("/api/tutorials/wotr/steps/6", json={"move": plan}).json()
    assert answer["accepted"] and answer["reason"] == "expected"
    assert "Lancaster wins 27 votes to 12" in answer["message"]
    state = answer["view"]["state"]
    assert state["crowned"] == ["Lancaster"] and state["turn"] == 2
    assert state["revealed"] == {} or all(isinstance(v, dict) for v in state["revealed"].values())
    assert "materials" in answer["view"]
    # The view after is the game's own for Red: the next turn's table, nobody's secrets.
    after = STEPS[6].game()
    after.apply(0, WOTR.parse_action(plan))
    assert state == json.loads(json.dumps(after.view(0).to_json()))


def test_bad_requests_are_refused_with_a_sentence(client: TestClient) -> None:
    bad = client.post("/api/tutorials/wotr/steps/0", json={"move": {"fly": True}})
    assert bad.status_code == 422 and "unknown action 'fly'" in bad.json()["detail"]
    typo = client.post("/api/tutorials/wotr/steps/2", json={"move": {"orders": {"troops": 3}}})
    assert typo.status_code == 422 and "Orders.troops: must map Locations" in typo.json()["detail"]
    beyond = client.post(f"/api/tutorials/wotr/steps/{len(STEPS)}", json={"move": {"pick": "x"}})
    assert beyond.status_code == 404


def test_the_catalogue_and_the_page_offer_it(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    assert next(g for g in catalog["games"] if g["name"] == "wotr")["tutorial"] is True
    page = client.get("/tutorial/wotr")
    assert page.status_code == 200 and "/static/js/tutorial.js" in page.text
    for language, words in [
        ("en", "interactive tutorial"),
        ("de", "interaktive Einführung"),
        ("it", "tutorial interattivo"),
        ("pt", "tutorial interativo"),
        ("pt-BR", "tutorial interativo"),
    ]:
        rules = client.get("/rules/wotr", params={"lang": language})
        assert f'<a href="/tutorial/wotr">{words}</a>' in rules.text, language


def test_a_draft_plan_is_previewed_in_the_steps_position_wr11(client: TestClient) -> None:
    """The planning chart's running account: 18 pounds of troops with 15 pounds pays
    Bamburgh's castle first and cancels a troop for Newcastle. Red's own plan only: Yellow's
    sealed 4 troops on Newcastle appear nowhere (WR-20)."""
    draft = {"turn": 1, "orders": {"troops": {"newcastle": 3, "bamburgh": 3}}}
    answer = client.post("/api/tutorials/wotr/steps/3/preview", json={"draft": draft})
    assert answer.status_code == 200
    preview = answer.json()["preview"]
    assert (preview["cost"], preview["money"], preview["short"]) == (18, 15, 3)
    assert [(c["card"], c["count"]) for c in preview["paid"]] == [("bamburgh", 3), ("newcastle", 2)]
    assert [(c["card"], c["count"]) for c in preview["cancelled"]] == [("newcastle", 1)]
    assert preview["present"] == ["NM"]
    text = json.dumps(answer.json())
    assert '"count": 4' not in text and "Yellow" not in text
    # Where nobody plans (the draft), nothing is previewed; a malformed draft says why.
    assert client.post("/api/tutorials/wotr/steps/0/preview", json={"draft": draft}).json() == {
        "preview": None
    }
    typo = {"turn": 1, "orders": {"troops": 3}}
    bad = client.post("/api/tutorials/wotr/steps/3/preview", json={"draft": typo}).json()
    assert bad["preview"]["problem"]["field"] == "orders.troops"
    text = client.post("/api/tutorials/wotr/steps/3/preview", json={"draft": "plan"})
    assert text.status_code == 422 and text.json()["errors"][0]["field"] == "draft"
    beyond = client.post(f"/api/tutorials/wotr/steps/{len(STEPS)}/preview", json={"draft": draft})
    assert beyond.status_code == 404
    # The Rose King's tutorial has no drafts to preview.
    none = client.post("/api/tutorials/roseking/steps/0/preview", json={"draft": {}})
    assert none.status_code == 200 and none.json() == {"preview": None}
