"""Every rating rebuilt by replaying the rated games in order (migration 0013, ``roses
ratings rebuild``): the same ratings as the live updates gave, and again the same when run
twice."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from roses.cli import main
from roses.server.db.models import PlayerRating, RatingChange
from roses.server.ratings.replay import rebuild
from roses.server.services import services_of

from .conftest import fresh_postgres_database, sign_up
from .test_ratings import BOT, create, four_people

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database of this test's own: a replay takes every rated game in it, so the games
    other tests left in the worker's shared PostgreSQL database must not be there."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'roses.sqlite3'}"
        return
    with fresh_postgres_database() as url:
        yield url


def snapshot(client: TestClient) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every rating and every history point, in a stable order."""
    with services_of(client.app).sessions() as db:  # type: ignore[attr-defined]
        ratings = [
            (r.game, r.variant, r.rated, r.user_id, r.games, r.rating, r.deviation,
             r.volatility, r.mu, r.sigma)
            for r in db.scalars(select(PlayerRating).order_by(
                PlayerRating.game, PlayerRating.variant, PlayerRating.rated))
        ]  # fmt: skip
        changes = [
            (c.game_id, c.rated, c.rating, c.deviation, c.at.replace(tzinfo=None))
            for c in db.scalars(select(RatingChange).order_by(
                RatingChange.game_id, RatingChange.rated))
        ]  # fmt: skip
    return ratings, changes


def play_rated_games(client: TestClient) -> None:
    """Duels, a team game and free-for-alls, people and bots, one after another, so that
    later games start from the ratings the earlier ones left."""
    player = sign_up(client)
    for seats, players in [([{"kind": "me"}, BOT], 2), ([{"kind": "me"}, BOT, BOT, BOT], 4)]:
        for _ in range(2):
            created = create(player, seats, players=players, rated=True)
            assert created.status_code == 201, created.text
            assert player.post(f"/api/games/{created.json()['id']}/resign").status_code == 200
    players, _ = four_people(client, "wotr", resigns=1)
    four_people(client, "wotr", resigns=3, players=players)
    four_people(client, "roseking", resigns=1, players=players)
    wotr_bots = [{"kind": "me"}, {**BOT, "bot": "heuristic"}, BOT]
    created = create(player, wotr_bots, game="wotr", players=3, rated=True)
    assert created.status_code == 201, created.text
    assert player.post(f"/api/games/{created.json()['id']}/resign").status_code == 200


def test_replaying_the_rated_games_gives_the_ratings_the_live_updates_gave(
    client: TestClient, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    play_rated_games(client)
    live_ratings, live_changes = snapshot(client)
    variants = {(row[0], row[1]) for row in live_ratings}
    assert {("roseking", "2p"), ("roseking", "4p"), ("wotr", "3p"), ("wotr", "4p")} <= variants
    engine = services_of(client.app).sessions.kw["bind"]  # type: ignore[attr-defined]
    with engine.begin() as connection:
        assert rebuild(connection) == 8
    ratings, changes = snapshot(client)
    assert ratings == live_ratings  # the same arithmetic in the same order: the same floats
    assert changes == live_changes

    assert main(["ratings", "rebuild", "--database-url", database_url]) == 0  # and again
    assert capsys.readouterr().out.startswith("replayed ")
    assert snapshot(client) == (ratings, changes)


def test_rebuild_refuses_a_bad_database_url_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ratings", "rebuild", "--database-url", "nonsense"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: --database-url:") and "Traceback" not in error
