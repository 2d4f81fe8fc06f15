"""A game the server has never heard of plugs in through ``roses.games`` alone: a duel
(tests/server/duel.py) with a simultaneous secret step and a hidden field per seat is played
through the real HTTP API and WebSockets, and nothing of one seat's secrets reaches the
other before its time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.games import GAMES, register
from roses.server import Settings, create_app

from .conftest import Player, sign_up
from .duel import DUEL, Bid
from .hidden import walk

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def duel_client(database_url: str) -> Iterator[TestClient]:
    register(DUEL)
    try:
        with TestClient(create_app(Settings(database_url=database_url))) as client:
            yield client
    finally:
        del GAMES[DUEL.name]


def _post(player: Player, game: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    response = player.post(
        f"/api/games/{game['id']}/moves", {"move": action, "version": game["version"]}
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def _values(message: Any) -> list[Any]:
    return [node for node in walk(message) if not isinstance(node, dict | list)]


def test_a_duel_is_played_through_the_server_with_its_secrets_kept(
    duel_client: TestClient,
) -> None:
    north, south = sign_up(duel_client), sign_up(duel_client)
    catalog = {game["name"]: game for game in north.get("/api/catalog").json()["games"]}
    assert catalog["duel"]["seat_labels"] == {"2": ["North", "South"]}
    # The pages name no game: its title and whether it has a tutorial come from here.
    assert catalog["duel"]["title"] == "Duel of bids" and catalog["duel"]["tutorial"] is False
    assert catalog["roseking"]["tutorial"] is True
    seats = [{"kind": "me"}, {"kind": "invite", "name": south.name}]
    created = north.post("/api/games", {"game": "duel", "seats": seats})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    game = south.post(f"/api/games/{game_id}/join").json()
    assert game["to_act"] == [0, 1] and game["can_act"]  # both bid at once
    north_code = north.game(game_id)["my_code"]
    south_code = game["my_code"]
    seen_by_south: list[Any] = [game]
    with south.websocket(f"/api/games/{game_id}/ws") as socket:
        seen_by_south.append(socket.receive_json())
        north_view = _post(north, north.game(game_id), {"bid": 7})  # sealed
        assert north_view["my_bid"] == 7 and north_view["to_act"] == [1]
        pushed = socket.receive_json()
        seen_by_south.append(pushed)
        assert pushed["game"]["bid_made"] == [True, False] and pushed["game"]["bids"] is None
        # South's decision was made on the version before North's bid: still current.
        after = _post(south, game, {"bid": 3})
        seen_by_south.append(after)
        seen_by_south.append(socket.receive_json())
        assert after["bids"] == [7, 3] and after["to_act"] == [0]
    before_reveal = seen_by_south[:3]
    assert all(7 not in _values(message) for message in before_reveal), "North's bid leaked"
    assert all(north_code not in _values(message) for message in seen_by_south)
    assert all(south_code not in _values(m) for m in [north.game(game_id)])
    spectator = sign_up(duel_client)
    watched = spectator.game(game_id)
    assert watched["you"] is None and watched["my_code"] is None
    assert (
        south.post(
            f"/api/games/{game_id}/moves", {"move": {"say": "hi"}, "version": after["version"]}
        ).status_code
        == 403
    )
    view = _post(north, north.game(game_id), {"say": "good luck"})
    view = _post(south, south.game(game_id), {"say": "thanks"})
    assert view["status"] == "finished"
    assert view["result"] == {"bids": [7, 3], "ranks": [0, 1]}
    record = north.get(f"/api/games/{game_id}/record").json()
    assert record["deal"] == {"codes": [north_code, south_code]}  # the default record
    assert record["actions"] == [[0, {"bid": 7}], [1, {"bid": 3}], [0, {"say": "good luck"}],
                                 [1, {"say": "thanks"}]]  # fmt: skip
    frames = north.get(f"/api/games/{game_id}/replay").json()["frames"]
    assert len(frames) == 5 and frames[-1]["said"] == ["good luck", "thanks"]


def test_a_duel_against_a_bot_that_plays_in_a_bot_process(duel_client: TestClient) -> None:
    north = sign_up(duel_client)
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "steady"}]
    game = north.post("/api/games", {"game": "duel", "seats": seats}).json()
    assert game["status"] == "active"
    with north.websocket(f"/api/games/{game['id']}/ws") as socket:
        view = socket.receive_json()["game"]
        while view["bid_made"] != [False, True]:  # the bot bids while North thinks
            view = socket.receive_json()["game"]
        view = _post(north, view, {"bid": 9})
        view = _post(north, view, {"say": "done"})
        while view["status"] != "finished":
            view = socket.receive_json()["game"]
    assert view["said"] == ["done", "well played"]
    assert view["result"]["ranks"] == [0, 1]


def test_a_duel_refuses_what_it_does_not_know(duel_client: TestClient) -> None:
    north, south = sign_up(duel_client), sign_up(duel_client)
    seats = [{"kind": "me"}, {"kind": "invite", "name": south.name}]
    options = north.post("/api/games", {"game": "duel", "seats": seats, "options": {"x": True}})
    assert options.status_code == 422 and "has no option 'x'" in options.json()["detail"]
    unknown = north.post("/api/games", {"game": "chess", "seats": seats})
    assert unknown.status_code == 422 and "no game 'chess'" in unknown.json()["detail"]
    game = north.post("/api/games", {"game": "duel", "seats": seats}).json()
    game = south.post(f"/api/games/{game['id']}/join").json()
    bad = south.post(f"/api/games/{game['id']}/moves", {"move": {"bid": 11}, "version": 1})
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "move"
    assert south.game(game["id"]) == game


def test_a_bots_preparation_does_not_count_against_its_time(database_url: str) -> None:
    """A bot that prepares (compiles) for a second before its first move, with a fraction
    of a second to move: it plays its own move, not the stand-in for an overrun."""
    register(DUEL)
    try:
        settings = Settings(database_url=database_url, bot_margin_seconds=0.3)
        with TestClient(create_app(settings)) as client:
            north = sign_up(client)
            seats = [{"kind": "me"}, {"kind": "bot", "bot": "patient"}]
            game = north.post("/api/games", {"game": "duel", "seats": seats}).json()
            view = _post(north, game, {"bid": 8})
            with north.websocket(f"/api/games/{game['id']}/ws") as socket:
                while view["bids"] is None:
                    view = socket.receive_json()["game"]
    finally:
        del GAMES[DUEL.name]
    assert view["bids"] == [8, 9]  # the stand-in would have bid 5


def test_games_of_a_game_no_longer_offered_are_kept_but_never_loaded(database_url: str) -> None:
    """A plug-in taken out (here: the duel, after its games were played): the server still
    starts, lists the player's other games, and resumes no bot of the old game."""
    register(DUEL)
    try:
        with TestClient(create_app(Settings(database_url=database_url))) as client:
            north = sign_up(client)
            seats = [{"kind": "me"}, {"kind": "bot", "bot": "steady"}]
            duel = north.post("/api/games", {"game": "duel", "seats": seats}).json()
    finally:
        del GAMES[DUEL.name]
    with TestClient(create_app(Settings(database_url=database_url))) as client:
        north.client = client
        lists = north.get("/api/games/mine")
        assert lists.status_code == 200, lists.text
        listed = [g["id"] for games in lists.json().values() for g in games]
        assert duel["id"] not in listed
        gone = north.get(f"/api/games/{duel['id']}")
        assert gone.status_code == 404 and "no longer offers" in gone.json()["detail"]


def test_a_draft_is_seen_by_its_seat_alone_and_changes_no_version(
    duel_client: TestClient,
) -> None:
    """A private draft (e.g. a plan being made, WR-20) reaches only its own seat: not the
    other seat's HTTP answers or socket, not a spectator; saving it bumps no version."""
    north, south = sign_up(duel_client), sign_up(duel_client)
    seats = [{"kind": "me"}, {"kind": "invite", "name": south.name}]
    game = north.post("/api/games", {"game": "duel", "seats": seats}).json()
    game = south.post(f"/api/games/{game['id']}/join").json()
    secret = {"thinking": "bid-7-then-bluff"}
    with south.websocket(f"/api/games/{game['id']}/ws") as socket:
        socket.receive_json()
        saved = north.client.put(
            f"/api/games/{game['id']}/draft", json={"draft": secret}, headers=north.headers
        )
        assert saved.status_code == 200, saved.text
        assert saved.json() == {"preview": None}  # the duel previews no drafts
        assert north.game(game["id"])["draft"] == secret
        _post(north, north.game(game["id"]), {"bid": 3})  # the next message south gets
        pushed = socket.receive_json()
    spectator = sign_up(duel_client)
    for message in (pushed, south.game(game["id"]), spectator.game(game["id"])):
        assert "bid-7-then-bluff" not in str(message)
    assert pushed["version"] == game["version"] + 1  # the draft moved no version


def test_an_action_is_parsed_once_and_applied_as_parsed(
    duel_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move's JSON is read by ``parse_action`` once; ``apply`` gets the typed action."""
    north, south = sign_up(duel_client), sign_up(duel_client)
    seats = [{"kind": "me"}, {"kind": "invite", "name": south.name}]
    game = north.post("/api/games", {"game": "duel", "seats": seats}).json()
    game = south.post(f"/api/games/{game['id']}/join").json()  # read into memory
    parsed: list[Any] = []
    applied: list[Any] = []
    parse, apply = DUEL.parse_action, DUEL.apply
    monkeypatch.setattr(DUEL, "parse_action", lambda raw: parsed.append(raw) or parse(raw))
    monkeypatch.setattr(
        DUEL,
        "apply",
        lambda state, seat, action: applied.append(action) or apply(state, seat, action),
    )
    _post(north, game, {"bid": 4})
    assert parsed == [{"bid": 4}] and applied == [Bid(4)]


def test_a_bots_answer_is_parsed_once(
    duel_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[Any] = []
    parse = DUEL.parse_action
    monkeypatch.setattr(DUEL, "parse_action", lambda raw: parsed.append(raw) or parse(raw))
    north = sign_up(duel_client)
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "steady"}]
    view = north.post("/api/games", {"game": "duel", "seats": seats}).json()
    with north.websocket(f"/api/games/{view['id']}/ws") as socket:
        while view["bid_made"] != [False, True]:
            view = socket.receive_json()["game"]
    assert parsed.count({"bid": 5}) == 1  # the steady bot's bid
