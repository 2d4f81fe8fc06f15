"""Alembic migrations of the server database (run by ``roses.server.migrate``)."""
