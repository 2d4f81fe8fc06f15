"""Tournament pages and the lobby socket's news of them say who plays whom and how each
game ended, never a seat's hidden state (RK-5, RK-20): checked while the games of a round
are being played and once they are over."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import Player, sign_up, true_board
from .hidden import assert_tournament_only
from .test_hidden_information import assert_no_hidden_information
from .test_tournaments import fast_client, swiss, wait_for  # noqa: F401 (a fixture)

pytestmark = pytest.mark.timeout(90)


def _everything(player: Player, tournament_id: int) -> list[Any]:
    view = player.get(f"/api/tournaments/{tournament_id}").json()
    listing = player.get("/api/tournaments").json()
    return [view, *(line for lines in listing.values() for line in lines)]


def test_tournament_answers_and_news_hide_every_seats_state(fast_client: TestClient) -> None:  # noqa: F811
    organiser, other, third, fourth = (sign_up(fast_client) for _ in range(4))
    people = {p.name: p for p in (organiser, other, third, fourth)}
    made = swiss(organiser, rounds=1)
    seen: list[Any] = []
    with other.websocket("/api/lobby/ws") as lobby:
        assert lobby.receive_json()["type"] == "hello"
        for person in people.values():
            assert person.post(f"/api/tournaments/{made['id']}/join").status_code == 200
        assert organiser.post(f"/api/tournaments/{made['id']}/start").status_code == 200
        view = wait_for(
            organiser, made["id"], lambda v: v["round"] == 1 and v["status"] == "running"
        )
        rng = random.Random(36)
        names = {e["player"]: e["name"] for e in view["entrants"]}
        tables = view["pairings"][0]["tables"]
        for table in tables:  # a few moves in each game: hands and piles now differ
            for _ in range(4):
                game = people[names[table["seats"][0]]].game(table["game_id"])
                mover = people[names[table["seats"][0 if game["turn"] == "Red" else 1]]]
                mine = mover.game(table["game_id"])
                move = {
                    "move": rng.choice(mine["state"]["legal_moves"]),
                    "version": mine["version"],
                }
                assert mover.post(f"/api/games/{table['game_id']}/moves", move).status_code == 200
        for player in people.values():
            seen += _everything(player, made["id"])
        truths = [true_board(fast_client, table["game_id"]) for table in tables]
        for table in tables:
            loser = people[names[table["seats"][1]]]
            assert loser.post(f"/api/games/{table['game_id']}/resign").status_code == 200
        wait_for(organiser, made["id"], lambda v: v["status"] == "finished")
        seen += _everything(organiser, made["id"])
        news = lobby.receive_json()
        while news.get("type") != "tournament":  # the games' own news come too
            news = lobby.receive_json()
        seen.append(news)
    for message in seen:
        assert_tournament_only(message)
        for truth in truths:
            assert_no_hidden_information(message, truth, show_draw_pile=False)
