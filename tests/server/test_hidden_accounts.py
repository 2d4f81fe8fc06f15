"""The account endpoints leak nothing of a game (issue 35): during a Rose King game, the
data download, the session list and the deleted account's traces carry no draw pile (RK-5)
and no other player's hand (RK-4); during Wars of the Roses planning, a sealed plan and a
draft (WR-20) and the other seat's money stay out of the other player's download."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.roseking import card_name

from .conftest import Player, sign_up, true_board, two_player_game
from .hidden import walk
from .test_hidden_information import assert_no_hidden_information
from .test_resign import _wotr_game, wotr_until

pytestmark = pytest.mark.timeout(90)

ENVELOPE = {"id", "game", "status", "rated", "created_at", "my_seats", "seats", "result"}


def _download(player: Player) -> dict[str, Any]:
    answer = player.get("/api/accounts/data")
    assert answer.status_code == 200, answer.text
    data = dict(answer.json())
    for game in data["games"]:
        assert set(game) == ENVELOPE, sorted(game)
    return data


def test_account_answers_hide_the_pile_and_the_other_hand_rk4_rk5(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    game_id = game["id"]
    players = {"Red": red, "White": white}
    rng = random.Random(7)
    view = game
    for ply in range(10):
        player = players[view["turn"]]
        mine = player.game(game_id)
        move = {"move": rng.choice(mine["state"]["legal_moves"]), "version": mine["version"]}
        view = player.post(f"/api/games/{game_id}/moves", move).json()
        player.post(f"/api/games/{game_id}/chat", {"text": f"move {ply}"})
        truth = true_board(client, game_id)
        for reader in (red, white):
            data = _download(reader)
            sessions = reader.get("/api/accounts/sessions").json()
            for answer in (data, sessions):
                assert_no_hidden_information(answer, truth, show_draw_pile=False)
            # The other seat's hand, as card names, appears nowhere in my download.
            other = 1 if reader is red else 0
            hand = [card_name(card) for card in truth.hands[other]]
            assert not any(json.dumps(name) in json.dumps(data) for name in hand), hand
    truth = true_board(client, game_id)
    over = white.post(f"/api/games/{game_id}/resign").json()
    assert_no_hidden_information(over, truth, show_draw_pile=False)
    password = {"password": "secret-rose"}
    assert (
        client.post("/api/accounts/delete", json=password, headers=white.headers).status_code == 204
    )
    # The deleted account reveals nothing: not its name, its chat, nor the game's deal.
    after = red.game(game_id)
    chat = red.get(f"/api/games/{game_id}/chat").json()["messages"]
    assert chat and {message["player"] for message in chat} == {red.name}  # white's are gone
    text = json.dumps([after, chat, _download(red)])
    assert white.name not in text
    assert_no_hidden_information(after, true_board(client, game_id), show_draw_pile=False)
    walk(after)
    assert red.get(f"/api/players/{white.name}").status_code == 404


def test_a_sealed_plan_and_a_draft_stay_out_of_the_other_download_wr20(client: TestClient) -> None:
    one, two = sign_up(client), sign_up(client)
    game_id = _wotr_game(one, two)
    wotr_until(client, [one, two], game_id, "planning")
    path = f"/api/games/{game_id}"
    turn = one.game(game_id)["state"]["turn"]
    marker = "zz-secret-noble"
    saved = one.client.put(
        f"{path}/draft",
        json={"draft": {"turn": turn, "orders": {"noble_moves": {marker: "NE"}}}},
        headers=one.headers,
    )
    assert saved.status_code == 200, saved.text
    mine = one.game(game_id)
    bid = {"orders": {"calais": {"bid": 1, "zone": "SE"}}}
    sealed = one.post(f"{path}/moves", {"move": bid, "version": mine["version"]})
    assert sealed.status_code == 200, sealed.text
    money = mine["state"]["money"][mine["you"]]
    theirs = _download(two)
    walk(theirs)
    text = json.dumps(theirs)
    assert marker not in text and "calais" not in text and "orders" not in text
    assert f'"money": {money}' not in text and "draft" not in text
    own = json.dumps(_download(one))  # nor my own hidden state: a download is envelopes
    assert marker not in own and "calais" not in own


def test_an_api_token_is_in_no_answer_but_the_one_that_made_it(client: TestClient) -> None:
    """A personal API token's secret, and the sha256 the server keeps, appear in no answer
    of its owner's or anyone's, whether asked with the cookie or the token; what the token
    reads of a game holds no more than the seat's own view (RK-5)."""
    import hashlib

    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    made = red.post("/api/accounts/tokens", {"label": "agent", "scopes": ["read", "play"]})
    assert made.status_code == 201
    secret = made.json()["token"]
    kept = hashlib.sha256(secret.encode()).hexdigest()
    bearer = {"authorization": f"Bearer {secret}"}
    paths = ["/api/me", "/api/accounts/tokens", "/api/accounts/data", "/api/accounts/sessions",
             f"/api/players/{red.name}", "/api/games/mine", f"/api/games/{game['id']}",
             "/api/ratings/roseking/2p"]  # fmt: skip
    truth = true_board(client, game["id"])
    for path in paths:
        for reader in (red.headers, white.headers, bearer):
            text = client.get(path, headers=reader).text
            assert secret not in text and kept not in text, path
    seen = client.get(f"/api/games/{game['id']}", headers=bearer).json()
    assert seen["you"] == 0
    assert_no_hidden_information(seen, truth, show_draw_pile=False)
