"""Live clocks: chosen at creation, run by the server (its time moved, never waited for),
the increment after a move, simultaneous WotR planning (WR-10), take-backs (RK-19, WR-10)
that gain no time, a restart, and a live game lost on time (rated like any loss)."""

from __future__ import annotations

import threading
import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import inspect

from roses.server import Settings, create_app
from roses.server.db.engine import make_engine
from roses.server.db.migrate import downgrade, upgrade
from roses.server.db.models import ActionRow, RatingChange
from roses.server.services import services_of

from .clock_helpers import LIVE_5_5, advance, mover, real_time, remaining, sweep, timed_game
from .conftest import Player, act, sign_up
from .hidden import assert_clock_only, walk
from .test_resign import wotr_until

__all__ = ["real_time"]  # the fixture, used by every test here

FIVE_MINUTES = 300_000
# The tests' own requests take real time on a busy machine: a clock read after a request
# may have run this much more than the time moved.
SLACK = 3_000


def test_a_new_game_offers_the_server_s_clocks_and_refuses_others(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    catalog = red.get("/api/catalog").json()
    assert catalog["live_clocks"] == ["3+2", "5+5", "10+5", "15+10"]
    assert catalog["correspondence_days"] == [1, 3, 7, 14]
    seats = [{"kind": "me"}, {"kind": "invite", "name": white.name}]
    for limit, field in [
        ({"kind": "live", "clock": "4+4"}, "time_limit.clock"),
        ({"kind": "live"}, "time_limit.clock"),
        ({"kind": "correspondence", "days": 2}, "time_limit.days"),
        ({"kind": "correspondence"}, "time_limit.days"),
        ({"kind": "none", "clock": "5+5"}, "time_limit.clock"),
        ({"kind": "live", "clock": "5+5", "days": 3}, "time_limit.days"),
    ]:
        refused = red.post("/api/games", {"seats": seats, "time_limit": limit})
        assert refused.status_code == 422, refused.text
        assert refused.json()["errors"][0]["field"] == field
    assert "3+2, 5+5, 10+5, 15+10" in refused_text(red, seats)
    assert red.get("/api/games/mine").json()["invitations"] == []  # nothing was created
    plain = red.post("/api/games", {"seats": seats}).json()
    assert plain["clock"] is None and plain["rated"] is False


def refused_text(player: Player, seats: list[dict[str, Any]]) -> str:
    answer = player.post(
        "/api/games", {"seats": seats, "time_limit": {"kind": "live", "clock": "1+0"}}
    )
    return str(answer.json()["detail"])


def test_a_clock_starts_once_every_seat_is_filled_and_shows_in_the_envelope(
    client: TestClient,
) -> None:
    red, white = sign_up(client), sign_up(client)
    seats = [{"kind": "me"}, {"kind": "invite", "name": white.name}]
    waiting = red.post("/api/games", {"seats": seats, "time_limit": LIVE_5_5}).json()
    clock = waiting["clock"]
    assert clock["kind"] == "live" and clock["initial_ms"] == FIVE_MINUTES
    assert clock["increment_ms"] == 5_000
    assert clock["running"] == [] and clock["remaining_ms"] is None  # not started
    advance(60)
    started = white.post(f"/api/games/{waiting['id']}/join").json()
    clock = started["clock"]
    assert clock["running"] == started["to_act"]
    assert all(FIVE_MINUTES - SLACK < left <= FIVE_MINUTES for left in clock["remaining_ms"])
    assert clock["on_time_out"] == "loss"
    assert_clock_only(started)
    walk(started)


def test_the_mover_s_clock_runs_and_a_move_adds_the_increment(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = timed_game([red, white], LIVE_5_5)
    first = mover(game)
    people = {0: red, 1: white}
    advance(40)
    seen = red.get(f"/api/games/{game['id']}").json()
    assert FIVE_MINUTES - 40_000 - SLACK < remaining(seen, first) <= FIVE_MINUTES - 40_000
    assert remaining(seen, 1 - first) == FIVE_MINUTES  # stopped: the other's turn
    moved = act(people[first], seen, seen["state"]["legal_moves"][0])
    after = FIVE_MINUTES - 40_000 + 5_000
    assert after - SLACK < remaining(moved, first) <= after
    assert moved["clock"]["running"] == [1 - first]
    advance(100)
    later = red.get(f"/api/games/{game['id']}").json()
    assert remaining(later, first) == remaining(moved, first)  # stopped while the other thinks
    assert remaining(later, 1 - first) <= FIVE_MINUTES - 100_000


def test_a_live_game_is_lost_on_time_and_rated_like_any_loss(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = timed_game([red, white], LIVE_5_5, rated=True)
    late = mover(game)
    people = {0: red, 1: white}
    advance(301)
    stale = people[late].post(
        f"/api/games/{game['id']}/moves",
        {"move": game["state"]["legal_moves"][0], "version": game["version"]},
    )
    assert stale.status_code == 409 and "time has run out" in stale.json()["detail"]
    sweep(client)
    over = people[1 - late].get(f"/api/games/{game['id']}").json()
    assert over["status"] == "finished"
    assert over["result"]["termination"] == "time" and over["result"]["lost_on_time"] == late
    assert over["result"]["ranks"][late] == 1 and over["result"]["ranks"][1 - late] == 0
    assert "runs out of time" in over["result"]["text"]
    assert over["clock"]["running"] == [] and remaining(over, late) == 0
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        rated = db.query(RatingChange).filter(RatingChange.game_id == game["id"]).count()
        assert rated == 2
        assert db.query(ActionRow).filter(ActionRow.game_id == game["id"]).count() == 0


def test_the_server_s_own_timer_ends_a_game_without_any_request(database_url: str) -> None:
    """A clock of under a second (a preset only this server offers): its timer fires on the
    real time, with nobody asking."""
    settings = Settings(database_url=database_url, live_clocks=["0.01+0"])
    with TestClient(create_app(settings)) as client:
        red, white = sign_up(client), sign_up(client)
        game = timed_game([red, white], {"kind": "live", "clock": "0.01+0"})
        for _ in range(100):
            with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
                from roses.server.db.models import Game

                row = db.get(Game, game["id"])
                assert row is not None
                if row.status == "finished":
                    break
            time.sleep(0.1)
        assert row.status == "finished" and row.result is not None
        assert row.result["termination"] == "time"


def test_wotr_planning_runs_every_planner_s_clock_until_it_seals(client: TestClient) -> None:
    """WR-10: plans are made at once; each sealed plan stops its planner's clock."""
    one, two = sign_up(client), sign_up(client)
    game = timed_game([one, two], LIVE_5_5, game="wotr")
    wotr_until(client, [one, two], game["id"], "planning")
    view = one.get(f"/api/games/{game['id']}").json()
    assert sorted(view["clock"]["running"]) == [0, 1]
    advance(30)
    sealed = one.post(
        f"/api/games/{game['id']}/moves", {"move": {"orders": {}}, "version": view["version"]}
    ).json()
    assert sealed["clock"]["running"] == [1]
    kept = remaining(sealed, 0)
    advance(50)
    later = two.get(f"/api/games/{game['id']}").json()
    assert remaining(later, 0) == kept  # stopped once sealed
    assert remaining(later, 1) < remaining(view, 1) - 80_000 + SLACK


def test_unsealing_a_plan_gains_no_time_wr10(client: TestClient) -> None:
    """A plan taken back (WR-10) restarts the clock as if it had run all along, without the
    increment its seal earned: sealing early and unsealing later is no free thinking time."""
    one, two = sign_up(client), sign_up(client)
    game = timed_game([one, two], LIVE_5_5, game="wotr")
    wotr_until(client, [one, two], game["id"], "planning")
    path = f"/api/games/{game['id']}/moves"
    view = one.get(f"/api/games/{game['id']}").json()
    before = remaining(view, 0)
    sealed = one.post(path, {"move": {"orders": {}}, "version": view["version"]}).json()
    assert remaining(sealed, 0) > before  # the increment, while it stays sealed
    advance(120)
    unsealed = one.post(path, {"move": {"unseal": True}, "version": sealed["version"]})
    assert unsealed.status_code == 200, unsealed.text
    clock = unsealed.json()["clock"]
    assert 0 in clock["running"]
    assert before - 120_000 - SLACK < clock["remaining_ms"][0] <= before - 120_000


def test_a_light_play_and_its_undo_gain_no_time_rk19(client: TestClient) -> None:
    """RK-19 Light: a play and its undo keep the mover's clock running; the increment comes
    only once the turn ends."""
    red, white = sign_up(client), sign_up(client)
    game = timed_game([red, white], LIVE_5_5, options={"light": True})
    first = mover(game)
    people = {0: red, 1: white}
    player = people[first]
    card = game["state"]["legal_moves"][0]
    advance(20)
    played = act(player, game, card)
    assert played["clock"]["running"] == [first]
    advance(20)
    undone = act(player, played, "undo")
    assert undone["clock"]["running"] == [first]
    assert remaining(undone, first) <= FIVE_MINUTES - 40_000
    played = act(player, undone, card)
    ended = act(player, played, "end-turn")
    assert ended["clock"]["running"] == [1 - first]
    expected = FIVE_MINUTES - 40_000 + 5_000
    assert expected - SLACK < remaining(ended, first) <= expected


def test_a_restart_keeps_the_clocks_and_ends_a_game_run_out_meanwhile(database_url: str) -> None:
    settings = Settings(database_url=database_url)
    with TestClient(create_app(settings)) as client:
        red, white = sign_up(client), sign_up(client)
        game = timed_game([red, white], LIVE_5_5)
        other = timed_game([red, white], LIVE_5_5)
        advance(100)
        first = mover(game)
        seen = red.get(f"/api/games/{game['id']}").json()
    with TestClient(create_app(settings)) as client:
        again = Player(client, red.name, red.token).get(f"/api/games/{game['id']}").json()
        assert remaining(again, first) <= remaining(seen, first)
        assert remaining(again, first) > remaining(seen, first) - SLACK
        assert remaining(again, 1 - first) == FIVE_MINUTES
    advance(250)  # both games run out while no server runs
    with TestClient(create_app(settings)) as client:
        person = Player(client, red.name, red.token)
        for _ in range(100):  # the sweep at startup, with no request about the games
            with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
                from roses.server.db.models import Game

                rows = [db.get(Game, g["id"]) for g in (game, other)]
                if all(row is not None and row.status == "finished" for row in rows):
                    break
            time.sleep(0.1)
        for ended in (game, other):
            over = person.get(f"/api/games/{ended['id']}").json()
            assert over["status"] == "finished" and over["result"]["termination"] == "time"


def test_two_absent_players_of_the_team_game_each_get_a_stand_in_rk16(
    client: TestClient,
) -> None:
    """The four-player game (RK-16) goes on when a player's live clock runs out: a bot makes
    that player's move, and the partner plays on. Two players run out, one after the other."""
    people = [sign_up(client) for _ in range(4)]
    game = timed_game(people, {"kind": "live", "clock": "3+2"})
    for _ in range(2):
        absent = mover(game)
        version = game["version"]
        advance(181)
        sweep(client)
        game = wait_for_version(people[0], game["id"], version + 1)
        assert game["status"] == "active" and mover(game) != absent
        assert last_actor(client, game["id"]) == absent
        assert remaining(game, absent) == 2_000  # its increment: it plays on, if it comes back


def last_actor(client: TestClient, game_id: int) -> int:
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        rows = db.query(ActionRow).filter(ActionRow.game_id == game_id)
        return int(rows.order_by(ActionRow.number.desc()).first().seat)  # type: ignore[union-attr]


def wait_for_version(player: Player, game_id: int, version: int) -> dict[str, Any]:
    """The game once at ``version`` (a bot's move comes from its worker process)."""
    for _ in range(200):
        view = player.game(game_id)
        if view["version"] >= version:
            return view
        time.sleep(0.05)
    raise AssertionError(f"game {game_id} did not reach version {version}")


def test_two_players_each_lose_a_game_on_time(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    first = timed_game([red, white], LIVE_5_5)
    second = timed_game([red, white], LIVE_5_5)
    people = {0: red, 1: white}
    moved = act(people[mover(second)], second, second["state"]["legal_moves"][0])
    losers = {first["id"]: mover(first), second["id"]: mover(moved)}
    assert set(losers.values()) == {0, 1}
    advance(400)
    sweep(client)
    for game_id, loser in losers.items():
        over = red.game(game_id)
        assert over["status"] == "finished" and over["result"]["ranks"][loser] == 1


def test_two_server_processes_act_on_a_clock_run_out_once(database_url: str) -> None:
    """docs/scaling.md: every process's timers and sweeps look at the same games; the
    version-guarded write lets exactly one act (here two stand-ins would be two moves)."""
    settings = Settings(database_url=database_url)
    with TestClient(create_app(settings)) as first, TestClient(create_app(settings)) as second:
        people = [sign_up(first) for _ in range(4)]
        game = timed_game(people, {"kind": "live", "clock": "3+2"})
        Player(second, people[0].name, people[0].token).game(game["id"])  # held by both
        advance(181)
        both = [threading.Thread(target=sweep, args=(app,)) for app in (first, second)]
        for thread in both:  # at the same moment: each reads the game before either writes
            thread.start()
        for thread in both:
            thread.join()
        after = wait_for_version(people[0], game["id"], game["version"] + 1)
        time.sleep(1.0)  # time for a second stand-in, were there one
        with services_of(first.app).sessions() as db:  # type: ignore[attr-defined]
            moves = db.query(ActionRow).filter(ActionRow.game_id == game["id"]).count()
        assert moves == 1 and people[0].game(game["id"])["version"] == after["version"]


def test_a_rematch_keeps_the_time_limit(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = timed_game([red, white], LIVE_5_5)
    red.post(f"/api/games/{game['id']}/resign")
    red.post(f"/api/games/{game['id']}/rematch")
    offer = white.post(f"/api/games/{game['id']}/rematch").json()
    again = red.game(offer["rematch"])
    assert again["clock"]["kind"] == "live" and again["clock"]["initial_ms"] == FIVE_MINUTES
    assert again["clock"]["running"] == again["to_act"]


def test_games_from_before_0006_have_no_time_limit_and_play_on(sqlite_url: str) -> None:
    """0006 adds the clocks empty: a game started before it goes on without a time limit
    (and 0006 can be taken back down and up again)."""
    settings = Settings(database_url=sqlite_url)
    with TestClient(create_app(settings)) as client:
        red, white = sign_up(client), sign_up(client)
        game = timed_game([red, white], {"kind": "none"})
    engine = make_engine(sqlite_url)
    try:
        downgrade(engine, "0005")
        with engine.connect() as connection:
            columns = {c["name"] for c in inspect(connection).get_columns("seats")}
            assert "deadline" not in columns
        upgrade(engine)
    finally:
        engine.dispose()
    with TestClient(create_app(settings)) as client:
        people = {
            0: Player(client, red.name, red.token),
            1: Player(client, white.name, white.token),
        }
        again = people[0].game(game["id"])
        assert again["clock"] is None and again["status"] == "active"
        moved = act(people[mover(again)], again, again["state"]["legal_moves"][0])
        assert moved["clock"] is None and moved["version"] == again["version"] + 1
