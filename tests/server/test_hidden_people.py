"""The people pages leak nothing: a friend's presence names a game in progress and nothing
of its state (RK-5, RK-20; WR-20 for a sealed plan), a private message carries only itself,
and a blocked player learns nothing of the one who blocked them."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import sign_up, true_board, two_player_game
from .hidden import assert_people_only, assert_private_message_only, walk
from .test_hidden_information import assert_no_hidden_information
from .test_people import befriend, block, people, put
from .test_resign import _wotr_game, wotr_until

pytestmark = pytest.mark.timeout(90)


def test_a_friends_presence_and_messages_reveal_nothing_of_a_rose_king_game(
    client: TestClient,
) -> None:
    red, white, friend = sign_up(client), sign_up(client), sign_up(client)
    befriend(red, friend)
    game = two_player_game(red, white)
    players = {"Red": red, "White": white}
    rng = random.Random(7)
    seen: list[Any] = []
    with (
        red.websocket(f"/api/games/{game['id']}/ws") as board,
        friend.websocket("/api/lobby/ws") as lobby,
    ):
        board.receive_json()
        assert lobby.receive_json()["type"] == "hello"
        view = game
        for ply in range(8):
            player = players[view["turn"]]
            mine = player.game(game["id"])
            move = {"move": rng.choice(mine["state"]["legal_moves"]), "version": mine["version"]}
            view = player.post(f"/api/games/{game['id']}/moves", move).json()
            board.receive_json()
            answer = people(friend)
            assert answer["friends"][0]["status"] == "playing"
            assert_people_only(answer)
            sent = friend.post(f"/api/people/messages/{red.name}", {"text": f"ply {ply}"}).json()
            assert_private_message_only(sent)
            conversation = red.get(f"/api/people/messages/{friend.name}").json()
            for message in conversation["messages"]:
                assert_private_message_only(message)
            seen += [answer, sent, conversation]
            truth = true_board(client, game["id"])
            for message in seen:
                assert_no_hidden_information(message, truth, show_draw_pile=False)
        pushed = lobby.receive_json()
        while pushed["type"] != "message":  # presence news before it, if any
            assert pushed == {"type": "presence"}
            pushed = lobby.receive_json()
        assert_private_message_only(pushed)


def test_a_friends_presence_reveals_no_sealed_wotr_plan_wr20(client: TestClient) -> None:
    one, two, friend = sign_up(client), sign_up(client), sign_up(client)
    befriend(one, friend)
    game_id = _wotr_game(one, two)
    wotr_until(client, [one, two], game_id, "planning")
    view = one.game(game_id)
    bid = {"orders": {"calais": {"bid": 1, "zone": "SE"}}}
    sealed = one.post(f"/api/games/{game_id}/moves", {"move": bid, "version": view["version"]})
    assert sealed.status_code == 200, sealed.text
    with one.websocket(f"/api/games/{game_id}/ws") as board:
        board.receive_json()
        answer = people(friend)
        assert_people_only(answer)
        assert answer["friends"][0]["games"] == [{"id": game_id, "title": "Wars of the Roses"}]
        for node in walk(answer):
            assert node not in ("calais", "money", "orders", "bid")


def test_a_blocked_player_learns_nothing_of_the_one_who_blocked_them(
    client: TestClient,
) -> None:
    ann, bob = sign_up(client), sign_up(client)
    befriend(ann, bob)
    bob.post(f"/api/people/messages/{ann.name}", {"text": "hello"})
    open_id = ann.post("/api/games", {"seats": [{"kind": "me"}, {"kind": "open"}]}).json()["id"]
    with bob.websocket("/api/lobby/ws") as lobby:
        assert lobby.receive_json()["type"] == "hello"
        block(ann, bob)
        assert lobby.receive_json() == {"type": "people"}  # as for an unfollow: read again
    answers = [
        people(bob),
        bob.get("/api/games/mine").json(),
        bob.post(f"/api/games/{open_id}/join").json(),
        bob.post(f"/api/people/messages/{ann.name}", {"text": "are you there?"}).json(),
        put(bob, f"/api/people/follows/{ann.name}").text,
    ]
    assert_people_only(answers[0])
    assert answers[0]["blocked"] == [] and answers[0]["friends"] == []
    for answer in answers:
        text = str(answer).replace("'blocked': []", "")
        assert "block" not in text.lower()
        assert ann.name not in text or answer is answers[3]  # the name bob wrote to
        assert "online" not in text and "playing" not in text
    assert open_id not in [g["id"] for g in answers[1]["open"]]
