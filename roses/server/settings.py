"""Server settings: defaults, then ``ROSES_*`` environment variables, then CLI flags."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, Field


def default_data_dir() -> Path:
    return Path(os.environ.get("ROSES_DATA_DIR", "var"))


def default_database_url() -> str:
    return f"sqlite:///{default_data_dir() / 'roses.sqlite3'}"


class Settings(BaseModel):
    database_url: str = Field(default_factory=default_database_url)
    # Sign-in sessions last this long; the cookie is HttpOnly and SameSite=Lax.
    session_days: int = 30
    # Set when serving over HTTPS so browsers send the session cookie only encrypted.
    secure_cookies: bool = False
    # A bot's thinking time per move, by strength; the runner allows a margin on top.
    bot_seconds: dict[str, float] = {"quick": 0.2, "normal": 1.0, "strong": 3.0}
    bot_margin_seconds: float = 2.0
    # Several server processes: share live updates through Redis pub/sub (None: one process).
    redis_url: str | None = None
    redis_channel: str = "roses:game-changed"

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        values: dict[str, object] = {}
        if url := os.environ.get("ROSES_DATABASE_URL"):
            values["database_url"] = url
        if redis_url := os.environ.get("ROSES_REDIS_URL"):
            values["redis_url"] = redis_url
        if os.environ.get("ROSES_SECURE_COOKIES", "").lower() in {"1", "true", "yes"}:
            values["secure_cookies"] = True
        values.update({key: value for key, value in overrides.items() if value is not None})
        return cls.model_validate(values)
