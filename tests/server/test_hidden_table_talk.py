"""Table talk leaks nothing during a Wars of the Roses game (WR-20): through the draft, income
and a whole Planning (one plan sealed while the other is being made), every chat message
any socket receives is a message only (a players' one a courtesy phrase), a player's
refused free text reaches nobody, the spectators' asides reach no player, and what a chat
answer tells a player does not change when the other seals a plan."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import sign_up
from .hidden import assert_chat_only, walk
from .test_table_talk import live, step, wotr_game

pytestmark = pytest.mark.timeout(90)

SECRET = "I bribe Warwick and attack London with 6 troops"  # refused: never sent anywhere
ASIDE = "Red's money is low, York should bid for Calais"  # the spectators' only


def received(socket: Any, last_id: int) -> list[dict[str, Any]]:
    """Every message a socket receives up to the chat message ``last_id``."""
    messages = []
    while True:
        message = socket.receive_json()
        messages.append(message)
        if message["type"] == "chat" and message["message"]["id"] == last_id:
            return messages


def test_table_talk_carries_nothing_of_plans_and_spectators_stay_apart_wr20(
    client: TestClient,
) -> None:
    one, two, watcher = sign_up(client), sign_up(client), sign_up(client)
    game_id = wotr_game(one, two)
    chat = f"/api/games/{game_id}/chat"
    path = f"/api/games/{game_id}/ws"
    rng = random.Random(game_id)
    players = [one, two]
    with (
        one.websocket(path) as first,
        two.websocket(path) as second,
        watcher.websocket(path) as spectator,
    ):
        sockets = {"one": first, "two": second, "spectator": spectator}
        phases: list[str] = []
        sealed_seen = False
        planning_tables: dict[str, Any] = {}
        while True:  # through the draft and income to the end of the first Planning
            game = live(client, game_id)
            phase = game.state.phase.value
            if "planning" in phases and phase != "planning":
                break
            if phase not in phases:
                phases.append(phase)
                assert one.post(chat, {"text": SECRET}).status_code == 409
                assert watcher.post(chat, {"text": ASIDE}).status_code == 201
                assert two.post(chat, {"phrase": "good-luck"}).status_code == 201
            if phase == "planning" and len(game.to_act) == 1 and not sealed_seen:
                # one plan is sealed, the other is being made: its planner reads the same
                # table as before the seal, and the sealer's phrase travels like any other
                sealed_seen = True
                planner, sealer = players[game.to_act[0]], players[1 - game.to_act[0]]
                assert planner.get(chat).json() == planning_tables[planner.name]
                assert sealer.post(chat, {"phrase": "thanks"}).status_code == 201
            elif phase == "planning":
                planning_tables = {player.name: player.get(chat).json() for player in players}
            step(client, players, game_id, rng)
        last = one.post(chat, {"phrase": "well-played"}).json()["id"]
        seen = {name: received(socket, last) for name, socket in sockets.items()}
    assert "planning" in phases and sealed_seen
    for name, messages in seen.items():
        for message in messages:
            assert SECRET not in walk(message), name
            if message["type"] != "chat":
                continue
            said = message["message"]
            assert_chat_only(message, phrase=said["room"] == "players")
            if name != "spectator":
                assert said["room"] == "players", (name, said)  # the game is not over
        asides = [m for m in messages if m["type"] == "chat" and m["message"]["text"] == ASIDE]
        assert len(asides) == (len(phases) if name == "spectator" else 0)
    for reader in (one, two):
        answer = reader.get(chat).json()
        assert all(m["room"] == "players" and m["phrase"] for m in answer["messages"])
        assert SECRET not in walk(answer) and ASIDE not in walk(answer)
