"""The Wars of the Roses turn review through the API (GET/POST /api/games/{id}/analysis):
refused to everyone while the game runs, casual or rated (403: a plan's review is searched
from its seat's view, money behind the screen included, WR-20), computed in the analysis
workers once it is over and kept; each revealed plan (WR-10) beside the search's; a plan
sealed but never revealed appears nowhere."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from roses.server import Settings, create_app
from roses.server.db.models import AnalysisRow
from roses.server.db.store import read_game
from roses.server.play.live_games import LiveGame
from roses.server.services import services_of

from .conftest import Player, sign_up
from .hidden import assert_review_only, walk
from .test_resign import wotr_until

pytestmark = pytest.mark.timeout(240)
OVER = "game over"


@pytest.fixture
def app_client(database_url: str) -> Iterator[TestClient]:
    settings = Settings(database_url=database_url, analysis_seconds=0.05)
    with TestClient(create_app(settings)) as client:
        yield client


def wotr_game(one: Player, two: Player, rated: bool = False) -> int:
    seats = [{"kind": "me"}, {"kind": "invite", "name": two.name}]
    body = {"game": "wotr", "players": 2, "seats": seats, "rated": rated}
    created = one.post("/api/games", body)
    assert created.status_code == 201, created.text
    game_id = int(created.json()["id"])
    assert two.post(f"/api/games/{game_id}/join").status_code == 200
    return game_id


def until_planning_of(client: TestClient, players: list[Player], game_id: int, turn: int) -> None:
    """Random legal actions (``wotr_until``) until the Planning of ``turn``."""
    while True:
        wotr_until(client, players, game_id, "planning")
        with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
            if LiveGame(read_game(db, game_id)).state.turn == turn:
                return
        wotr_until(client, players, game_id, "draw cards")


def wait_for(player: Player, game_id: int) -> dict[str, Any]:
    deadline = time.monotonic() + 200
    while time.monotonic() < deadline:
        answer = player.get(f"/api/games/{game_id}/analysis")
        assert answer.status_code == 200, answer.text
        body = dict(answer.json())
        if not body["running"]:
            return body
        time.sleep(0.2)
    raise AssertionError("the review did not finish")


def revealed_plans(record: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """(seat, plan) of every turn whose plans were all sealed, turn by turn, seat by seat."""
    plans: list[tuple[int, dict[str, Any]]] = []
    turn: dict[int, dict[str, Any]] = {}
    for action in record["actions"]:
        assert "unseal" not in action  # the random player never takes a plan back
        if "orders" in action:
            turn[action["seat"]] = action["orders"]
            if len(turn) == record["players"]:
                plans += sorted(turn.items())
                turn = {}
    return plans


def refused_while_running(players: list[Player], game_id: int, message: str) -> None:
    path = f"/api/games/{game_id}/analysis"
    for player in players:
        for answer in (player.get(path), player.post(path)):
            assert answer.status_code == 403, answer.text
            assert message in answer.json()["detail"]


def stored(client: TestClient, game_id: int) -> int:
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        query = select(func.count()).select_from(AnalysisRow)
        return int(db.scalar(query.where(AnalysisRow.game_id == game_id)) or 0)


def test_a_casual_game_is_reviewed_only_once_over_then_kept(app_client: TestClient) -> None:
    one, two, watcher = sign_up(app_client), sign_up(app_client), sign_up(app_client)
    game_id = wotr_game(one, two)
    wotr_until(app_client, [one, two], game_id, "planning")
    refused_while_running([one, two, watcher], game_id, "is analysed only once the game is over")
    until_planning_of(app_client, [one, two], game_id, 2)  # turn 1's plans are revealed
    refused_while_running([one, two, watcher], game_id, "is analysed only once the game is over")
    assert stored(app_client, game_id) == 0  # nothing was computed while it ran

    wotr_until(app_client, [one, two], game_id, OVER)
    path = f"/api/games/{game_id}/analysis"
    before = watcher.get(path).json()
    plans = revealed_plans(watcher.get(f"/api/games/{game_id}/record").json())
    assert len(plans) == 2 * 5 and before["decisions"] == [None] * len(plans)
    started = watcher.post(path)
    assert started.status_code == 202 and started.json()["running"] is True
    body = wait_for(watcher, game_id)
    assert body["problem"] is None
    assert_review_only(body)
    reviews = body["decisions"]
    assert [(r["turn"], r["seat"]) for r in reviews] == [
        (turn, seat) for turn in range(1, 6) for seat in ("Red", "Yellow")
    ]
    assert [r["made"]["orders"] for r in reviews] == [plan for _, plan in plans]
    for review in reviews:
        assert review["iterations"] >= 0 and review["candidates"] >= 1
        assert review["made"]["vp"] >= review["vp_before"] <= review["search"]["vp"]
        assert review["same"] == (review["made"]["orders"] == review["search"]["orders"])
    assert stored(app_client, game_id) == len(plans)
    again = one.post(path)  # kept: nothing runs again
    assert again.status_code == 200 and again.json()["decisions"] == reviews


def test_a_rated_game_is_closed_to_its_players_and_to_everyone_while_it_runs(
    app_client: TestClient,
) -> None:
    one, two, watcher = sign_up(app_client), sign_up(app_client), sign_up(app_client)
    game_id = wotr_game(one, two, rated=True)
    wotr_until(app_client, [one, two], game_id, "planning")
    refused_while_running([one, two], game_id, "You play in this rated game")
    refused_while_running([watcher], game_id, "is analysed only once the game is over")
    assert two.post(f"/api/games/{game_id}/resign").status_code == 200
    # Resigned in turn 1's Planning: no plan was revealed, so there is nothing to review.
    body = one.post(f"/api/games/{game_id}/analysis").json()
    assert body["decisions"] == [] and body["running"] is False


def test_a_plan_sealed_but_never_revealed_is_never_reviewed_nor_sent(
    app_client: TestClient,
) -> None:
    """A game given up while planning: the plan one seat sealed was never revealed (WR-10),
    so the review of the finished game holds the revealed turns alone."""
    one, two, watcher = sign_up(app_client), sign_up(app_client), sign_up(app_client)
    game_id = wotr_game(one, two)
    until_planning_of(app_client, [one, two], game_id, 2)  # turn 1 revealed
    game = one.game(game_id)
    sealer, quitter = (one, two) if game["can_act"] else (two, one)
    seen = sealer.game(game_id)
    secret = {"calais": {"bid": max(1, seen["state"]["money"][seen["you"]]), "zone": "MI"}}
    sealed = sealer.post(f"/api/games/{game_id}/moves",
                         {"move": {"orders": secret}, "version": seen["version"]})  # fmt: skip
    assert sealed.status_code == 200, sealed.text
    assert quitter.post(f"/api/games/{game_id}/resign").status_code == 200
    assert watcher.post(f"/api/games/{game_id}/analysis").status_code == 202
    body = wait_for(watcher, game_id)
    assert_review_only(body)
    assert [r["turn"] for r in body["decisions"]] == [1, 1]
    assert all(node != secret for node in walk(body))


def test_wars_of_the_roses_has_no_position_analysis(app_client: TestClient) -> None:
    answer = sign_up(app_client).post("/api/analysis/wotr/position", {"position": {}})
    assert answer.status_code == 404, answer.text
    assert answer.json()["detail"] == "There is no position analysis for Wars of the Roses."
