"""Every message a client receives holds only its player's view: never the pile's order.

Two players watch a whole game over WebSockets (and read every HTTP answer); each message
is checked against the true position in the database (RK-5, RK-20).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.roseking import Board, card_name

from .conftest import Player, sign_up, start_from, true_board, two_player_game
from .hidden import history, secret_order, walk
from .test_resign import wotr_until

# A socket that never hears its message must fail the test, not hang the run.
pytestmark = pytest.mark.timeout(60)


def assert_no_hidden_information(message: Any, truth: Board, show_draw_pile: bool) -> None:
    order = secret_order(truth)
    for node in walk(message):
        if isinstance(node, list) and order is not None:
            assert node != order, "a message lists the draw pile in its order"
        if isinstance(node, dict) and "draw_pile_count" in node:
            assert node["draw_pile_count"] == len(truth.draw_pile)
            if show_draw_pile:  # RK-20: which cards, sorted, never their order
                assert node["draw_pile_cards"] == [card_name(c) for c in sorted(truth.draw_pile)]
            else:
                assert "draw_pile_cards" not in node
    text = str(message)
    assert truth.position() not in text


def _play_watching(client: TestClient, red: Player, white: Player, show: bool) -> int:
    game = two_player_game(red, white, show_draw_pile=show)
    players = {"Red": red, "White": white}
    rng = random.Random(11)
    checked = 0
    with (
        red.websocket(f"/api/games/{game['id']}/ws") as red_ws,
        white.websocket(f"/api/games/{game['id']}/ws") as white_ws,
        red.websocket("/api/lobby/ws") as lobby,
    ):
        sockets = [red_ws, white_ws]
        assert lobby.receive_json()["type"] == "hello"
        for socket in sockets:
            assert_no_hidden_information(
                socket.receive_json(), true_board(client, game["id"]), show
            )
        view = game
        while view["status"] == "active":
            player = players[view["turn"]]
            mine = player.game(game["id"])
            truth = true_board(client, game["id"])
            assert_no_hidden_information(mine, truth, show)
            answer = player.post(
                f"/api/games/{game['id']}/moves",
                {"move": rng.choice(mine["state"]["legal_moves"]), "version": mine["version"]},
            ).json()
            truth = true_board(client, game["id"])
            assert_no_hidden_information(answer, truth, show)
            for socket, seat in zip(sockets, (0, 1), strict=True):
                message = socket.receive_json()
                assert message["type"] == "game"
                assert message["game"]["you"] == seat
                assert message["game"]["version"] == answer["version"]
                assert_no_hidden_information(message, truth, show)
                checked += 1
            assert lobby.receive_json() == {"type": "lobby", "game_id": game["id"]}
            view = answer
            if view["status"] == "active" and len(view["log"]) % 8 == 0:
                frames = player.get(f"/api/games/{game['id']}/replay").json()["frames"]
                for frame, then in zip(frames, history(truth), strict=True):
                    assert_no_hidden_information(frame, then, show)
    return checked


def test_no_message_reveals_the_draw_pile_order(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    assert _play_watching(client, red, white, show=False) > 40


def test_show_draw_pile_lists_the_cards_sorted(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    assert _play_watching(client, red, white, show=True) > 40


def test_views_do_not_depend_on_the_draw_pile_order(client: TestClient) -> None:
    """Two games dealt alike but for the pile's order look the same until a card is drawn."""
    red, white = sign_up(client), sign_up(client)
    first = two_player_game(red, white)
    second = two_player_game(red, white)
    board = Board(seed=3)  # a deal where several cards are played before anyone must draw
    reordered = board.copy()
    reordered.reorder_draw_pile(tuple(reversed(board.draw_pile)))
    start_from(client, first["id"], board)
    start_from(client, second["id"], reordered)
    first, second = red.game(first["id"]), red.game(second["id"])
    players = {"Red": red, "White": white}
    ignore = {"id", "turn_since", "version"}
    views = [first, second]
    while True:
        player = players[views[0]["turn"]]
        views = [player.game(view["id"]) for view in views]
        left, right = ({k: v for k, v in view.items() if k not in ignore} for view in views)
        assert left == right
        plays = [m for m in views[0]["state"]["legal_moves"] if m != "draw"]
        if not plays:
            break
        for view in views:
            player.post(
                f"/api/games/{view['id']}/moves", {"move": plays[0], "version": view["version"]}
            )
    assert len(views[0]["log"]) >= 4


def test_wotr_money_mercenaries_and_take_backs_stay_behind_the_screen_wr20(
    client: TestClient,
) -> None:
    """WR-20: during Planning another player's money and mercenary tokens (both on the
    Planning chart, behind the screen) reach neither the other player nor a spectator;
    a plan taken back shows only as that (the House tile turned face up again)."""
    from .test_resign import wotr_until

    one, two, watcher = sign_up(client), sign_up(client), sign_up(client)
    seats = [{"kind": "me"}, {"kind": "invite", "name": two.name}]
    game_id = one.post("/api/games", {"game": "wotr", "players": 2, "seats": seats}).json()["id"]
    two.post(f"/api/games/{game_id}/join")
    wotr_until(client, [one, two], game_id, "planning")
    for reader, mine in ((one, 0), (two, 1), (watcher, None)):
        state = reader.game(game_id)["state"]
        for secret in ("money", "mercenaries"):
            assert [v is None for v in state[secret]] == [s != mine for s in (0, 1)], secret
    view = one.game(game_id)
    bid = {"orders": {"calais": {"bid": 1, "zone": "SE"}}}
    for move in (bid, {"unseal": True}):
        view = one.post(f"/api/games/{game_id}/moves", {"move": move, "version": view["version"]})
        assert view.status_code == 200, view.text
        view = view.json()
    for reader in (two, watcher):
        seen = reader.game(game_id)["state"]
        assert [entry["template"] for entry in seen["log"][-2:]] == [
            "{seat} has sealed a plan.",
            "{seat} has taken their plan back and is planning.",
        ]
        assert "calais" not in str(seen["log"]) and seen["sealed"] == []


def test_a_wotr_planners_draft_and_its_preview_reach_that_planner_alone_wr20(
    client: TestClient,
) -> None:
    """WR-20: a plan being made is behind its planner's screen. The draft and the engine's
    preview of it (which holds the planner's money) are answered to the planner alone: not
    on the other planner's or a spectator's socket, not in their views, not in the other
    planner's own preview."""
    one, two = sign_up(client), sign_up(client)
    spectator = sign_up(client)
    seats = [{"kind": "me"}, {"kind": "invite", "name": two.name}]
    game_id = one.post("/api/games", {"game": "wotr", "players": 2, "seats": seats}).json()["id"]
    assert two.post(f"/api/games/{game_id}/join").status_code == 200
    wotr_until(client, [one, two], game_id, "planning")
    path = f"/api/games/{game_id}"
    turn = one.game(game_id)["state"]["turn"]
    marker = "zz-secret-noble"  # no card: the preview's faults name it
    secret = {"turn": turn, "orders": {"noble_moves": {marker: "NE"}}}
    seen: list[Any] = []
    with (
        two.websocket(f"{path}/ws") as two_socket,
        spectator.websocket(f"{path}/ws") as spectator_socket,
    ):
        seen += [two_socket.receive_json(), spectator_socket.receive_json()]
        saved = one.client.put(f"{path}/draft", json={"draft": secret}, headers=one.headers)
        assert saved.status_code == 200, saved.text
        preview = saved.json()["preview"]
        assert marker in str(preview["faults"])  # the planner's own preview names it
        mine = one.game(game_id)
        assert preview["money"] == mine["state"]["money"][mine["you"]]
        theirs = two.client.put(
            f"{path}/draft", json={"draft": {"turn": turn, "orders": {}}}, headers=two.headers
        )
        seen.append(theirs.json())
        view = two.game(game_id)
        assert theirs.json()["preview"]["money"] == view["state"]["money"][view["you"]]
        assert view["state"]["money"][mine["you"]] is None  # behind one's screen
        sealed = one.post(f"{path}/moves", {"move": {"orders": {}}, "version": mine["version"]})
        assert sealed.status_code == 200, sealed.text
        seen += [two_socket.receive_json(), spectator_socket.receive_json()]
    seen += [two.game(game_id), spectator.game(game_id)]
    for message in seen:
        assert marker not in str(message)
        assert preview not in walk(message)


def test_a_running_wotr_games_review_is_never_computed_nor_sent_wr20(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """WR-10, WR-20: a turn review is searched from a seat's view, money behind the screen
    included. While the game runs nobody gets one, not even of the turns already revealed:
    the server refuses before it reads a single input (a module that would compute one
    fails this test), and the refusal holds nothing of the game but its number."""
    from roses.games.wotr import Wotr

    def never(self: Wotr, state: Any) -> list[Any]:
        raise AssertionError("a running game's review inputs were computed")

    monkeypatch.setattr(Wotr, "analysis_inputs", never)
    one, two, watcher = sign_up(client), sign_up(client), sign_up(client)
    seats = [{"kind": "me"}, {"kind": "invite", "name": two.name}]
    game_id = one.post("/api/games", {"game": "wotr", "players": 2, "seats": seats}).json()["id"]
    two.post(f"/api/games/{game_id}/join")
    wotr_until(client, [one, two], game_id, "planning")
    view = one.game(game_id)
    secret = {"calais": {"bid": 1, "zone": "SE"}}
    sealed = one.post(f"/api/games/{game_id}/moves",
                      {"move": {"orders": secret}, "version": view["version"]})  # fmt: skip
    assert sealed.status_code == 200, sealed.text
    path = f"/api/games/{game_id}/analysis"
    for reader in (one, two, watcher):
        for answer in (reader.get(path), reader.post(path)):
            assert answer.status_code == 403, answer.text
            assert set(answer.json()) <= {"detail", "errors"}
            assert all(node != secret for node in walk(answer.json()))
            assert "calais" not in answer.text.lower() and "money" not in answer.text.lower()
