"""Spectators: a paged list of games being played now (envelopes only), the public view of
any game for a user without a seat, and the lobby told live when open games change."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from roses.server.db.store import read_game
from roses.server.lobby import routes as lobby_routes
from roses.server.play.live_games import LiveGame
from roses.server.services import services_of

from .conftest import sign_up, true_board, two_player_game
from .hidden import assert_envelopes_only, assert_states_hide_the_pile, history

pytestmark = pytest.mark.timeout(60)


def test_games_being_played_are_listed_a_page_at_a_time(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby_routes, "PAGE_SIZE", 2)
    red, white, spectator = sign_up(client), sign_up(client), sign_up(client)
    playing = [two_player_game(red, white)["id"] for _ in range(3)]
    waiting = red.post("/api/games", {"seats": [{"kind": "me"}, {"kind": "open"}]}).json()["id"]
    red.post(f"/api/games/{playing[0]}/resign")
    first = spectator.get("/api/now-playing").json()
    second = spectator.get("/api/now-playing?page=2").json()
    listed = [g["id"] for g in first["games"] + second["games"]]
    assert playing[1] in listed and playing[2] in listed
    assert playing[0] not in listed and waiting not in listed  # over, not started
    assert first["page"] == 1 and first["pages"] >= 1 and len(first["games"]) <= 2
    assert_envelopes_only(first["games"] + second["games"])
    bad = spectator.get("/api/now-playing?page=0")
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "page"
    assert client.get("/api/now-playing").status_code == 401


def test_a_spectator_sees_the_public_view_only(client: TestClient) -> None:
    red, white, spectator = sign_up(client), sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    watched = spectator.game(game["id"])
    truth = true_board(client, game["id"])
    assert watched["you"] is None and watched["can_act"] is False
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        public = LiveGame(read_game(db, game["id"])).module_view(None)
    assert {key: watched[key] for key in public} == public  # the game's view for no seat
    assert assert_states_hide_the_pile(watched, history(truth)) == 1
    assert watched["state"]["hands"] == red.game(game["id"])["state"]["hands"]  # RK-5: open
    refused = spectator.post(f"/api/games/{game['id']}/moves", {"move": "draw", "version": 1})
    assert refused.status_code == 403


def test_everyones_lobby_hears_when_open_games_change(client: TestClient) -> None:
    host, joiner, bystander = sign_up(client), sign_up(client), sign_up(client)
    note = {"type": "open-games"}
    with bystander.websocket("/api/lobby/ws") as lobby:
        assert lobby.receive_json()["type"] == "hello"
        created = host.post("/api/games", {"seats": [{"kind": "me"}, {"kind": "open"}]}).json()
        assert lobby.receive_json() == note
        host.post(f"/api/games/{created['id']}/cancel")
        assert lobby.receive_json() == note
        other = host.post("/api/games", {"seats": [{"kind": "me"}, {"kind": "open"}]}).json()
        assert lobby.receive_json() == note
        joiner.post(f"/api/games/{other['id']}/join")  # started: no longer open
        assert lobby.receive_json() == note
        started = joiner.game(other["id"])
        player = host if started["seats"][started["to_act"][0]]["player"] == host.name else joiner
        mine = player.game(other["id"])
        move = {"move": mine["state"]["legal_moves"][0], "version": mine["version"]}
        player.post(f"/api/games/{other['id']}/moves", move)
        host.post(f"/api/games/{other['id']}/resign")  # neither a move nor the end is news
        created = host.post("/api/games", {"seats": [{"kind": "me"}, {"kind": "open"}]}).json()
        assert lobby.receive_json() == note  # the next note is the next open game
