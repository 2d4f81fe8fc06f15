"""Alembic migrations ship in the package, run without alembic.ini, and match the models."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from roses.server.db import make_engine
from roses.server.migrate import downgrade, upgrade
from roses.server.models import Base


def test_upgrade_matches_the_models_and_downgrade_removes_all(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        upgrade(engine)
        upgrade(engine)  # a second start finds nothing to do
        with engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        if database_url.startswith("sqlite"):  # the shared PostgreSQL database stays in use
            downgrade(engine, "base")
            assert set(inspect(create_engine(database_url)).get_table_names()) <= {
                "alembic_version"
            }
            upgrade(engine)
            assert {"users", "games", "moves", "seats"} <= set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
