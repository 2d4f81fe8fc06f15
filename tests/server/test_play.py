"""Playing over the HTTP API: moves, automatic passes, errors that change nothing."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from roses.roseking import Board, Move
from roses.roseking.moves import PASS
from roses.roseking.record import replay

from .conftest import Player, act, opening, sign_up, start_from, two_player_game


def play_out(
    players: dict[int, Player], game: dict[str, Any], rng: random.Random
) -> dict[str, Any]:
    """Both sides make random legal moves until the game ends."""
    while game["status"] == "active":
        seat = next(s["seat"] for s in game["seats"] if s["label"].lower() == game["turn"].lower())
        player = players[seat]
        view = player.game(game["id"])
        game = act(player, view, rng.choice(view["state"]["legal_moves"]))
    return game


def test_a_game_is_played_to_the_end_and_its_record_replays(client: TestClient) -> None:
    red, white = sign_up(client, "red"), sign_up(client, "white")
    game = two_player_game(red, white)
    assert game["status"] == "active" and game["turn"] == "Red"
    early = red.get(f"/api/games/{game['id']}/record")
    assert early.status_code == 409  # the record holds the pile's order (RK-5)
    final = play_out({0: red, 1: white}, game, random.Random(5))
    assert final["status"] == "finished"
    assert final["result"]["winner"] in {"red", "white", "draw"}
    assert final["end"]["territories"]["red"] or final["end"]["territories"]["white"]
    record = red.get(f"/api/games/{game['id']}/record")
    assert record.status_code == 200
    assert "attachment" in record.headers["content-disposition"]
    board = replay(record.json())
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.result() == final["result"]["winner"]
    assert str(outcome.red) == final["result"]["red"]  # RK-21: "69 (8, 11)"
    assert [str(m) for m in board.move_stack] == [entry["move"] for entry in final["log"]]
    frames = red.get(f"/api/games/{game['id']}/replay").json()["frames"]
    assert len(frames) == len(final["log"]) + 1
    assert frames[-1]["stones"] == final["state"]["stones"]


def test_an_illegal_move_is_409_with_the_reason_and_changes_nothing(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    hand, version = game["state"]["hands"][0], game["version"]
    before = red.game(game["id"])
    missing = next(c for c in ("N1", "N2", "N3", "E1", "E2", "E3", "S1", "S2") if c not in hand)
    path = f"/api/games/{game['id']}/moves"
    response = red.post(path, {"move": missing, "version": version})
    assert response.status_code == 409
    assert f"does not hold {missing}" in response.json()["detail"]
    draw = red.post(path, {"move": "draw", "version": version})
    assert draw.status_code == 409
    detail = draw.json()["detail"]  # five cards: no draw (RK-9), said without the number
    assert "already holds 5 cards" in detail and "RK-" not in detail
    hero = red.post(path, {"move": hand[0] + "h", "version": version})
    assert hero.status_code == 409  # no stone on the board yet (RK-10)
    passing = red.post(path, {"move": "pass", "version": version})
    assert passing.status_code == 409
    assert red.game(game["id"]) == before


def test_malformed_requests_are_422_naming_the_field(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    path = f"/api/games/{game['id']}/moves"
    version = game["version"]
    bad_move = red.post(path, {"move": "Q7", "version": version})
    assert bad_move.status_code == 422
    assert bad_move.json()["errors"][0]["field"] == "move"
    assert "Not a move" in bad_move.json()["detail"]
    no_version = red.post(path, {"move": "draw"})
    assert no_version.status_code == 422
    assert no_version.json()["errors"][0]["field"] == "version"
    wrong_type = red.post(path, {"move": 3, "version": "x"})
    assert wrong_type.status_code == 422
    fields = {e["field"] for e in wrong_type.json()["errors"]}
    assert fields == {"move", "version"}
    bad_id = red.get("/api/games/not-a-number")
    assert bad_id.status_code == 422
    assert bad_id.json()["errors"][0]["field"] == "game_id"
    assert red.get("/api/games/999999").status_code == 404
    assert red.game(game["id"])["version"] == version


def test_a_player_acts_only_for_their_own_seat(client: TestClient) -> None:
    red, white, stranger = sign_up(client), sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    move = game["state"]["legal_moves"][0]
    path, version = f"/api/games/{game['id']}/moves", game["version"]
    out_of_turn = white.post(path, {"move": move, "version": version})
    assert out_of_turn.status_code == 403
    assert "Red's turn" in out_of_turn.json()["detail"]
    assert stranger.post(path, {"move": move, "version": version}).status_code == 403
    assert stranger.game(game["id"])["you"] is None  # a spectator may watch
    assert red.game(game["id"])["version"] == version


def test_a_stale_version_is_a_conflict(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    after = act(red, game, game["state"]["legal_moves"][0])
    stale = white.post(
        f"/api/games/{game['id']}/moves",
        {"move": after["state"]["legal_moves"][0], "version": game["version"]},
    )
    assert stale.status_code == 409
    assert "moved on" in stale.json()["detail"]


def _position_before_a_pass(seed: int) -> tuple[Board, Move]:
    """A position and a move after which the next seat must pass (RK-11)."""
    rng = random.Random(seed)
    for game_seed in range(10_000):
        board = Board(seed=game_seed)
        while not board.is_over():
            move = rng.choice(board.legal_moves())
            before = board.copy(stack=False)
            board.push(move)
            if board.legal_moves() == (Move(PASS),) and move.kind != PASS:
                return before, move
    raise AssertionError("no pass found")


def test_passes_are_made_by_the_server_and_logged(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    before, move = _position_before_a_pass(3)
    start_from(client, game["id"], before)
    mover = red if before.turn == 0 else white
    view = mover.game(game["id"])
    after = act(mover, view, str(move))
    assert [entry["move"] for entry in after["log"]][-2:] == [str(move), "pass"]  # RK-11
    assert after["turn"] == ("Red" if before.turn == 0 else "White")
    assert after["your_turn"] is True


def test_my_games_lists_my_turn_first_waiting_longest_on_top(client: TestClient) -> None:
    me, other = sign_up(client), sign_up(client)
    first = two_player_game(me, other)
    second = two_player_game(me, other)
    third = two_player_game(other, me)  # other is Red and moves first
    mine = me.get("/api/games/mine").json()
    assert [g["id"] for g in mine["my_turn"]] == [first["id"], second["id"]]
    assert [g["id"] for g in mine["others"]] == [third["id"]]
    act(me, first, opening(client, first))
    mine = me.get("/api/games/mine").json()
    assert [g["id"] for g in mine["my_turn"]] == [second["id"]]
    assert {g["id"] for g in mine["others"]} == {first["id"], third["id"]}
