"""Ratings: rated or casual games, Glicko-2 after each rated duel and Weng-Lin after each
rated game of more than two, people and bots, the leaderboard and the profiles (which hold
no game state)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from roses.games import game_module
from roses.server.accounts.users import SESSION_COOKIE
from roses.server.ratings.glicko2 import Rating, Result, rate
from roses.server.ratings.systems import System, scores
from roses.server.ratings.systems import rate as rate_game

from .conftest import Player, sign_up
from .hidden import assert_ratings_only
from .test_play import play_out

pytestmark = pytest.mark.timeout(60)
BOT = {"kind": "bot", "bot": "random"}


def guest(client: TestClient) -> Player:
    response = client.post("/api/accounts/guest")
    assert response.status_code == 201, response.text
    token = response.cookies[SESSION_COOKIE]
    client.cookies.clear()
    return Player(client, response.json()["name"], token)


def create(player: Player, seats: list[dict[str, Any]], **body: Any) -> Any:
    return player.post("/api/games", {"seats": seats, **body})


def board(player: Player, game: str = "roseking", variant: str = "2p") -> list[dict[str, Any]]:
    """The leaderboard (on PostgreSQL, other tests' players are on it too)."""
    answer = player.get(f"/api/ratings/{game}/{variant}")
    assert answer.status_code == 200, answer.text
    assert_ratings_only(answer.json())
    rows = list(answer.json()["players"])
    assert [row["rating"] for row in rows] == sorted((row["rating"] for row in rows), reverse=True)
    return rows


def people(rows: list[dict[str, Any]], *names: str) -> dict[str, dict[str, Any]]:
    return {row["player"]: row for row in rows if row["player"] in names}


def bot_rating(player: Player, bot: dict[str, Any], variant: str = "2p") -> Rating:
    rows = board(player, variant=variant)
    found = [r for r in rows if (r["bot"], r["strength"]) == (bot["bot"], bot.get("strength"))]
    return Rating(found[0]["rating"], found[0]["deviation"]) if found else Rating()


def profile(viewer: Player, name: str) -> dict[str, Any]:
    answer = viewer.get(f"/api/players/{name}")
    assert answer.status_code == 200, answer.text
    assert_ratings_only(answer.json())
    return dict(answer.json())


def test_each_seat_plays_every_opponent_never_a_partner() -> None:
    teams = game_module("roseking").teams(4)
    assert teams == (0, 1, 0, 1)  # Red 1, White 1, Red 2, White 2 (RK-16)
    assert scores([0, 1, 0, 1], teams) == [
        [(1, 1.0), (3, 1.0)],
        [(0, 0.0), (2, 0.0)],
        [(1, 1.0), (3, 1.0)],
        [(0, 0.0), (2, 0.0)],
    ]
    wotr = game_module("wotr").teams(3)
    assert scores([1, 0, 1], wotr) == [
        [(1, 0.0), (2, 0.5)],
        [(0, 1.0), (2, 1.0)],
        [(0, 0.5), (1, 0.0)],
    ]


def test_a_rated_game_between_two_people_changes_both_ratings_as_glicko2_says(
    client: TestClient,
) -> None:
    red, white = sign_up(client, "red"), sign_up(client, "white")
    created = create(red, [{"kind": "me"}, {"kind": "invite", "name": white.name}], rated=True)
    assert created.status_code == 201, created.text
    game = white.post(f"/api/games/{created.json()['id']}/join").json()
    assert people(board(red), red.name, white.name) == {}  # not rated before the game ends
    playing = profile(white, red.name)["recent"]  # the game under way: its envelope only
    assert [(g["id"], g["status"]) for g in playing] == [(game["id"], "active")]
    final = play_out({0: red, 1: white}, game, random.Random(5))
    ranks = final["result"]["ranks"]
    score = 1.0 if ranks[0] < ranks[1] else 0.5 if ranks[0] == ranks[1] else 0.0
    expected = {
        red.name: rate(Rating(), [Result(Rating(), score)]),
        white.name: rate(Rating(), [Result(Rating(), 1 - score)]),
    }
    if score != 0.5:  # a first win from 1500/350 against 1500/350 (tau 0.5)
        winner = max(expected.values(), key=lambda r: r.rating)
        assert winner.rating == pytest.approx(1662.31, abs=0.01)
        assert winner.deviation == pytest.approx(290.32, abs=0.01)
    rows = people(board(white), red.name, white.name)
    assert set(rows) == {red.name, white.name}
    for name, rating in expected.items():
        assert rows[name]["rating"] == pytest.approx(rating.rating)
        assert rows[name]["deviation"] == pytest.approx(rating.deviation)
        assert rows[name]["games"] == 1
        mine = profile(white, name)
        assert [(r["game"], r["variant"]) for r in mine["ratings"]] == [("roseking", "2p")]
        (point,) = mine["ratings"][0]["history"]
        assert point["game_id"] == final["id"]
        assert point["rating"] == pytest.approx(rating.rating)
    red_record = profile(red, red.name)["record"]
    won = int(ranks[0] == 0)
    assert red_record == [
        {
            "game": "roseking",
            "variant": "2p",
            "played": 1,
            "won": won,
            "win_rate": float(won),
            "seats": [{"seat": "Red", "played": 1, "won": won, "win_rate": float(won)}],
        }
    ]


def test_a_casual_game_changes_no_rating(client: TestClient) -> None:
    player = sign_up(client)
    created = create(player, [{"kind": "me"}, BOT])  # casual unless asked
    assert created.status_code == 201, created.text
    assert player.post(f"/api/games/{created.json()['id']}/resign").status_code == 200
    assert people(board(player), player.name) == {}
    mine = profile(player, player.name)
    assert mine["ratings"] == [] and mine["record"][0]["played"] == 1


def test_bots_are_rated_per_strength(client: TestClient) -> None:
    """A bot that searches is rated per strength (a ladder); one without strengths (random)
    by its name alone."""
    player = sign_up(client)
    quick, strong = ({**BOT, "bot": "mcts", "strength": s} for s in ("quick", "strong"))
    me = Rating()
    for bot in (quick, strong, BOT):
        before = bot_rating(player, bot)
        created = create(player, [{"kind": "me"}, bot], rated=True)
        assert created.status_code == 201, created.text
        assert player.post(f"/api/games/{created.json()['id']}/resign").status_code == 200
        after = bot_rating(player, bot)  # one win against me, as I was rated before
        assert after.rating == pytest.approx(rate(before, [Result(me, 1)]).rating)
        me = rate(me, [Result(before, 0)])
        mine = people(board(player), player.name)[player.name]
        assert mine["rating"] == pytest.approx(me.rating) and mine["rating"] < 1500
    assert mine["games"] == 3
    bots = [(row["bot"], row["strength"]) for row in board(player) if row["bot"] is not None]
    assert {("mcts", "quick"), ("mcts", "strong"), ("random", None)} <= set(bots)
    assert [strength for bot, strength in bots if bot == "random"] == [None]
    assert len(player.get("/api/ratings/roseking/2p?limit=1").json()["players"]) == 1


def four_people(
    client: TestClient, game: str, *, resigns: int, players: list[Player] | None = None
) -> tuple[list[Player], Any]:
    """A rated game of four people (new ones unless given: the first creates it, the others
    join by invitation), ended by the resignation of seat ``resigns``."""
    people_ = players or [sign_up(client, f"p{seat}") for seat in range(4)]
    invites = [{"kind": "invite", "name": p.name} for p in people_[1:]]
    body = {"game": game, "players": 4}
    created = create(people_[0], [{"kind": "me"}, *invites], rated=True, **body)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    for joining in people_[1:]:
        assert joining.post(f"/api/games/{game_id}/join").status_code == 200
    resigned = people_[resigns].post(f"/api/games/{game_id}/resign")
    assert resigned.status_code == 200, resigned.text
    return people_, resigned.json()


def expected_weng_lin(players: list[Player], ranks: list[int], teams: tuple[int, ...]) -> Any:
    keys = [p.name for p in players]  # newcomers all: the keys only tell the seats apart
    return rate_game(System.WENG_LIN, {}, keys, ranks, teams)


def test_a_wars_of_the_roses_game_of_four_is_rated_by_weng_lin(client: TestClient) -> None:
    players, game = four_people(client, "wotr", resigns=2)
    ranks = game["result"]["ranks"]
    assert ranks[2] == max(ranks) and ranks.count(max(ranks)) == 1  # the resigner alone last
    answer = players[0].get("/api/ratings/wotr/4p").json()
    assert answer["system"] == "openskill"
    rows = people(board(players[0], "wotr", "4p"), *(p.name for p in players))
    expected = expected_weng_lin(players, ranks, (0, 1, 2, 3))
    for player in players:
        assert rows[player.name]["rating"] == pytest.approx(expected[player.name].rating)
        assert rows[player.name]["deviation"] == pytest.approx(expected[player.name].deviation)
        assert rows[player.name]["games"] == 1
    winner = players[ranks.index(0)].name
    assert rows[winner]["rating"] > 1500 > rows[players[2].name]["rating"]
    mine = profile(players[1], players[2].name)
    assert [(r["game"], r["variant"], r["system"]) for r in mine["ratings"]] == [
        ("wotr", "4p", "openskill")
    ]
    (point,) = mine["ratings"][0]["history"]
    assert point["game_id"] == game["id"] and point["rating"] == rows[players[2].name]["rating"]
    assert players[0].get("/api/ratings/wotr/2p").json()["system"] == "glicko2"


def test_the_rose_king_team_game_moves_both_partners_alike(client: TestClient) -> None:
    players, game = four_people(client, "roseking", resigns=0)
    assert game["result"]["ranks"] == [1, 0, 1, 0]  # Red resigned with its partner (RK-16)
    rows = people(board(players[0], variant="4p"), *(p.name for p in players))
    red = [rows[players[seat].name]["rating"] for seat in (0, 2)]
    white = [rows[players[seat].name]["rating"] for seat in (1, 3)]
    assert red[0] == red[1] < 1500 < white[0] == white[1]
    expected = expected_weng_lin(players, [1, 0, 1, 0], (0, 1, 0, 1))
    assert red[0] == pytest.approx(expected[players[0].name].rating)
    assert players[0].get("/api/ratings/roseking/4p").json()["system"] == "openskill"


def test_bots_in_a_team_game_are_rated_by_weng_lin_too(client: TestClient) -> None:
    """Me and a bot partner against two other bots: my rating falls when I resign, theirs
    rise (each bot per name and strength, as in a duel)."""
    player = sign_up(client)
    opponents = [{**BOT, "bot": "mcts", "strength": "quick"}, {**BOT, "bot": "greedy"}]
    seats = [{"kind": "me"}, opponents[0], BOT, opponents[1]]  # Red 1, White 1, Red 2, ...
    created = create(player, seats, players=4, rated=True)
    assert created.status_code == 201, created.text
    game = player.post(f"/api/games/{created.json()['id']}/resign").json()
    assert game["result"]["ranks"] == [1, 0, 1, 0]
    rows = board(player, variant="4p")
    assert people(rows, player.name)[player.name]["rating"] < 1500
    bots = {(row["bot"], row["strength"]) for row in rows if row["bot"] is not None}
    assert {("mcts", "quick"), ("greedy", None), ("random", None)} <= bots


def test_guests_are_never_rated(client: TestClient) -> None:
    visitor, host = guest(client), sign_up(client)
    refused = create(visitor, [{"kind": "me"}, BOT], rated=True)
    assert refused.status_code == 409
    assert "guests are never rated" in refused.json()["detail"].lower()
    invited = create(host, [{"kind": "me"}, {"kind": "invite", "name": visitor.name}], rated=True)
    assert invited.status_code == 409 and visitor.name in invited.json()["detail"]
    open_game = create(host, [{"kind": "me"}, {"kind": "open"}], rated=True)
    assert open_game.status_code == 201, open_game.text
    game_id = open_game.json()["id"]
    joined = visitor.post(f"/api/games/{game_id}/join")
    assert joined.status_code == 409 and "guests are never rated" in joined.json()["detail"].lower()
    assert host.game(game_id)["status"] == "waiting"  # nothing changed
    assert create(visitor, [{"kind": "me"}, BOT]).status_code == 201  # casual is fine
    assert profile(host, visitor.name)["guest"] is True


def test_unknown_games_variants_and_players_are_404_with_a_sentence(client: TestClient) -> None:
    player = sign_up(client)
    for path, words in [
        ("/api/ratings/chess/2p", "chess"),
        ("/api/ratings/roseking/3p", "no variant '3p' (choose from 2p, 4p)"),
        ("/api/players/nobody-here", "no player named 'nobody-here'"),
    ]:
        answer = player.get(path)
        assert answer.status_code == 404, answer.text
        assert words in answer.json()["detail"]
    assert player.get("/api/ratings/roseking/two").status_code == 422


def test_a_failure_to_rate_never_undoes_or_refuses_the_action_that_ended_the_game(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: Any) -> None:
        raise RuntimeError("the ratings table is locked")

    monkeypatch.setattr("roses.server.ratings.updates.rate_game", broken)
    player = sign_up(client)
    created = create(player, [{"kind": "me"}, BOT], rated=True)
    assert created.status_code == 201, created.text
    resigned = player.post(f"/api/games/{created.json()['id']}/resign")
    assert resigned.status_code == 200, resigned.text
    assert player.game(created.json()["id"])["status"] == "finished"
