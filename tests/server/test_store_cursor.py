"""The group commit writes a game that goes on straight to the driver's cursor: the rows it
leaves read back as the rows SQLAlchemy's own statements leave, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import select

from roses.server.db import store
from roses.server.db.models import ActionRow, Game, as_utc, utcnow
from roses.server.db.store import Change
from roses.server.services import services_of

from .conftest import sign_up, two_player_game


def _change(game_id: int, based_on: int, number: int, move: str, seat: int) -> Change:
    due = utcnow() + timedelta(minutes=5)
    return Change(game_id=game_id, based_on=based_on, number=number, seat=seat, action=move,
                  to_act=[1 - seat], turn_since=utcnow(), status="active", result=None,
                  clock_due=due)  # fmt: skip


def _stored(
    client: TestClient, game_id: int
) -> tuple[tuple[object, ...], list[tuple[object, ...]]]:
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        game = db.get(Game, game_id, populate_existing=True)
        assert game is not None
        actions = db.scalars(select(ActionRow).where(ActionRow.game_id == game_id)
                             .order_by(ActionRow.number)).all()  # fmt: skip
        row = (game.version, game.to_act, game.status, game.turn_since, game.clock_due)
        return row, [(a.number, a.seat, a.action, a.version, a.created_at) for a in actions]


def test_the_cursor_and_sqlalchemy_leave_the_same_rows(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    games = [two_player_game(red, white) for _ in range(2)]
    engine = services_of(client.app).sessions.kw["bind"]  # type: ignore[attr-defined]
    rows = []
    for game, by_cursor in zip(games, (True, False), strict=True):
        change = _change(game["id"], game["version"], 0, game["state"]["legal_moves"][0], 0)
        if by_cursor:
            with engine.connect() as connection, connection.begin():
                store.append_actions(connection, [change])  # the group commit's way
        else:
            with services_of(client.app).sessions.begin() as db:  # type: ignore[attr-defined]
                store.append_actions(db, [change])
        rows.append((change, _stored(client, game["id"])))
    for change, ((version, to_act, status, turn_since, due), actions) in rows:
        assert (version, to_act, status) == (change.based_on + 1, change.to_act, "active")
        assert as_utc(turn_since) == change.turn_since  # type: ignore[arg-type]
        assert as_utc(due) == change.clock_due  # type: ignore[arg-type]
        [(number, seat, action, made, created_at)] = actions
        assert (number, seat, action, made) == (0, 0, change.action, change.based_on + 1)
        assert abs(as_utc(created_at) - utcnow()) < timedelta(minutes=1)  # type: ignore[arg-type]
    (_, (cursor_game, cursor_actions)), (_, (orm_game, orm_actions)) = rows
    assert [type(v) for v in cursor_game] == [type(v) for v in orm_game]
    assert [type(v) for v in cursor_actions[0]] == [type(v) for v in orm_actions[0]]
