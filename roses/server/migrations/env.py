"""Alembic environment: the engine comes from ``roses.server.migrate``, never from a file."""

from __future__ import annotations

from alembic import context

from roses.server.models import Base

engine = context.config.attributes["engine"]
with engine.begin() as connection:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    context.run_migrations()
