"""Resigning: the game ends at once and the resigner (in the Rose King team game, the
team, RK-16) ranks last; written through the game's writer and announced like an action."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from roses.games.wotr import WOTR
from roses.server.db.store import read_game
from roses.server.play.live_games import LiveGame
from roses.server.services import services_of

from .conftest import Player, act, sign_up, two_player_game

pytestmark = pytest.mark.timeout(60)


def test_a_player_resigns_and_the_game_ends_at_once(client: TestClient) -> None:
    red, white, watcher = sign_up(client), sign_up(client), sign_up(client)
    started = two_player_game(red, white)
    game = act(red, started, started["state"]["legal_moves"][0])
    with white.websocket(f"/api/games/{game['id']}/ws") as socket:
        assert socket.receive_json()["version"] == game["version"]
        spectator = watcher.post(f"/api/games/{game['id']}/resign")
        assert spectator.status_code == 403 and "no seat" in spectator.json()["detail"]
        answer = white.post(f"/api/games/{game['id']}/resign")
        assert answer.status_code == 200, answer.text
        over = answer.json()
        assert over["status"] == "finished" and over["version"] == game["version"] + 1
        assert over["result"]["ranks"] == [0, 1] and over["result"]["winner"] == "red"
        assert over["result"]["termination"] == "resignation"
        assert over["result"]["text"].startswith("White resigns · Red wins")
        pushed = socket.receive_json()
        assert pushed["type"] == "game" and pushed["game"]["result"] == over["result"]
    assert red.game(game["id"])["result"] == over["result"]
    again = red.post(f"/api/games/{game['id']}/resign")
    assert again.status_code == 409 and again.json()["detail"] == "The game is over."
    late = white.post(
        f"/api/games/{game['id']}/moves", {"move": "draw", "version": over["version"]}
    )
    assert late.status_code == 409 and late.json()["detail"] == "The game is over."
    assert red.get(f"/api/games/{game['id']}/record").status_code == 200  # over: the record
    # Read afresh from the database, the game is as the writer left it.
    services_of(client.app).games.evict(game["id"])  # type: ignore[attr-defined]
    assert white.game(game["id"])["result"] == over["result"]


def test_a_game_not_yet_started_cannot_be_resigned(client: TestClient) -> None:
    host = sign_up(client)
    created = host.post("/api/games", {"seats": [{"kind": "me"}, {"kind": "open"}]}).json()
    refused = host.post(f"/api/games/{created['id']}/resign")
    assert refused.status_code == 409 and "not started" in refused.json()["detail"]
    assert host.game(created["id"])["version"] == created["version"]


def test_in_the_team_game_the_team_resigns(client: TestClient) -> None:
    host = sign_up(client)
    partner = sign_up(client)
    bot = {"kind": "bot", "bot": "random"}
    seats = [{"kind": "me"}, bot, {"kind": "invite", "name": partner.name}, bot]
    created = host.post("/api/games", {"players": 4, "seats": seats}).json()
    partner.post(f"/api/games/{created['id']}/join")
    over = partner.post(f"/api/games/{created['id']}/resign").json()
    assert over["status"] == "finished" and over["result"]["ranks"] == [1, 0, 1, 0]
    assert over["result"]["winner"] == "white"


def _wotr_game(one: Player, two: Player) -> int:
    seats = [{"kind": "me"}, {"kind": "invite", "name": two.name}]
    game_id = int(
        one.post("/api/games", {"game": "wotr", "players": 2, "seats": seats}).json()["id"]
    )
    assert two.post(f"/api/games/{game_id}/join").status_code == 200
    return game_id


def wotr_until(client: TestClient, players: list[Player], game_id: int, phase: str) -> None:
    """Play random legal actions (the engine's own fallback) until the game reaches ``phase``."""
    rng = random.Random(game_id)
    while True:
        with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
            live = LiveGame(read_game(db, game_id))
        if live.state.phase.value == phase:
            return
        seat = live.to_act[0]
        action = WOTR.action_json(WOTR.fallback_action(WOTR.bot_input(live.state, seat), rng))
        answer = players[seat].post(
            f"/api/games/{game_id}/moves",
            {"move": action, "version": live.version},
        )
        assert answer.status_code == 200, answer.text


def test_a_wotr_player_resigns_and_ranks_last(client: TestClient) -> None:
    one, two = sign_up(client), sign_up(client)
    game_id = _wotr_game(one, two)
    wotr_until(client, [one, two], game_id, "planning")
    over = one.post(f"/api/games/{game_id}/resign").json()
    assert over["status"] == "finished" and over["result"]["ranks"] == [1, 0]
    assert over["result"]["resigned"] == over["result"]["ranking"][-1]
    assert over["can_act"] is False and over["to_act"] == []
