"""Two conflicting moves at once: exactly one applies (the version check in one transaction)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select

from roses.server import games as games_service
from roses.server.db import session_factory
from roses.server.models import MoveRow, User

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
    """Many threads call the service at once with the same version, each its own session."""
    red, white = sign_up(client), sign_up(client)
    game = two_player_game(red, white)
    moves = game["state"]["legal_moves"]
    engine = create_engine(
        database_url, connect_args={"timeout": 30} if "sqlite" in database_url else {}
    )
    sessions = session_factory(engine)
    with sessions() as db:
        user = db.scalars(select(User).where(User.name == red.name)).one()

    def attempt(index: int) -> str:
        try:
            with sessions.begin() as db:
                games_service.play(db, user, game["id"], moves[index % len(moves)], game["version"])
            return "applied"
        except games_service.Conflict:
            return "conflict"

    with ThreadPoolExecutor(max_workers=6) as pool:
        outcomes = list(pool.map(attempt, range(12)))
    with sessions() as db:
        stored = db.scalar(select(func.count()).where(MoveRow.game_id == game["id"]))
    engine.dispose()
    assert outcomes.count("applied") == 1
    assert stored == 1
