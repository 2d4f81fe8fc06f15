"""A player's history through the API: games with opponents, result, rated or casual, date,
game and variant; the filters (game, variant, result, rated) and pages; win rates by game,
variant and seat; a bad filter refused with a sentence; nothing hidden of a running game."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi.testclient import TestClient

from .conftest import Player, sign_up
from .hidden import assert_history_only


def history(viewer: Player, name: str, query: str = "") -> dict[str, Any]:
    answer = viewer.get(f"/api/players/{name}/games{query}")
    assert answer.status_code == 200, answer.text
    body = dict(answer.json())
    assert_history_only(body)  # no state, no hands, no deal, no plan
    return body


def ids(body: dict[str, Any]) -> list[int]:
    return [game["id"] for game in body["games"]]


def test_history_lists_filters_and_pages_a_player_s_games(client: TestClient) -> None:
    red, white, watcher = sign_up(client), sign_up(client), sign_up(client)
    won = _game(red, white, rated=True)
    assert white.post(f"/api/games/{won}/resign").status_code == 200
    lost = _game(red, white)
    assert red.post(f"/api/games/{lost}/resign").status_code == 200
    playing = _game(red, white)
    every = history(watcher, red.name)
    assert ids(every) == [playing, lost, won] and every["total"] == 3
    first = every["games"][2]
    assert first["result"] == "won" and first["rated"] is True
    assert (first["game"], first["variant"], first["seat"]) == ("roseking", "2p", "Red")
    assert first["opponents"] == [{"seat": "White", "player": white.name, "bot": None}]
    assert datetime.fromisoformat(first["date"]).tzinfo is not None
    assert [g["result"] for g in every["games"]] == ["playing", "lost", "won"]
    assert ids(history(watcher, red.name, "?result=won")) == [won]
    assert ids(history(watcher, red.name, "?result=lost")) == [lost]
    assert ids(history(watcher, red.name, "?result=playing")) == [playing]
    assert ids(history(watcher, red.name, "?rated=true")) == [won]
    assert ids(history(watcher, red.name, "?rated=false")) == [playing, lost]
    assert ids(history(watcher, red.name, "?game=roseking&variant=2p")) == [playing, lost, won]
    assert ids(history(watcher, red.name, "?game=wotr")) == []
    assert ids(history(watcher, red.name, "?variant=4p")) == []
    assert ids(history(watcher, white.name, "?result=won")) == [lost]
    # Pages: two a page.
    one = history(watcher, red.name, "?per_page=2")
    two = history(watcher, red.name, "?per_page=2&page=2")
    assert (ids(one), one["pages"], ids(two), two["page"]) == ([playing, lost], 2, [won], 2)
    assert history(watcher, red.name, "?per_page=2&page=3")["games"] == []


def _game(red: Player, white: Player, **options: Any) -> int:
    body: dict[str, Any] = {"seats": [{"kind": "me"}, {"kind": "invite", "name": white.name}]}
    created = red.post("/api/games", {**body, **options})
    assert created.status_code == 201, created.text
    game_id = int(created.json()["id"])
    assert white.post(f"/api/games/{game_id}/join").status_code == 200
    return game_id


def test_bad_filters_get_a_sentence(client: TestClient) -> None:
    red = sign_up(client)
    unknown = red.get(f"/api/players/{red.name}/games?game=chess")
    assert unknown.status_code == 422 and "chess" in unknown.json()["detail"]
    for query in ("?result=maybe", "?variant=two", "?page=0", "?rated=perhaps"):
        answer = red.get(f"/api/players/{red.name}/games{query}")
        assert answer.status_code == 422, query
        assert answer.json()["detail"], query
    missing = red.get("/api/players/nobody-at-all/games")
    assert missing.status_code == 404 and "nobody-at-all" in missing.json()["detail"]


def test_win_rates_by_game_variant_and_seat(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    won = _game(red, white)
    white.post(f"/api/games/{won}/resign")
    lost = _game(red, white)
    red.post(f"/api/games/{lost}/resign")
    record = red.get(f"/api/players/{red.name}").json()["record"]
    assert len(record) == 1
    assert (record[0]["played"], record[0]["won"], record[0]["win_rate"]) == (2, 1, 0.5)
    assert record[0]["seats"] == [{"seat": "Red", "played": 2, "won": 1, "win_rate": 0.5}]


def test_history_of_a_wars_of_the_roses_game_being_planned_hides_the_plans(
    client: TestClient,
) -> None:
    from .test_resign import wotr_until

    one, two, spectator = sign_up(client), sign_up(client), sign_up(client)
    created = one.post(
        "/api/games",
        {
            "game": "wotr",
            "players": 2,
            "seats": [{"kind": "me"}, {"kind": "invite", "name": two.name}],
        },
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    assert two.post(f"/api/games/{game_id}/join").status_code == 200
    wotr_until(client, [one, two], game_id, "planning")
    saved = one.client.put(
        f"/api/games/{game_id}/draft", json={"draft": {"orders": {}}}, headers=one.headers
    )
    assert saved.status_code == 200
    for viewer in (one, two, spectator):
        body = history(viewer, one.name)
        assert ids(body) == [game_id] and body["games"][0]["result"] == "playing"
        assert "orders" not in str(body) and "draft" not in str(body)
