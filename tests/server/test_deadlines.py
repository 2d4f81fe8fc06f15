"""Correspondence deadlines: days per move, the deadline shown, a claim on time refused
before the deadline and accepted after, a stand-in for an absent player of the team game
(RK-16) and of WotR with 3 players (an empty plan, WR-10), the 80% warning's data, and
hidden information (the claim and the clocks tell nothing secret)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient

from roses.server.clocks.time_control import due_warnings, mark_warned, server_time
from roses.server.db.models import ActionRow
from roses.server.services import services_of
from roses.wotr import default_board

from .clock_helpers import LIVE_5_5, advance, moment, mover, real_time, sweep, timed_game
from .conftest import act, sign_up
from .hidden import assert_clock_only, walk
from .test_resign import wotr_until

__all__ = ["real_time"]  # the fixture, used by every test here

DAY = 24 * 3600
THREE_DAYS = {"kind": "correspondence", "days": 3}


def test_each_move_has_its_days_and_the_deadline_is_shown(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = timed_game([red, white], THREE_DAYS)
    clock = game["clock"]
    assert clock["kind"] == "correspondence" and clock["days"] == 3
    first = mover(game)
    deadline = moment(clock["deadlines"][first])
    assert abs(deadline - (moment(clock["now"]) + timedelta(days=3))) < timedelta(seconds=5)
    assert clock["deadlines"][1 - first] is None and clock["running"] == [first]
    advance(2 * DAY)
    people = {0: red, 1: white}
    moved = act(people[first], game, game["state"]["legal_moves"][0])
    after = moved["clock"]
    assert after["deadlines"][first] is None
    # The next move has 3 days again from now, whatever the last one used.
    due = moment(after["deadlines"][1 - first])
    assert abs(due - (moment(after["now"]) + timedelta(days=3))) < timedelta(seconds=5)
    assert_clock_only(moved)


def test_a_claim_is_refused_before_the_deadline_and_accepted_after(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    watcher = sign_up(client)
    game = timed_game([red, white], THREE_DAYS, rated=True)
    people = {0: red, 1: white}
    late, waiting = people[mover(game)], people[1 - mover(game)]
    claim = f"/api/games/{game['id']}/claim-timeout"
    early = waiting.post(claim)
    assert early.status_code == 409
    assert "deadline has not passed yet" in early.json()["detail"]
    assert game["seats"][mover(game)]["label"] in early.json()["detail"]
    assert late.post(claim).status_code == 409  # its own move: nothing to claim
    advance(3 * DAY + 60)
    sweep(client)  # the server itself does nothing: the opponent chooses
    still = waiting.game(game["id"])
    assert still["status"] == "active"
    assert still["clock"]["claimable_by"] == [1 - mover(game)]
    own = late.post(claim)
    assert own.status_code == 409 and "only your opponent" in own.json()["detail"]
    assert watcher.post(claim).status_code == 403
    won = waiting.post(claim)
    assert won.status_code == 200, won.text
    over = won.json()
    assert over["status"] == "finished" and over["result"]["termination"] == "time"
    assert over["result"]["ranks"][mover(game)] == 1
    assert over["result"]["lost_on_time"] == mover(game)
    assert over["clock"]["running"] == [] and over["clock"]["claimable_by"] == []
    assert waiting.post(claim).status_code == 409  # over already
    walk(over)


def test_a_late_move_still_counts_until_the_win_is_claimed(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = timed_game([red, white], THREE_DAYS)
    people = {0: red, 1: white}
    advance(4 * DAY)
    moved = act(people[mover(game)], game, game["state"]["legal_moves"][0])
    assert moved["status"] == "active" and moved["clock"]["claimable_by"] == []
    refused = people[mover(game)].post(f"/api/games/{game['id']}/claim-timeout")
    assert refused.status_code == 409


def test_no_claim_where_the_rule_is_another(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    untimed = timed_game([red, white], {"kind": "none"})
    answer = white.post(f"/api/games/{untimed['id']}/claim-timeout")
    assert answer.status_code == 409 and "no time limit" in answer.json()["detail"]
    live = timed_game([red, white], LIVE_5_5)
    answer = white.post(f"/api/games/{live['id']}/claim-timeout")
    assert answer.status_code == 409 and "ends the game by itself" in answer.json()["detail"]
    people = [sign_up(client) for _ in range(4)]
    team = timed_game(people, THREE_DAYS)
    advance(4 * DAY)
    answer = people[1].post(f"/api/games/{team['id']}/claim-timeout")
    assert answer.status_code == 409 and "stand-in" in answer.json()["detail"]


def test_a_bot_stands_in_for_an_absent_player_of_the_team_game_rk16(client: TestClient) -> None:
    people = [sign_up(client) for _ in range(4)]
    game = timed_game(people, {"kind": "correspondence", "days": 1})
    absent = mover(game)
    advance(DAY - 60)
    sweep(client)
    assert people[0].game(game["id"])["version"] == game["version"]  # not yet
    advance(120)
    sweep(client)
    after = wait_for_move(client, people[0], game)
    assert after["status"] == "active" and mover(after) != absent
    assert after["clock"]["running"] == [mover(after)]
    assert moment(after["clock"]["deadlines"][mover(after)]) > server_time()


def wait_for_move(client: TestClient, player: Any, game: dict[str, Any]) -> dict[str, Any]:
    from .test_clocks import wait_for_version

    return wait_for_version(player, game["id"], game["version"] + 1)


def test_an_empty_plan_is_sealed_for_absent_planners_wr10(client: TestClient) -> None:
    """WotR with 3 players: two planners let the deadline pass; each gets the empty plan
    (WR-10: every part of a plan is optional), and the turn goes on to deployment."""
    people = [sign_up(client) for _ in range(3)]
    game = timed_game(people, THREE_DAYS, game="wotr")
    wotr_until(client, people, game["id"], "planning")
    view = people[0].game(game["id"])
    assert sorted(view["clock"]["running"]) == [0, 1, 2]
    zone = default_board().model.calais.zones[0]
    plan = {"orders": {"calais": {"bid": 1, "zone": zone}}}
    sealed = people[0].post(
        f"/api/games/{game['id']}/moves", {"move": plan, "version": view["version"]}
    )
    assert sealed.status_code == 200, sealed.text
    advance(3 * DAY + 60)
    sweep(client)
    after = people[0].game(game["id"])
    assert after["state"]["phase"] != "planning"
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        rows = db.query(ActionRow).filter(ActionRow.game_id == game["id"])
        plans = {row.seat: row.action for row in rows if "orders" in row.action}
    assert plans[1] == {"orders": {}} and plans[2] == {"orders": {}}
    assert plans[0]["orders"]["calais"]["bid"] == 1


def test_the_80_percent_warning_lists_each_decision_once(client: TestClient) -> None:
    """What the notifications read: who has used 80% of the time for this decision."""
    red, white = sign_up(client), sign_up(client)
    game = timed_game([red, white], {"kind": "correspondence", "days": 1})
    sessions = services_of(client.app).sessions
    with sessions() as db:
        assert [w for w in due_warnings(db, server_time()) if w.game_id == game["id"]] == []
    advance(0.81 * DAY)
    with sessions.begin() as db:
        due = [w for w in due_warnings(db, server_time()) if w.game_id == game["id"]]
        assert [(w.seat, w.user_id is not None) for w in due] == [(mover(game), True)]
        assert mark_warned(db, due[0], server_time())
    with sessions() as db:
        assert [w for w in due_warnings(db, server_time()) if w.game_id == game["id"]] == []
    people = {0: red, 1: white}
    act(people[mover(game)], people[mover(game)].game(game["id"]), game["state"]["legal_moves"][0])
    with sessions.begin() as db:  # a decision over: its warning can no longer be marked
        assert not mark_warned(db, due[0], server_time())


def test_clocks_and_claims_carry_no_hidden_information(client: TestClient) -> None:
    """The clock is public (every seat's time, like a chess clock) and holds only times;
    a draft saved while planning (WotR) changes no clock and no version, so nobody learns
    when another planner works on a plan."""
    one, two = sign_up(client), sign_up(client)
    spectator = sign_up(client)
    game = timed_game([one, two], THREE_DAYS, game="wotr")
    wotr_until(client, [one, two], game["id"], "planning")
    before = spectator.game(game["id"])
    assert_clock_only(before)
    saved = one.client.put(
        f"/api/games/{game['id']}/draft",
        json={"draft": {"orders": {"troops": {"x": 3}}}},
        headers=one.headers,
    )
    assert saved.status_code == 200
    # The engine's reckoning of the plan, for its planner alone: "x" is no Location.
    assert saved.json()["preview"]["faults"]
    after = spectator.game(game["id"])
    assert after["version"] == before["version"]
    assert after["clock"]["deadlines"] == before["clock"]["deadlines"]
    without_clock = [{k: v for k, v in view.items() if k != "clock"} for view in (before, after)]
    assert without_clock[0] == without_clock[1] and after["draft"] is None
    for answer in (
        spectator.post(f"/api/games/{game['id']}/claim-timeout"),
        two.post(f"/api/games/{game['id']}/claim-timeout"),
    ):
        walk(answer.json())
        assert set(answer.json()) == {"detail"}
    mine = spectator.get("/api/games/mine").json()
    walk(mine)


def test_an_unsealed_plan_keeps_its_deadline_wr10(client: TestClient) -> None:
    """A plan taken back (WR-10) does not earn fresh days: the deadline is the one the
    planner had before sealing."""
    one, two = sign_up(client), sign_up(client)
    game = timed_game([one, two], THREE_DAYS, game="wotr")
    wotr_until(client, [one, two], game["id"], "planning")
    path = f"/api/games/{game['id']}/moves"
    view = one.game(game["id"])
    deadline = view["clock"]["deadlines"][0]
    advance(DAY)
    sealed = one.post(path, {"move": {"orders": {}}, "version": view["version"]}).json()
    assert sealed["clock"]["deadlines"][0] is None and sealed["clock"]["running"] == [1]
    advance(DAY)
    unsealed = one.post(path, {"move": {"unseal": True}, "version": sealed["version"]}).json()
    # The same moment, to the millisecond the clocks count in.
    assert abs(moment(unsealed["clock"]["deadlines"][0]) - moment(deadline)) < timedelta(
        milliseconds=2
    )


def test_a_spectator_s_socket_carries_only_public_clocks(client: TestClient) -> None:
    """Every socket message's clock tells no more than to_act: a seal is seen as the
    planner leaving to_act; a draft saved moves no clock and sends nothing."""
    one, two = sign_up(client), sign_up(client)
    spectator = sign_up(client)
    game = timed_game([one, two], THREE_DAYS, game="wotr")
    wotr_until(client, [one, two], game["id"], "planning")
    view = one.game(game["id"])
    with spectator.websocket(f"/api/games/{game['id']}/ws") as socket:
        first = socket.receive_json()
        assert_clock_only(first["game"])
        one.client.put(
            f"/api/games/{game['id']}/draft",
            json={"draft": {"orders": {"troops": {"x": 2}}}},
            headers=one.headers,
        )
        plan = {"orders": {"calais": {"bid": 1, "zone": default_board().model.calais.zones[0]}}}
        sealed = one.post(
            f"/api/games/{game['id']}/moves", {"move": plan, "version": view["version"]}
        )
        assert sealed.status_code == 200, sealed.text
        message = socket.receive_json()
        assert message["version"] == view["version"] + 1  # the draft sent nothing
        assert_clock_only(message["game"])
        assert message["game"]["clock"]["running"] == [1]
        assert message["game"]["draft"] is None
