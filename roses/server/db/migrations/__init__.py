"""Alembic migrations of the server database (run by ``roses.server.db.migrate``)."""
