"""Rematches: offered by any player of a finished game, accepted by each other person
(bots at once); then a new game with the same options and the seats rotated starts, and
everyone watching the old game hears of it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from .conftest import sign_up, two_player_game

pytestmark = pytest.mark.timeout(60)


def test_both_accept_and_a_game_with_the_seats_swapped_starts(client: TestClient) -> None:
    red, white, watcher = sign_up(client), sign_up(client), sign_up(client)
    game = two_player_game(red, white, light=True)
    path = f"/api/games/{game['id']}/rematch"
    early = red.post(path)
    assert early.status_code == 409 and "once the game is over" in early.json()["detail"]
    white.post(f"/api/games/{game['id']}/resign")
    assert watcher.post(path).status_code == 403
    with white.websocket(f"/api/games/{game['id']}/ws") as socket:
        socket.receive_json()
        offer = red.post(path).json()
        assert offer == {
            "game_id": game["id"], "accepted": [red.name], "waiting_for": [white.name],
            "rematch": None,
        }  # fmt: skip
        assert socket.receive_json()["type"] == "game"  # the vote is a new version
        assert socket.receive_json() == {"type": "rematch", "game_id": game["id"], "rematch": offer}
        assert red.post(path).json() == offer  # saying it twice changes nothing
        accepted = white.post(path).json()
        assert accepted["waiting_for"] == [] and accepted["rematch"] is not None
        socket.receive_json()
        assert socket.receive_json()["rematch"] == accepted
    new = red.game(accepted["rematch"])
    assert new["status"] == "active" and new["options"] == game["options"]
    assert [s["player"] for s in new["seats"]] == [white.name, red.name]
    assert red.get(path).json() == accepted
    assert white.post(path).json() == accepted  # started once only


def test_bots_accept_at_once(client: TestClient) -> None:
    host = sign_up(client)
    bot = {"kind": "bot", "bot": "random"}
    seats = [{"kind": "me"}, bot, {"kind": "open"}, bot]
    partner = sign_up(client)
    game = host.post("/api/games", {"players": 4, "seats": seats}).json()
    partner.post(f"/api/games/{game['id']}/join")
    host.post(f"/api/games/{game['id']}/resign")
    path = f"/api/games/{game['id']}/rematch"
    assert partner.post(path).json()["waiting_for"] == [host.name]
    started = host.post(path).json()["rematch"]
    seats_now = host.game(started)["seats"]
    # Rotated by one: each seat's player moves to the seat before; partners stay partners.
    assert [s["player"] or s["bot"] for s in seats_now] == [
        "random",
        partner.name,
        "random",
        host.name,
    ]


def test_a_wotr_rematch_against_a_bot_starts_at_once(client: TestClient) -> None:
    host = sign_up(client)
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
    game = host.post("/api/games", {"game": "wotr", "players": 2, "seats": seats}).json()
    host.post(f"/api/games/{game['id']}/resign")
    offer = host.post(f"/api/games/{game['id']}/rematch").json()
    assert offer["accepted"] == [host.name] and offer["waiting_for"] == []
    new = host.game(offer["rematch"])
    assert new["game"] == "wotr" and new["status"] == "active" and new["you"] == 1
