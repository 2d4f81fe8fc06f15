"""The parts around the board leak nothing: during a Rose King game with talk at the table,
every chat answer and chat socket message carries only the message, the list of games
being played only envelopes, and no answer of the new endpoints the draw pile's order."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import sign_up, true_board, two_player_game
from .hidden import (
    assert_chat_only,
    assert_envelopes_only,
    assert_states_hide_the_pile,
    history,
)
from .test_hidden_information import assert_no_hidden_information

pytestmark = pytest.mark.timeout(60)


def test_chat_spectator_lists_and_endpoints_carry_no_hidden_information(
    client: TestClient,
) -> None:
    red, white, spectator = sign_up(client), sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    game_id = game["id"]
    players = {"Red": red, "White": white}
    rng = random.Random(5)
    seen: list[Any] = []
    with spectator.websocket(f"/api/games/{game_id}/ws") as socket:
        seen.append(socket.receive_json())
        view = game
        for ply in range(12):
            player = players[view["turn"]]
            mine = player.game(game_id)
            move = {"move": rng.choice(mine["state"]["legal_moves"]), "version": mine["version"]}
            view = player.post(f"/api/games/{game_id}/moves", move).json()
            seen.append(socket.receive_json())
            said = player.post(f"/api/games/{game_id}/chat", {"text": f"move {ply}"}).json()
            chat_message = socket.receive_json()
            assert_chat_only(chat_message)
            assert chat_message["message"] == said
            truth = true_board(client, game_id)
            for answer in (
                view,
                said,
                spectator.get(f"/api/games/{game_id}/chat").json(),
                spectator.get("/api/now-playing").json(),
                spectator.get(f"/api/games/{game_id}/rematch").json(),
            ):
                assert_no_hidden_information(answer, truth, show_draw_pile=False)
            assert_envelopes_only(spectator.get("/api/now-playing").json()["games"])
        truth = true_board(client, game_id)
        over = white.post(f"/api/games/{game_id}/resign").json()
        assert_no_hidden_information(over, truth, show_draw_pile=False)
        seen.append(socket.receive_json())
    positions = history(true_board(client, game_id))
    for message in seen:  # each state against the true position after as many moves
        assert message["type"] == "game"
        assert assert_states_hide_the_pile(message, positions) == 1
