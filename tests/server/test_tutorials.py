"""The tutorial API: each step's texts in the reader's language and its position as Red sees
it; each move judged by the engine, a wrong one answered with a hint and nothing changed;
nothing of the draw pile's order ever sent (RK-5, RK-20)."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.games import GAMES, register
from roses.roseking import parse_move
from roses.roseking.tutorial import STEPS, Reason
from roses.server.learn.rules_pages import WEB
from tests.server.duel import DUEL
from tests.server.hidden import assert_states_hide_the_pile, history, walk

LAST = len(STEPS) - 1


def positions_after(index: int, move: str | None = None) -> list[Any]:
    board = STEPS[index].board()
    if move is not None:
        board.push(parse_move(move))
    return history(board)


def test_every_language_has_every_text() -> None:
    """Each step has its title, task and answer, and every reason a move can be refused has
    a hint, in all four languages; a step's own hints name real moves or reasons."""
    reasons = {reason.value for reason in Reason} - {Reason.EXPECTED.value}
    for language in ("en", "de", "it", "pt-BR", "pt"):
        with (WEB / "roseking" / "tutorial" / f"{language}.toml").open("rb") as source:
            texts = tomllib.load(source)
        assert {"title", "intro", "summary"} <= set(texts)
        assert set(texts["hints"]) == reasons, language
        assert list(texts["steps"]) == [step.key for step in STEPS], language
        for step in STEPS:
            words = texts["steps"][step.key]
            assert {"title", "task", "done"} <= set(words)
            for key in words.get("hints", {}):
                assert key in reasons or parse_move(key), (language, step.key, key)


@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "Play a power card"), ("de", "Eine Machtkarte spielen"),
     ("it", "Giocare una carta del potere"), ("pt", "Jogar uma carta de poder"),
     ("pt-BR", "Jogar uma carta de poder")],
)  # fmt: skip
def test_the_steps_in_each_language(client: TestClient, language: str, title: str) -> None:
    tutorial = client.get("/api/tutorials/roseking", params={"lang": language}).json()
    assert tutorial["language"] == language
    assert [step["key"] for step in tutorial["steps"]] == [step.key for step in STEPS]
    assert tutorial["steps"][0]["title"] == title
    assert tutorial["steps"][0]["task"].startswith("<p>")


def test_the_language_is_negotiated(client: TestClient) -> None:
    german = client.get("/api/tutorials/roseking", headers={"Accept-Language": "de"}).json()
    assert german["language"] == "de" and german["title"] == "Rosenkönig: eine Einführung"
    unknown = client.get("/api/tutorials/roseking?lang=xx").json()
    assert unknown["language"] == "en"


def test_each_step_is_the_engine_position_as_red_sees_it(client: TestClient) -> None:
    tutorial = client.get("/api/tutorials/roseking").json()
    walk(tutorial)  # no deal, seed or god's-view position anywhere
    for index, (step, shown) in enumerate(zip(STEPS, tutorial["steps"], strict=True)):
        state = shown["view"]["state"]
        assert state["legal_moves"] == [str(m) for m in step.board().legal_moves()]
        assert state["turn"] == "r" and "draw_pile_cards" not in state
        assert assert_states_hide_the_pile(shown["view"], positions_after(index)) == 1


def test_a_wrong_move_gets_a_hint_and_changes_nothing(client: TestClient) -> None:
    wrong = client.post("/api/tutorials/roseking/steps/0", json={"move": "N3"})
    assert wrong.status_code == 200
    assert wrong.json() == {
        "accepted": False,
        "reason": "not-asked",
        "message": "<p>N3 is legal too, but here play NE3: the card whose arrow points up and "
        "to the right, three steps.</p>\n",
        "view": None,
    }
    off = client.post("/api/tutorials/roseking/steps/2", json={"move": "W1"}).json()
    assert (
        off["reason"] == "off-board" and "W1 would take the crown off the board" in off["message"]
    )
    own = client.post(
        "/api/tutorials/roseking/steps/2", json={"move": "SE3h"}, params={"lang": "de"}
    )
    assert "Auf d6 liegt dein eigener Stein" in own.json()["message"]
    # Nothing was stored: the step still asks for its move and still takes it.
    assert client.post("/api/tutorials/roseking/steps/0", json={"move": "NE3"}).json()["accepted"]


def test_the_tie_break_hint_names_the_scores_the_move_would_give(client: TestClient) -> None:
    """RK-15 / RK-21: NE3 ties the score at 114 and loses on the largest territory."""
    hint = client.post(f"/api/tutorials/roseking/steps/{LAST}", json={"move": "NE3"}).json()
    assert "Red 114 (7, 26) and White 114 (8, 26)" in hint["message"]
    draw = client.post(f"/api/tutorials/roseking/steps/{LAST}", json={"move": "draw"}).json()
    assert not draw["accepted"] and "White could place the last stone" in draw["message"]


def test_the_right_move_answers_with_the_position_after_it(client: TestClient) -> None:
    answer = client.post(f"/api/tutorials/roseking/steps/{LAST}", json={"move": "SW3"}).json()
    assert answer["accepted"] and answer["reason"] == "expected"
    assert "Red scores 124 (7, 26)" in answer["message"]
    view = answer["view"]
    assert view["state"]["over"] and view["end"]["winner"] == "red"
    assert assert_states_hide_the_pile(answer, positions_after(LAST, "SW3")) == 1
    drawn = client.post("/api/tutorials/roseking/steps/2", json={"move": "draw"}).json()
    assert drawn["accepted"] and len(drawn["view"]["state"]["hands"][0]) == 5
    assert assert_states_hide_the_pile(drawn, positions_after(2, "draw")) == 1


def test_bad_requests_are_refused_with_a_sentence(client: TestClient) -> None:
    bad = client.post("/api/tutorials/roseking/steps/0", json={"move": "fly"})
    assert bad.status_code == 422 and "Not a move: 'fly'" in bad.json()["detail"]
    assert client.post("/api/tutorials/roseking/steps/0", json={"move": "undo"}).status_code == 422
    missing = client.post("/api/tutorials/roseking/steps/0", json={})
    assert missing.status_code == 422
    beyond = client.post(f"/api/tutorials/roseking/steps/{LAST + 1}", json={"move": "N1"})
    assert (
        beyond.status_code == 404
        and beyond.json()["detail"] == f"The tutorial has steps 0 to {LAST}."
    )
    register(DUEL)  # a game without a tutorial
    try:
        none = client.get("/api/tutorials/duel")
        page = client.get("/tutorial/duel")
    finally:
        del GAMES[DUEL.name]
    assert none.status_code == 404 and "has no tutorial yet" in none.json()["detail"]
    assert page.status_code == 404
    unknown = client.get("/api/tutorials/chess")
    assert unknown.status_code == 404 and "chess" in unknown.json()["detail"]


def test_the_tutorial_page(client: TestClient) -> None:
    page = client.get("/tutorial/roseking")
    assert page.status_code == 200 and "/static/js/tutorial.js" in page.text
