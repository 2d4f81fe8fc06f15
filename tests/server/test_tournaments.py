"""Tournaments through the API: creating, entering and withdrawing (each refusal a
sentence), the server starting rounds by itself and advancing them as games end, the
standings, the timeout record, and stepping a tournament twice at once."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from roses.server import Settings, create_app
from roses.server.accounts.users import find_user
from roses.server.db.models import Game, GameStatus
from roses.server.errors import Conflict
from roses.server.notify.reach import OutboxMessage
from roses.server.services import services_of
from roses.server.tournaments import games, scheduler
from roses.server.tournaments.bans import SHORT_BAR
from roses.server.tournaments.store import (
    Tournament,
    TournamentEvent,
    TournamentGame,
    TournamentTimeout,
)

from .clock_helpers import advance, real_time, sweep  # noqa: F401 (real_time: autouse)
from .conftest import Player, sign_up

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def fast_client(sqlite_url: str) -> Iterator[TestClient]:
    """The app with its tournament job looking every tenth of a second."""
    settings = Settings(database_url=sqlite_url, tournament_check_seconds=0.1)
    with TestClient(create_app(settings)) as client:
        yield client


@pytest.fixture
def client(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The app with its tournament job asleep (the tests that need it step tournaments
    themselves), on SQLite alone: the tests of one process need no second database."""
    with _still(sqlite_url, monkeypatch) as client:
        yield client


@pytest.fixture
def still_client_any(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The same on SQLite and on PostgreSQL (its row locks)."""
    with _still(database_url, monkeypatch) as client:
        yield client


@contextmanager
def _still(url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """Its job looks once at the start and is never woken (a request wakes it)."""
    monkeypatch.setattr(scheduler.Tournaments, "wake", lambda self: None)
    settings = Settings(database_url=url, tournament_check_seconds=3600)
    with TestClient(create_app(settings)) as client:
        yield client


def soon(seconds: float = 0) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


def swiss(organiser: Player, **changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "Autumn Swiss",
        "format": "swiss",
        "game": "roseking",
        "players": 2,
        "time_limit": {"kind": "live", "clock": "5+5"},
        "rounds": 3,
        "starts_at": soon(3600),
        **changes,
    }
    response = organiser.post("/api/tournaments", body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def wait_for(player: Player, tournament_id: int, done: Any, seconds: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        view = player.get(f"/api/tournaments/{tournament_id}").json()
        if done(view):
            return dict(view)
        time.sleep(0.05)
    raise AssertionError(f"the tournament did not get there: {view}")


def start_now(client: TestClient, tournament_id: int) -> None:
    """Move the start time to now (the tests do not wait an hour)."""
    with services_of(client.app).sessions.begin() as db:  # type: ignore[attr-defined]
        row = db.get(Tournament, tournament_id)
        assert row is not None
        row.starts_at = datetime.now(UTC) - timedelta(seconds=1)


def resign_for(players: dict[str, Player], game_id: int, name: str) -> None:
    response = players[name].post(f"/api/games/{game_id}/resign")
    assert response.status_code == 200, response.text


def finish_round(
    players: dict[str, Player], view: dict[str, Any], round_: int, losers: str = "first"
) -> None:
    """Each people's game of the round ends by a resignation: seat 0's person resigns
    (``first``) or else the last person seated."""
    names = {e["player"]: e["name"] for e in view["entrants"]}
    for table in view["pairings"][round_ - 1]["tables"]:
        seated = [names[p] for p in table["seats"] if names[p] in players]
        if not seated or table["ranks"] is not None:
            continue
        resign_for(players, table["game_id"], seated[0] if losers == "first" else seated[-1])


def test_a_swiss_runs_itself_from_its_start_to_its_standings(fast_client: TestClient) -> None:
    organiser = sign_up(fast_client, "org")
    people = {p.name: p for p in (organiser, *(sign_up(fast_client) for _ in range(3)))}
    made = swiss(organiser, bots=[{"bot": "random"}, {"bot": "greedy"}])
    tid = made["id"]
    assert made["status"] == "open" and made["entered"] == 2  # the bots
    for person in people.values():
        joined = person.post(f"/api/tournaments/{tid}/join")
        assert joined.status_code == 200, joined.text
        assert joined.json()["you"]["entered"] is True
    start_now(fast_client, tid)
    for round_ in (1, 2, 3):
        view = wait_for(
            organiser, tid, lambda v, r=round_: v["round"] == r and v["status"] == "running"
        )
        assert view["status"] == "running"
        tables = view["pairings"][round_ - 1]["tables"]
        assert len(tables) == 3 and all(t["game_id"] for t in tables)
        game = organiser.get(f"/api/games/{tables[0]['game_id']}").json()
        assert game["status"] == "active" and game["clock"] is not None
        finish_round(people, view, round_)
        # The bots' own game (if they meet) is played by them: the test waits for its end.
    final = wait_for(organiser, tid, lambda v: v["status"] == "finished", seconds=40)
    standings = final["standings"]
    assert len(standings) == 6 and standings[0]["rank"] == 1
    assert {t["name"] for t in standings[0]["tie_breaks"]} == {"buchholz", "sonneborn_berger"}
    assert sum(row["games"] for row in standings) == 18  # 3 rounds of 3 tables, 2 seats each
    # Every round started once, every game was recorded once.
    with services_of(fast_client.app).sessions() as db:  # type: ignore[attr-defined]
        rounds = db.query(TournamentEvent).filter(TournamentEvent.round.is_not(None)).count()
        links = db.query(TournamentGame).filter(TournamentGame.tournament_id == tid).count()
    assert rounds == 3 and links == 9


def test_creating_refuses_what_cannot_be_played(client: TestClient) -> None:
    organiser = sign_up(client, "org")
    base = {
        "name": "x",
        "format": "swiss",
        "game": "roseking",
        "time_limit": {"kind": "live", "clock": "5+5"},
        "starts_at": soon(60),
    }
    cases = [
        ({"time_limit": {"kind": "none"}}, "time_limit.kind"),
        ({"players": 4}, "players"),
        ({"starts_at": soon(-3600)}, "starts_at"),
        ({"bots": [{"bot": "nobody"}]}, "bots.0.bot"),
        ({"game": "chess"}, "game"),
    ]
    for change, field in cases:
        response = organiser.post("/api/tournaments", {**base, **change})
        assert response.status_code == 422, (change, response.text)
        assert field in response.text
        assert response.json()["detail"]
    response = organiser.post("/api/tournaments", {**base, "minutes": 30})
    assert response.status_code == 422 and "arena" in response.json()["detail"]
    assert organiser.get("/api/tournaments").json()["open"] == []


def test_entry_conditions_each_say_why(client: TestClient) -> None:
    organiser, other = sign_up(client, "org"), sign_up(client)
    high = swiss(organiser, conditions={"min_rating": 1600})
    refused = other.post(f"/api/tournaments/{high['id']}/join")
    assert refused.status_code == 403 and "1500" in refused.json()["detail"]
    seasoned = swiss(organiser, conditions={"min_games": 3})
    refused = other.post(f"/api/tournaments/{seasoned['id']}/join")
    assert refused.status_code == 403 and "3 finished games" in refused.json()["detail"]
    friends = swiss(organiser, conditions={"friends_only": True})
    refused = other.post(f"/api/tournaments/{friends['id']}/join")
    assert refused.status_code == 403 and "friends" in refused.json()["detail"]
    invited = swiss(organiser, conditions={"invited": [organiser.name]})
    refused = other.post(f"/api/tournaments/{invited['id']}/join")
    assert refused.status_code == 403 and "invitation" in refused.json()["detail"]
    open_ = swiss(organiser)
    assert other.post(f"/api/tournaments/{open_['id']}/join").status_code == 200
    again = other.post(f"/api/tournaments/{open_['id']}/join")
    assert again.status_code == 409 and "already" in again.json()["detail"]
    left = other.post(f"/api/tournaments/{open_['id']}/withdraw")
    assert left.status_code == 200 and left.json()["you"]["withdrawn"] is True
    back = other.post(f"/api/tournaments/{open_['id']}/join")
    assert back.status_code == 409 and "withdrew" in back.json()["detail"]
    assert other.post("/api/tournaments/999999/join").status_code == 404


def test_a_tournament_without_enough_entrants_is_cancelled(fast_client: TestClient) -> None:
    organiser = sign_up(fast_client, "org")
    made = swiss(organiser)
    assert organiser.post(f"/api/tournaments/{made['id']}/join").status_code == 200
    start_now(fast_client, made["id"])
    view = wait_for(organiser, made["id"], lambda v: v["status"] != "open")
    assert view["status"] == "cancelled" and view["pairings"] == []
    refused = organiser.post(f"/api/tournaments/{made['id']}/withdraw")
    assert refused.status_code == 409


def test_a_timeout_bars_its_player_from_entering_for_a_while(client: TestClient) -> None:
    organiser, late = sign_up(client, "org"), sign_up(client)
    made = swiss(organiser)
    assert late.post(f"/api/tournaments/{made['id']}/join").status_code == 200
    app = services_of(client.app)  # type: ignore[attr-defined]
    with app.sessions.begin() as db:
        game = Game(
            game="roseking", players=2, options={}, seed=1, deal={}, status=GameStatus.FINISHED,
            version=1, to_act=[], created_by=organiser_id(client, late.name),
        )  # fmt: skip
        db.add(game)
        db.flush()
        db.add(TournamentTimeout(game_id=game.id, user_id=game.created_by))
    refused = late.post(f"/api/tournaments/{swiss(organiser)['id']}/join")
    assert refused.status_code == 403 and "ran out of time" in refused.json()["detail"]
    view = late.get(f"/api/tournaments/{made['id']}").json()
    barred = datetime.fromisoformat(view["you"]["barred_until"])
    assert barred - datetime.now(UTC) > SHORT_BAR - timedelta(minutes=1)


def organiser_id(client: TestClient, name: str) -> int:
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        user = find_user(db, name)
        assert user is not None
        return user.id


def test_a_step_taken_twice_at_once_starts_the_round_once(still_client_any: TestClient) -> None:
    """Two steps read the tournament at the same version: the second to write finds it
    claimed and changes nothing."""
    organiser = sign_up(still_client_any, "org")
    made = swiss(organiser, bots=[{"bot": "random"}, {"bot": "greedy"}])
    start_now(still_client_any, made["id"])
    app = services_of(still_client_any.app)  # type: ignore[attr-defined]
    now = datetime.now(UTC)
    first, second = app.sessions(), app.sessions()
    try:
        stale = second.get(Tournament, made["id"])  # read before the first writes
        started = scheduler.step(first, made["id"], now)
        first.commit()
        assert len(started.started) == 1
        with pytest.raises(Conflict):
            scheduler.step(second, made["id"], now)
        assert stale is not None and stale.version == 0
    finally:
        first.close()
        second.close()
    with app.sessions() as db:  # (a shared PostgreSQL database holds others' tournaments)
        games_of = db.query(TournamentGame).filter(TournamentGame.tournament_id == made["id"])
        rounds = db.query(TournamentEvent).filter(
            TournamentEvent.tournament_id == made["id"], TournamentEvent.round == 1
        )
        assert games_of.count() == 1 and rounds.count() == 1


def test_a_crash_in_the_middle_of_a_rounds_start_leaves_nothing_half_done(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The round's event and its games are one transaction: a process dying after the
    first game was written (here: an error there) leaves no event and no game, and the
    next step starts the whole round once."""
    organiser = sign_up(client, "org")
    made = swiss(organiser, bots=[{"bot": "random"}, {"bot": "greedy"}, {"bot": "random"}])
    assert organiser.post(f"/api/tournaments/{made['id']}/join").status_code == 200
    start_now(client, made["id"])
    app = services_of(client.app)  # type: ignore[attr-defined]
    created = []
    real_new_game = games.creating.new_game

    def dying_new_game(*args: Any) -> Game:
        if created:
            raise RuntimeError("killed")
        created.append(real_new_game(*args))
        return created[-1]

    monkeypatch.setattr(games.creating, "new_game", dying_new_game)
    with pytest.raises(RuntimeError), app.sessions.begin() as db:
        scheduler.step(db, made["id"], datetime.now(UTC))
    with app.sessions() as db:
        assert db.query(TournamentEvent).filter(TournamentEvent.round.is_not(None)).count() == 0
        assert db.query(TournamentGame).count() == 0
        assert db.query(Game).count() == 0
        assert db.get(Tournament, made["id"]).status == "open"  # type: ignore[union-attr]
    monkeypatch.setattr(games.creating, "new_game", real_new_game)
    with app.sessions.begin() as db:
        assert len(scheduler.step(db, made["id"], datetime.now(UTC)).started) == 2
    view = organiser.get(f"/api/tournaments/{made['id']}").json()
    assert view["round"] == 1 and len(view["pairings"][0]["tables"]) == 2


def test_the_organiser_alone_starts_a_tournament_early(fast_client: TestClient) -> None:
    organiser, other = sign_up(fast_client, "org"), sign_up(fast_client)
    made = swiss(organiser, bots=[{"bot": "random"}])
    assert other.post(f"/api/tournaments/{made['id']}/join").status_code == 200
    refused = other.post(f"/api/tournaments/{made['id']}/start")
    assert refused.status_code == 403 and "organiser" in refused.json()["detail"]
    assert organiser.post(f"/api/tournaments/{made['id']}/start").status_code == 200
    view = wait_for(organiser, made["id"], lambda v: v["round"] == 1 and v["status"] == "running")
    assert view["status"] == "running" and len(view["pairings"][0]["tables"]) == 1
    again = organiser.post(f"/api/tournaments/{made['id']}/start")
    assert again.status_code == 409 and "started" in again.json()["detail"]


def test_entries_arriving_at_once_are_all_taken(client: TestClient) -> None:
    organiser = sign_up(client, "org")
    people = [sign_up(client) for _ in range(6)]
    made = swiss(organiser)
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda p: p.post(f"/api/tournaments/{made['id']}/join"), people))
    assert [answer.status_code for answer in answers] == [200] * 6
    assert organiser.get(f"/api/tournaments/{made['id']}").json()["entered"] == 6


def test_an_arena_pairs_free_players_until_its_end(fast_client: TestClient) -> None:
    organiser = sign_up(fast_client, "org")
    people = {p.name: p for p in (organiser, *(sign_up(fast_client) for _ in range(3)))}
    made = swiss(organiser, format="arena", rounds=None, minutes=30)
    assert made["rounds"] is None
    for person in people.values():
        assert person.post(f"/api/tournaments/{made['id']}/join").status_code == 200
    started = organiser.post(f"/api/tournaments/{made['id']}/start").json()
    length = datetime.fromisoformat(started["ends_at"]) - datetime.fromisoformat(
        started["starts_at"]
    )
    assert length == timedelta(minutes=30)  # started early, it lasts as long
    for wave in (1, 2):  # two pairs at once; once both games end, everyone is paired again
        view = wait_for(organiser, made["id"], lambda v, w=wave: v["round"] >= w and not _free(v))
        for round_ in view["pairings"]:
            finish_round(people, view, round_["round"])
    app = services_of(fast_client.app)  # type: ignore[attr-defined]
    with app.sessions.begin() as db:  # its end comes: the games under way are played out
        row = db.get(Tournament, made["id"])
        assert row is not None
        row.config = {**row.config, "ends_at": datetime.now(UTC).timestamp() - 1}
    view = wait_for(organiser, made["id"], lambda v: not _free(v) or v["status"] == "finished")
    for round_ in view["pairings"]:
        finish_round(people, view, round_["round"])
    final = wait_for(organiser, made["id"], lambda v: v["status"] == "finished")
    assert final["standings"][0]["points"] >= 2  # a win scores 2
    assert {t["name"] for t in final["standings"][0]["tie_breaks"]} == {"performance"}


def _free(view: dict[str, Any]) -> set[int]:
    """The entrants not seated at a game being played."""
    playing = {
        player
        for round_ in view["pairings"]
        for table in round_["tables"]
        if table["ranks"] is None
        for player in table["seats"]
    }
    return {e["player"] for e in view["entrants"]} - playing


def test_a_tournament_without_vacations_keeps_its_clocks_running(client: TestClient) -> None:
    organiser = sign_up(client, "org")
    away = sign_up(client)
    made = swiss(
        organiser,
        time_limit={"kind": "correspondence", "days": 3},
        vacation=False,
        bots=[{"bot": "random"}],
    )
    assert away.post(f"/api/tournaments/{made['id']}/join").status_code == 200
    start_now(client, made["id"])
    app = services_of(client.app)  # type: ignore[attr-defined]
    with app.sessions.begin() as db:
        game_ids = scheduler.step(db, made["id"], datetime.now(UTC)).started
    taken = away.post("/api/vacation", {"days": 3})
    assert taken.status_code == 200, taken.text
    with app.sessions() as db:
        for game_id in game_ids:
            game = db.get(Game, game_id)
            assert game is not None and game.time_control["vacation"] is False
            assert all(seat.paused_until is None for seat in game.seats)


def test_a_game_lost_on_time_bars_its_loser(fast_client: TestClient) -> None:
    organiser, slow = sign_up(fast_client, "org"), sign_up(fast_client)
    made = swiss(organiser, rounds=1)
    for person in (organiser, slow):
        assert person.post(f"/api/tournaments/{made['id']}/join").status_code == 200
    assert organiser.post(f"/api/tournaments/{made['id']}/start").status_code == 200
    view = wait_for(organiser, made["id"], lambda v: v["round"] == 1 and v["status"] == "running")
    table = view["pairings"][0]["tables"][0]
    advance(3600)  # nobody moves: the first to move loses on time
    sweep(fast_client)
    final = wait_for(organiser, made["id"], lambda v: v["status"] == "finished")
    assert final["pairings"][0]["tables"][0]["ranks"] == [1, 0]
    first = {e["player"]: e["name"] for e in final["entrants"]}[table["seats"][0]]
    loser, winner = (slow, organiser) if first == slow.name else (organiser, slow)
    later = soon(3 * 3600)  # the server's time is an hour on
    refused = loser.post(f"/api/tournaments/{swiss(winner, starts_at=later)['id']}/join")
    assert refused.status_code == 403 and "ran out of time" in refused.json()["detail"]
    other = swiss(loser, starts_at=later)
    assert winner.post(f"/api/tournaments/{other['id']}/join").status_code == 200


def test_a_late_entrant_is_paired_from_the_next_round(fast_client: TestClient) -> None:
    organiser, other, late = (sign_up(fast_client) for _ in range(3))
    made = swiss(organiser, rounds=2, late_join_until_round=2, bots=[{"bot": "random"}])
    for person in (organiser, other):
        assert person.post(f"/api/tournaments/{made['id']}/join").status_code == 200
    assert organiser.post(f"/api/tournaments/{made['id']}/start").status_code == 200
    view = wait_for(organiser, made["id"], lambda v: v["round"] == 1 and v["status"] == "running")
    assert len(view["pairings"][0]["byes"]) == 1  # three entrants: one sits out
    assert late.post(f"/api/tournaments/{made['id']}/join").status_code == 200
    people = {p.name: p for p in (organiser, other, late)}
    finish_round(people, view, 1)
    view = wait_for(organiser, made["id"], lambda v: v["round"] == 2, seconds=40)
    late_id = next(e["player"] for e in view["entrants"] if e["name"] == late.name)
    assert any(late_id in table["seats"] for table in view["pairings"][1]["tables"])
    too_late = sign_up(fast_client).post(f"/api/tournaments/{made['id']}/join")
    assert too_late.status_code == 409 and "round 2" in too_late.json()["detail"]


def test_a_pool_scores_the_organisers_points_per_place(client: TestClient) -> None:
    organiser = sign_up(client, "org")
    body = {
        "format": "pools",
        "game": "wotr",
        "players": 4,
        "rounds": None,
        "time_limit": {"kind": "correspondence", "days": 3},
        "starts_at": soon(3600),
    }
    made = swiss(organiser, **body, points=[5, 3, 1, 0], smaller_tables=False)
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        row = db.get(Tournament, made["id"])
        assert row is not None
        assert row.config["points_by_rank"] == [5, 3, 1, 0]
        assert row.config["min_players_per_table"] is None
    for points in ([1, 2, 3, 4], [3, 2, 1], [-1, -1, -1, -1]):
        refused = organiser.post("/api/tournaments", {**body, "name": "x", "points": points})
        assert refused.status_code == 422, refused.text
    two = organiser.post(
        "/api/tournaments", {**body, "name": "x", "format": "swiss", "points": [1, 0]}
    )
    assert two.status_code == 422 and "pools" in two.json()["detail"]


def test_a_round_start_is_news_to_those_who_opted_in(sqlite_url: str) -> None:
    """Each seated person who chose tournament news hears of each round's start once, with
    the tournament's page as the link; the others hear nothing."""
    settings = Settings(
        database_url=sqlite_url, tournament_check_seconds=0.1, reach_plain_http=True
    )
    with TestClient(create_app(settings)) as fast:
        organiser, listener, quiet = sign_up(fast, "org"), sign_up(fast), sign_up(fast)
        chose = listener.client.put(
            "/api/settings/reach", json={"tournament": True}, headers=listener.headers
        )
        assert chose.status_code == 200, chose.text
        hook = listener.client.put(
            "/api/settings/webhook",
            json={"url": "http://127.0.0.1:9/hook"},
            headers=listener.headers,
        )
        assert hook.status_code == 200, hook.text
        tid = swiss(organiser, rounds=1, bots=[{"bot": "random"}])["id"]
        for person in (organiser, listener, quiet):
            assert person.post(f"/api/tournaments/{tid}/join").status_code == 200
        start_now(fast, tid)
        wait_for(organiser, tid, lambda v: v["status"] == "running")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with services_of(fast.app).sessions() as db:  # type: ignore[attr-defined]
                news = db.scalars(
                    select(OutboxMessage).where(OutboxMessage.kind == "tournament")
                ).all()
                told = [(row.user_id, row.facts) for row in news]
            if told:
                break
            time.sleep(0.05)
        listener_id = find_user_id(fast, listener.name)
        assert told == [
            (listener_id, {"tournament": "Autumn Swiss", "round": 1, "path": f"/tournaments/{tid}"})
        ]


def find_user_id(client: TestClient, name: str) -> int:
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        user = find_user(db, name)
        assert user is not None
        return user.id
