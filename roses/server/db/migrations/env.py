"""Alembic environment: the engine comes from ``roses.server.db.migrate``, never from a file."""

from __future__ import annotations

from alembic import context

from roses.server.db.models import Base

engine = context.config.attributes["engine"]
with engine.connect() as connection:
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        # SQLite changes a table by copying it: with foreign keys on, dropping the old copy
        # would cascade into the rows that point at it (a game's seats and moves).
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.commit()
    try:
        with connection.begin():
            context.configure(
                connection=connection, target_metadata=Base.metadata, render_as_batch=sqlite
            )
            context.run_migrations()
    finally:
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()
