"""The database engine: SQLite by default (its directory created), any SQLAlchemy URL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker


def _json_text(value: Any) -> str:
    """A JSON column's value as text, by orjson: every action written goes through here,
    and the standard library's encoder cost a tenth of a move's CPU. Keys that are not
    strings become strings, as in ``json``."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


# JSON columns are written and read by orjson (``_json_text``).
_JSON = {"json_serializer": _json_text, "json_deserializer": orjson.loads}


def make_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True, **_JSON)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **_JSON)

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        # WAL: readers never block the writer; synchronous=FULL: a commit survives kill -9.
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
