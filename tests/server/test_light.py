"""RK-19 Light: a play is shown and can be undone until End turn; a draw never."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .conftest import act, sign_up, two_player_game


def test_a_play_waits_for_end_turn_and_can_be_undone(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white, light=True)
    card = next(m for m in game["state"]["legal_moves"] if m != "draw")
    shown = act(red, game, card)
    assert shown["pending"] == card
    assert shown["state"]["moves"] == [card]  # RK-19: performed and shown to its player
    assert shown["log"] == []  # not yet part of the game
    assert white.game(game["id"])["state"]["moves"] == []  # the opponent sees nothing yet
    undone = red.post(f"/api/games/{game['id']}/undo", {"version": shown["version"]})
    assert undone.status_code == 200
    assert undone.json()["pending"] is None
    assert undone.json()["state"]["stones"] == {}
    again = act(red, undone.json(), card)
    ended = red.post(f"/api/games/{game['id']}/end-turn", {"version": again["version"]})
    assert ended.status_code == 200
    assert [entry["move"] for entry in ended.json()["log"]] == [card]
    assert white.game(game["id"])["your_turn"] is True


def test_a_second_play_needs_the_first_undone(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white, light=True)
    plays = [m for m in game["state"]["legal_moves"] if m != "draw"]
    shown = act(red, game, plays[0])
    second = red.post(
        f"/api/games/{game['id']}/moves", {"move": plays[-1], "version": shown["version"]}
    )
    assert second.status_code == 409
    assert "undo" in second.json()["detail"]


def test_a_draw_is_final_at_once_and_cannot_be_undone(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white, light=True)
    game = act(red, game, next(m for m in game["state"]["legal_moves"] if m != "draw"))
    game = red.post(f"/api/games/{game['id']}/end-turn", {"version": game["version"]}).json()
    view = white.game(game["id"])
    view = act(white, view, next(m for m in view["state"]["legal_moves"] if m != "draw"))
    view = white.post(f"/api/games/{game['id']}/end-turn", {"version": view["version"]}).json()
    view = red.game(game["id"])
    assert "draw" in view["state"]["legal_moves"]  # four cards now
    drawn = act(red, view, "draw")
    assert drawn["pending"] is None
    assert drawn["log"][-1]["move"] == "draw"  # RK-19: the drawn card is not taken back
    undo = red.post(f"/api/games/{game['id']}/undo", {"version": drawn["version"]})
    assert undo.status_code in {403, 409}
    assert white.game(game["id"])["your_turn"] is True


def test_undo_and_end_turn_need_a_waiting_play(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white, light=True)
    for action in ("undo", "end-turn"):
        response = red.post(f"/api/games/{game['id']}/{action}", {"version": game["version"]})
        assert response.status_code == 409
    plain = two_player_game(red, white)
    response = red.post(f"/api/games/{plain['id']}/undo", {"version": plain["version"]})
    assert response.status_code == 409
