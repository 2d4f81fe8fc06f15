"""Two conflicting moves at once: exactly one applies (the version check in one transaction)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select

from roses.server.db.engine import session_factory
from roses.server.db.models import ActionRow, utcnow
from roses.server.db.store import Change, append_action
from roses.server.errors import Conflict

from .conftest import sign_up, two_player_game


def test_two_tabs_sending_different_moves_apply_exactly_one(client: TestClient) -> None:
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    first, second = game["state"]["legal_moves"][:2]
    path = f"/api/games/{game['id']}/moves"
    one = red.post(path, {"move": first, "version": game["version"]})
    other = red.post(path, {"move": second, "version": game["version"]})
    assert (one.status_code, other.status_code) == (200, 409)
    assert [entry["move"] for entry in red.game(game["id"])["log"]] == [first]


def test_racing_transactions_apply_exactly_one(client: TestClient, database_url: str) -> None:
    """Server processes racing on one game: each writes its action guarded by the version it
    was applied to, each in its own transaction; exactly one is stored."""
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    moves = game["state"]["legal_moves"]
    engine = create_engine(
        database_url, connect_args={"timeout": 30} if "sqlite" in database_url else {}
    )
    sessions = session_factory(engine)

    def attempt(index: int) -> str:
        change = Change(
            game_id=game["id"],
            based_on=game["version"],
            number=0,
            seat=0,
            action=moves[index % len(moves)],
            to_act=[1],
            turn_since=utcnow(),
            status="active",
            result=None,
        )
        try:
            with sessions.begin() as db:
                append_action(db, change)
            return "applied"
        except Conflict:
            return "conflict"

    with ThreadPoolExecutor(max_workers=6) as pool:
        outcomes = list(pool.map(attempt, range(12)))
    with sessions() as db:
        stored = db.scalar(select(func.count()).where(ActionRow.game_id == game["id"]))
    engine.dispose()
    assert outcomes.count("applied") == 1
    assert stored == 1
