"""Moves over a game's WebSocket (the browser's path): the POST's checks, statuses and
sentences, an ack after the new view, nothing changed by a refusal, a rate limit, and
nothing of another seat's hidden view on any socket."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.games import GAMES, register
from roses.server import Settings, create_app
from roses.server.accounts import quotas
from roses.server.services import services_of

from .conftest import MEASURED_TAKE, Player, opening, sign_up, two_player_game
from .duel import DUEL
from .hidden import assert_socket_reply_only, walk

# A socket that never hears its message must fail the test, not hang the run.
pytestmark = pytest.mark.timeout(60)


def _move(socket: Any, move: Any, version: Any, message_id: Any = 1) -> None:
    socket.send_json({"type": "move", "move": move, "version": version, "id": message_id})


def _reply(socket: Any) -> dict[str, Any]:
    """The next reply to a move, past any view; checked for what it may hold."""
    while (message := socket.receive_json())["type"] == "game":
        pass
    assert_socket_reply_only(message)
    return dict(message)


def _post(player: Player, game_id: int, move: Any, version: Any) -> Any:
    return player.post(f"/api/games/{game_id}/moves", {"move": move, "version": version})


def test_a_move_on_the_socket_is_acknowledged_after_its_view(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    path = f"/api/games/{game['id']}/ws?version={game['version']}"
    with red.websocket(path) as red_ws, white.websocket(path) as white_ws:
        _move(red_ws, opening(client, game), game["version"], "k-1")
        mine = red_ws.receive_json()  # the new view comes first, then the ack
        assert mine["type"] == "game" and mine["version"] == game["version"] + 1
        assert mine["game"]["you"] == 0 and mine["game"]["your_turn"] is False
        assert red_ws.receive_json() == {"type": "ack", "id": "k-1", "version": mine["version"]}
        theirs = white_ws.receive_json()
        assert theirs["version"] == mine["version"] and theirs["game"]["your_turn"] is True
        # White answers over its socket; the game is written like a POSTed move.
        _move(white_ws, theirs["game"]["state"]["legal_moves"][0], theirs["version"], 7)
        assert white_ws.receive_json()["version"] == game["version"] + 2
        assert white_ws.receive_json() == {"type": "ack", "id": 7, "version": game["version"] + 2}
    services_of(client.app).games.evict(game["id"])  # type: ignore[attr-defined]  # read it again
    stored = red.game(game["id"])
    assert stored["version"] == game["version"] + 2 and len(stored["state"]["moves"]) == 2


def test_refusals_are_the_posts_own_and_change_nothing(client: TestClient) -> None:
    red, white, stranger = sign_up(client), sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    game_id, version = game["id"], game["version"]
    hand, legal = game["state"]["hands"][0], game["state"]["legal_moves"]
    missing = next(c for c in ("N1", "N2", "N3", "E1", "E2", "E3", "S1", "S2") if c not in hand)
    before = red.game(game_id)
    path = f"/api/games/{game_id}/ws?version={version}"
    cases = [
        (red, missing, version, 409),  # a card Red does not hold
        (red, "draw", version, 409),  # five cards: no draw (RK-9)
        (red, "Q7", version, 422),  # not a move at all
        (red, "", version, 422),
        (red, 3, "x", 422),  # both fields wrong
        (red, "N\x00", version, 422),  # a character no database keeps
        (red, {"orders": ["\x00"]}, version, 422),
        (red, legal[0], version + 5, 409),  # a version the game never had
        (white, legal[0], version, 403),  # Red's turn (RK-8)
        (stranger, legal[0], version, 403),  # a spectator may watch, never move
    ]
    for number, (player, move, at, status) in enumerate(cases):
        posted = _post(player, game_id, move, at)
        with player.websocket(path) as socket:
            _move(socket, move, at, number)
            reply = _reply(socket)
        assert posted.status_code == status, posted.text
        expected = {"type": "error", "id": number, "status": status, **posted.json()}
        assert reply == expected
    assert red.game(game_id) == before


def test_a_decision_made_on_an_old_version_is_stale(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    path = f"/api/games/{game['id']}/ws?version={game['version']}"
    with red.websocket(path) as red_ws, white.websocket(path) as white_ws:
        _move(red_ws, opening(client, game), game["version"])
        assert _reply(red_ws)["type"] == "ack"
        after = white_ws.receive_json()["game"]
        _move(white_ws, after["state"]["legal_moves"][0], game["version"], 2)
        reply = _reply(white_ws)
    assert reply["status"] == 409 and "moved on" in reply["detail"]
    assert white.game(game["id"])["version"] == after["version"]


def test_an_account_that_moves_too_fast_is_refused_on_every_socket_and_by_post(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rate is the account's: more sockets, or the POST route, give no more moves."""
    monkeypatch.setattr(quotas.MoveRate, "take", MEASURED_TAKE)
    # Three moves at once, and no refill within the test.
    settings = Settings(database_url=database_url, move_burst=3, moves_per_second=0.01)
    with TestClient(create_app(settings)) as client:
        _refused_on_every_socket_and_by_post(client)


def _refused_on_every_socket_and_by_post(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    version, move = game["version"], game["state"]["legal_moves"][0]
    path = f"/api/games/{game['id']}/ws?version={version}"
    with white.websocket(path) as first, white.websocket(path) as second:
        for number, socket in enumerate((first, first, second)):  # out of turn: each counts
            _move(socket, move, version, number)
            assert _reply(socket)["status"] == 403
        _move(second, move, version, 3)
        refused = _reply(second)
        by_post = _post(white, game["id"], move, version)
        with red.websocket(path) as others:  # another account has moves of its own
            _move(others, opening(client, game), version, 4)
            assert _reply(others)["type"] == "ack"
    assert refused["status"] == 429 and "making moves too fast" in refused["detail"]
    assert by_post.status_code == 429 and "making moves too fast" in by_post.json()["detail"]


def test_other_frames_and_the_lobby_socket_get_no_reply(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    with red.websocket("/api/lobby/ws") as lobby:
        assert lobby.receive_json()["type"] == "hello"
        _move(lobby, game["state"]["legal_moves"][0], game["version"])  # not a game's socket
        lobby.send_text('{"type": "chat", "move": 1}')
    with red.websocket(f"/api/games/{game['id']}/ws?version={game['version']}") as socket:
        socket.send_text('{"type": "chat", "move": 1}')  # not a move: ignored
        socket.send_text('{"type": "move"')  # not JSON
        _move(socket, game["state"]["legal_moves"][0], game["version"], ["a list"])
        reply = _reply(socket)
    assert reply["status"] == 422 and reply["id"] is None  # an id must be a number or text
    assert red.game(game["id"])["version"] == game["version"]


@pytest.fixture
def duel_client(database_url: str) -> Iterator[TestClient]:
    register(DUEL)
    try:
        with TestClient(create_app(Settings(database_url=database_url))) as client:
            yield client
    finally:
        del GAMES[DUEL.name]


def _values(message: Any) -> list[Any]:
    return [node for node in walk(message) if not isinstance(node, dict | list)]


def test_no_socket_hears_another_seats_secrets(duel_client: TestClient) -> None:
    """North seals a bid over its socket: South's and a spectator's sockets carry neither
    the bid nor North's code, and every message kind is checked."""
    north, south, spectator = (sign_up(duel_client) for _ in range(3))
    seats = [{"kind": "me"}, {"kind": "invite", "name": south.name}]
    game_id = north.post("/api/games", {"game": "duel", "seats": seats}).json()["id"]
    game = south.post(f"/api/games/{game_id}/join").json()
    north_code, south_code = north.game(game_id)["my_code"], game["my_code"]
    path = f"/api/games/{game_id}/ws"
    heard: dict[str, list[Any]] = {"north": [], "south": [], "spectator": []}
    with (
        north.websocket(path) as north_ws,
        south.websocket(path) as south_ws,
        spectator.websocket(path) as watcher_ws,
    ):
        sockets = {"north": north_ws, "south": south_ws, "spectator": watcher_ws}
        for name, socket in sockets.items():
            heard[name].append(socket.receive_json())
        _move(north_ws, {"bid": 9}, game["version"], "bid")
        heard["north"] += [north_ws.receive_json(), north_ws.receive_json()]
        heard["south"].append(south_ws.receive_json())
        heard["spectator"].append(watcher_ws.receive_json())
        _move(watcher_ws, {"bid": 1}, game["version"] + 1, "not mine")
        heard["spectator"].append(watcher_ws.receive_json())
        _move(south_ws, {"say": "hi"}, game["version"] + 1, "too soon")  # bid first
        heard["south"].append(south_ws.receive_json())
    for messages in heard.values():
        for message in messages:
            if message["type"] != "game":
                assert_socket_reply_only(message)
    assert heard["north"][1]["game"]["my_bid"] == 9 and heard["north"][2]["type"] == "ack"
    assert heard["spectator"][-1]["status"] == 403
    assert heard["south"][-1]["status"] == 409
    for name in ("south", "spectator"):
        views = [m["game"] for m in heard[name] if m["type"] == "game"]
        assert len(views) == 2, heard[name]
        assert all(view["bids"] is None and view["my_bid"] is None for view in views), name
        assert views[-1]["bid_made"] == [True, False]  # that North bid, never how much
        values = [v for message in heard[name] for v in _values(message)]
        assert north_code not in values, f"North's code reached {name}"
    assert south_code not in [v for m in heard["north"] + heard["spectator"] for v in _values(m)]
    assert all(m["game"]["you"] is None for m in heard["spectator"] if m["type"] == "game")
