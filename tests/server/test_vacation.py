"""Vacations through the API: the allowance (7 days to start, 30 a year accrued, paid when
taken and paid back when ended early), the rules (never with a live game being played, one
at a time, not a guest's), the clocks of correspondence games paused (a deadline moves by
exactly the vacation; a claim on time waits), shown to the opponent, the 80% warning
postponed, and the vacation ending by itself. Answers carry nothing hidden."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient

from roses.server.accounts.users import SESSION_COOKIE
from roses.server.clocks.time_control import due_warnings, server_time
from roses.server.services import services_of

from .clock_helpers import LIVE_5_5, advance, moment, mover, real_time, remaining, timed_game
from .conftest import Player, act, sign_up
from .hidden import assert_clock_only, assert_envelopes_only, assert_vacation_only

__all__ = ["real_time"]  # the fixture, used by every test here

DAY = 24 * 3600
THREE_DAYS = {"kind": "correspondence", "days": 3}


def vacation(player: Player) -> dict[str, object]:
    answer = player.get("/api/vacation")
    assert answer.status_code == 200, answer.text
    assert_vacation_only(answer.json())
    return dict(answer.json())


def take(player: Player, days: int) -> object:
    return player.post("/api/vacation", {"days": days})


def come_back(player: Player) -> object:
    return player.client.delete("/api/vacation", headers=player.headers)


def test_the_allowance_is_paid_when_taken_and_paid_back_when_ended_early(
    client: TestClient,
) -> None:
    me = sign_up(client)
    start = vacation(me)
    assert start["available_days"] == 7 and start["until"] is None
    assert (start["days_per_year"], start["cap_days"], start["max_days"]) == (30, 30, 30)
    taken = take(me, 3)
    assert taken.status_code == 200, taken.text
    assert_vacation_only(taken.json())
    assert taken.json()["available_days"] == 4
    until = moment(taken.json()["until"])
    assert abs(until - (server_time() + timedelta(days=3))) < timedelta(seconds=5)
    again = take(me, 1)
    assert again.status_code == 409 and "on vacation until" in again.json()["detail"]
    advance(DAY)
    back = come_back(me)
    assert back.status_code == 200, back.text
    # 4 left + 2 days not taken + a day's accrual (30/365 of a day: no whole day yet).
    assert back.json()["available_days"] == 6 and back.json()["until"] is None
    assert come_back(me).status_code == 409
    too_long = take(me, 7)
    assert too_long.status_code == 422
    assert too_long.json()["detail"] == "You have 6 vacation days left."
    for days in (0, 31):
        refused = take(me, days)
        assert refused.status_code == 422 and "1 to 30 days" in refused.json()["detail"]
    assert vacation(me)["available_days"] == 6  # refusals changed nothing


def test_a_refusal_speaks_the_reader_s_language(client: TestClient) -> None:
    me = sign_up(client)
    refused = me.client.post(
        "/api/vacation", json={"days": 9}, headers={**me.headers, "accept-language": "de"}
    )
    assert refused.status_code == 422
    assert refused.json()["detail"] == "Du hast noch 7 Urlaubstage."
    taken = me.client.post("/api/vacation", json={"days": 2}, headers=me.headers)
    until = moment(taken.json()["until"])
    again = me.client.post(
        "/api/vacation", json={"days": 1}, headers={**me.headers, "accept-language": "de"}
    )
    assert again.status_code == 409
    # The date as German writes it (Babel): "30.11.2026, 05:20:00 UTC".
    assert again.json()["detail"] == (
        f"Du bist bis {until:%d.%m.%Y, %H:%M:%S} UTC im Urlaub: kehre zuerst zurück."
    )


def test_no_vacation_while_a_live_game_is_being_played(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    live = timed_game([red, white], LIVE_5_5)
    refused = take(red, 2)
    assert refused.status_code == 409
    assert refused.json()["detail"] == (
        "A vacation pauses correspondence clocks only, never a live game's: "
        f"finish your live game {live['id']} first."
    )
    assert vacation(red)["available_days"] == 7 and vacation(red)["until"] is None
    # The live clocks never stopped.
    assert red.game(live["id"])["clock"]["paused_until"] == [None, None]


def test_a_guest_has_no_vacation(client: TestClient) -> None:
    answer = client.post("/api/accounts/guest")
    assert answer.status_code == 201, answer.text
    guest = Player(client, answer.json()["name"], answer.cookies[SESSION_COOKIE])
    client.cookies.clear()
    refused = take(guest, 2)
    assert refused.status_code == 403 and "register" in refused.json()["detail"]


def test_a_vacation_pauses_the_clock_and_the_opponent_sees_it(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = timed_game([red, white], THREE_DAYS, rated=True)
    people = {0: red, 1: white}
    seat = mover(game)
    away, opponent = people[seat], people[1 - seat]
    before = opponent.game(game["id"])
    advance(DAY)  # a day of the three used
    taken = take(away, 5)
    assert taken.status_code == 200, taken.text
    seen = opponent.game(game["id"])
    assert_clock_only(seen)
    assert seen["version"] == before["version"] + 1
    assert seen["clock"]["paused_until"][seat] == taken.json()["until"]
    assert seen["clock"]["paused_until"][1 - seat] is None
    # The deadline moved by exactly the vacation; the time left stands still.
    moved = moment(seen["clock"]["deadlines"][seat]) - moment(before["clock"]["deadlines"][seat])
    assert moved == timedelta(days=5)
    left = remaining(seen, seat)
    assert abs(left - 2 * DAY * 1000) < 5_000
    # The lobby shows it too.
    mine = opponent.get("/api/games/mine").json()
    listed = next(g for g in mine["others"] + mine["my_turn"] if g["id"] == game["id"])
    assert listed["clock"]["paused_until"][seat] == taken.json()["until"]
    assert_envelopes_only([listed])
    advance(4 * DAY)
    assert remaining(opponent.game(game["id"]), seat) == left
    claim = opponent.post(f"/api/games/{game['id']}/claim-timeout")
    assert claim.status_code == 409  # the deadline has not passed: no deadline lost either
    # The vacation ends by itself; the clock runs again from where it stood.
    advance(DAY + 60)
    assert vacation(away)["until"] is None
    after = opponent.game(game["id"])
    assert after["clock"]["paused_until"] == [None, None]
    assert abs(remaining(after, seat) - (left - 60_000)) < 5_000
    advance(2 * DAY)
    assert opponent.post(f"/api/games/{game['id']}/claim-timeout").status_code == 200


def test_a_decision_that_comes_during_the_vacation_waits_for_its_end(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = timed_game([red, white], THREE_DAYS)
    people = {0: red, 1: white}
    seat = mover(game)
    waiting = people[1 - seat]
    taken = take(waiting, 4)
    until = moment(taken.json()["until"])
    advance(DAY)
    moved = act(people[seat], people[seat].game(game["id"]), game["state"]["legal_moves"][0])
    assert moment(moved["clock"]["deadlines"][1 - seat]) == until + timedelta(days=3)
    assert remaining(moved, 1 - seat) == 3 * DAY * 1000


def test_coming_back_early_gives_the_clock_back_its_running(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = timed_game([red, white], THREE_DAYS)
    people = {0: red, 1: white}
    seat = mover(game)
    first = people[seat].game(game["id"])["clock"]["deadlines"][seat]
    assert take(people[seat], 5).status_code == 200
    advance(2 * DAY)
    back = come_back(people[seat])
    assert back.status_code == 200
    seen = people[1 - seat].game(game["id"])
    # Two days paused: the deadline is two days later than it was, no more.
    moved = moment(seen["clock"]["deadlines"][seat]) - moment(first)
    assert abs(moved - timedelta(days=2)) < timedelta(seconds=5)
    assert seen["clock"]["paused_until"] == [None, None]


def test_the_80_percent_warning_waits_for_the_vacation(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = timed_game([red, white], {"kind": "correspondence", "days": 1})
    people = {0: red, 1: white}
    take(people[mover(game)], 3)
    sessions = services_of(client.app).sessions

    def due() -> list[int]:
        with sessions() as db:
            return [w.seat for w in due_warnings(db, server_time()) if w.game_id == game["id"]]

    advance(0.9 * DAY)
    assert due() == []
    advance(3 * DAY)
    assert due() == [mover(game)]


def test_a_game_that_starts_during_a_vacation_starts_paused(client: TestClient) -> None:
    """The invitation is accepted while its sender is away: their clock waits for them."""
    red, white = sign_up(client), sign_up(client)
    seats = [{"kind": "me"}, {"kind": "invite", "name": white.name}]
    created = red.post("/api/games", {"seats": seats, "time_limit": THREE_DAYS})
    assert created.status_code == 201, created.text
    taken = take(red, 2)
    until = moment(taken.json()["until"])
    joined = white.post(f"/api/games/{created.json()['id']}/join")
    assert joined.status_code == 200, joined.text
    clock = joined.json()["clock"]
    assert clock["paused_until"][0] == taken.json()["until"]
    if 0 in clock["running"]:
        assert moment(clock["deadlines"][0]) == until + timedelta(days=3)


def test_the_timeout_service_waits_for_a_player_on_vacation_rk16(client: TestClient) -> None:
    """The team game's stand-in (RK-16) does not move for a player on vacation: the
    timeout service acts only once the deadline, moved by the vacation, has passed."""
    from .clock_helpers import sweep
    from .test_clocks import wait_for_version

    people = [sign_up(client) for _ in range(4)]
    game = timed_game(people, {"kind": "correspondence", "days": 1})
    away = mover(game)
    assert take(people[away], 2).status_code == 200
    version = people[0].game(game["id"])["version"]  # the pause is a version of its own
    advance(2 * DAY)
    sweep(client)
    assert people[0].game(game["id"])["version"] == version  # a day and two away: not yet
    advance(DAY + 60)
    sweep(client)
    after = wait_for_version(people[0], game["id"], version + 1)
    assert after["status"] == "active" and mover(after) != away


def test_the_opponent_s_socket_hears_of_the_pause_and_nothing_more(client: TestClient) -> None:
    """A pause is a version of its own, announced to every watcher of the game: the same
    view as before but for the clock (a Wars of the Roses game mid-planning: no plan)."""
    from roses.wotr import default_board

    from .test_resign import wotr_until

    one, two = sign_up(client), sign_up(client)
    game = timed_game([one, two], THREE_DAYS, game="wotr")
    wotr_until(client, [one, two], game["id"], "planning")
    view = one.game(game["id"])
    plan = {"orders": {"calais": {"bid": 1, "zone": default_board().model.calais.zones[0]}}}
    assert one.post(f"/api/games/{game['id']}/moves", {"move": plan, "version": view["version"]})
    with two.websocket(f"/api/games/{game['id']}/ws") as socket:
        before = socket.receive_json()["game"]
        taken = take(one, 2)
        assert taken.status_code == 200, taken.text
        message = socket.receive_json()
        assert message["version"] == before["version"] + 1
        after = message["game"]
        assert_clock_only(after)
        assert after["clock"]["paused_until"][0] == taken.json()["until"]
        same = {k: v for k, v in after.items() if k not in ("clock", "version")}
        assert same == {k: v for k, v in before.items() if k not in ("clock", "version")}


def test_a_warning_found_before_a_vacation_is_not_given_after_it_began(
    client: TestClient,
) -> None:
    """The warnings job found a warning due, then the player went away before it went out:
    the warning is not recorded (nor sent) while the vacation moved its moment on."""
    from roses.server.clocks.time_control import mark_warned

    red, white = sign_up(client), sign_up(client)
    game = timed_game([red, white], {"kind": "correspondence", "days": 1})
    people = {0: red, 1: white}
    sessions = services_of(client.app).sessions
    advance(0.85 * DAY)
    with sessions() as db:
        (due,) = [w for w in due_warnings(db, server_time()) if w.game_id == game["id"]]
    assert take(people[mover(game)], 2).status_code == 200
    with sessions.begin() as db:
        assert not mark_warned(db, due, server_time())


def test_an_older_account_has_accrued_days_since_it_joined(client: TestClient) -> None:
    """An account from before vacations (0013) has no allowance row: a new account's seven
    days, accrued since it joined (30 a year), up to the cap."""
    from sqlalchemy import update

    from roses.server.db.models import User

    old, older = sign_up(client), sign_up(client)
    with services_of(client.app).sessions.begin() as db:
        for player, days in ((old, 73), (older, 3 * 365)):
            joined = server_time() - timedelta(days=days)
            db.execute(update(User).where(User.name == player.name).values(created_at=joined))
    assert vacation(old)["available_days"] == 13  # 7 + 30 * 73 / 365
    assert vacation(older)["available_days"] == 30
