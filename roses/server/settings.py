"""Server settings: defaults, then ``ROSES_*`` environment variables, then CLI flags."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, Field


def default_data_dir() -> Path:
    return Path(os.environ.get("ROSES_DATA_DIR", "var"))


def default_database_url() -> str:
    return f"sqlite:///{default_data_dir() / 'roses.sqlite3'}"


# The time-window rate limits (``limits`` notation, e.g. "10/15 minutes"), by name.
Window = Literal[
    "login_failures_per_account",
    "login_failures_per_address",
    "login_failures_per_account_address",
    "login_failures_per_device",
    "password_resets_per_address",
    "password_resets_per_account",
    "confirmation_mails_per_account",
    "registrations_per_address",
    "guests_per_address",
    "games_per_account",
    "invitations_per_account",
    "chat_messages_per_account",
    "private_messages_per_account",
    "analyses_per_account",
    "position_analyses_per_account",
]

# The settings of rate limits, quotas and request bounds that the environment can set.
_LIMITS = (
    *get_args(Window),
    "open_games_per_account",
    "open_game_days",
    "bot_games_per_account",
    "moves_per_second",
    "move_burst",
    "sockets_per_account",
    "sockets_per_address",
    "password_hashing_slots",
    "max_body_bytes",
    "max_header_bytes",
    "header_timeout_seconds",
    "body_timeout_seconds",
    "keep_alive_seconds",
    "trusted_origins",
    "analysis_seconds",
    "position_analysis_seconds",
)


class Settings(BaseModel):
    database_url: str = Field(default_factory=default_database_url)
    # Sign-in sessions last this long; the cookie is HttpOnly and SameSite=Lax.
    session_days: int = 30
    # Set when serving over HTTPS so browsers send the session cookie only encrypted.
    secure_cookies: bool = False
    # A bot's thinking time per move, by strength; the runner allows a margin on top.
    bot_seconds: dict[str, float] = {"quick": 0.2, "normal": 1.0, "strong": 3.0}
    bot_margin_seconds: float = 2.0
    # Bot searches run in this many worker processes (at a lower priority than the web).
    bot_workers: int = 4
    # Game analyses: the search time per decision, and their own worker processes (so
    # that an analysis never holds up a bot's move).
    analysis_seconds: float = 0.2
    analysis_workers: int = 1
    position_analysis_seconds: float = 1.0  # a position a player set up, or "from here"
    # Games kept in memory by their writers; the least recently used are read again later.
    cached_games: int = 20_000
    # `roses serve` keeps long-lived objects out of the garbage collector's full collections
    # and lets one walk everything every this many seconds (collector.py).
    full_collection_seconds: float = 3600
    # A seat's private draft (e.g. a plan being made) is at most this many bytes of JSON.
    draft_bytes: int = 16_384
    # A game still waiting for players this many days after it was created is called off;
    # the server looks for such games every expiry_check_seconds (and when lists are read).
    open_game_days: float = 7
    expiry_check_seconds: float = 3600
    # Time limits: the live clocks offered ("minutes+seconds added per move"), and how often
    # the server looks for clocks run out that no timer of its own watches (e.g. a game
    # nobody opened since a restart).
    live_clocks: list[Annotated[str, Field(pattern=r"^\d+(\.\d+)?\+\d+$")]] = [
        "3+2",
        "5+5",
        "10+5",
        "15+10",
    ]
    clock_check_seconds: float = 10
    # Several server processes: share live updates through Redis pub/sub (None: one process).
    redis_url: str | None = None
    redis_channel: str = "roses:game-changed"
    # Behind a balancer that routes each game by its id (deploy/, docs/scaling.md): each
    # game has one owner process, the only one that applies its moves and runs its bots and
    # clocks (needs redis_url; play/owners.py). A process silent for owner_seconds is taken
    # for dead and its games go to whichever process their traffic reaches next.
    game_owners: bool = False
    owner_seconds: float = 3.0
    # This process's name in the X-Roses-Process header of every answer (None: no header).
    process_name: str | None = None
    # Rate limits in the `limits` library's notation, counted in memory (in Redis with
    # redis_url, shared by all processes). Sign-ins count failures; the others, attempts.
    # A name's own count applies only to places it never signed in from, and a browser
    # that signed in to the name has a count of its own (accounts/sign_in_throttle.py).
    login_failures_per_account: str = "10/15 minutes"
    login_failures_per_address: str = "30/15 minutes"
    login_failures_per_account_address: str = "10/15 minutes"
    login_failures_per_device: str = "10/15 minutes"
    # Reset links asked for from one address, and sent to one account (past either, the
    # answer is the same and no e-mail goes); confirmation e-mails sent for one account.
    password_resets_per_address: str = "10/hour"
    password_resets_per_account: str = "3/hour"
    confirmation_mails_per_account: str = "5/hour"
    registrations_per_address: str = "10/hour"
    guests_per_address: str = "10/hour"
    games_per_account: str = "30/hour"
    invitations_per_account: str = "60/hour"
    chat_messages_per_account: str = "12/minute"
    private_messages_per_account: str = "20/10 minutes"
    analyses_per_account: str = "20/hour"  # games analysed afresh (a cached one is free)
    position_analyses_per_account: str = "120/hour"
    # Quotas on what one account holds at once.
    open_games_per_account: int = 50
    bot_games_per_account: int = 3
    # An account's moves (over all its sockets and the POST routes) in each server process:
    # this many a second on average, and at most ``move_burst`` at once. A person moves
    # every few seconds; a page never needs more.
    moves_per_second: float = 5.0
    move_burst: int = 20
    # WebSockets (a game's or the lobby's) open at once in each server process, per account
    # and per address (several people may share one).
    sockets_per_account: int = 32
    sockets_per_address: int = 256
    # Password hashes computed at once (each takes 19 MiB, see accounts.py); others wait.
    password_hashing_slots: int = 2
    # Requests: the largest body and headers read, how long the headers may take, and how
    # long the body may take after them.
    max_body_bytes: int = 64 * 1024
    max_header_bytes: int = 32 * 1024
    header_timeout_seconds: float = 10.0
    body_timeout_seconds: float = 30.0
    # An idle kept-alive connection is closed after this many seconds.
    keep_alive_seconds: int = 5
    # Origins other than the server's own allowed to send state-changing requests (a proxy
    # that rewrites Host, say); the server's own origin is always allowed.
    trusted_origins: list[str] = []
    # E-mail (notifications.py, digest.py): the SMTP server (smtp://user:password@host:port,
    # smtps:// for TLS; None: no e-mail at all), the sender, and the address the links in
    # e-mails point to. The daily digest goes out from digest_hour (UTC) on, looked for every
    # digest_check_seconds; deadline warnings (deadline_warnings.py) every
    # warning_check_seconds.
    smtp_url: str | None = None
    mail_from: str = "roses <roses@localhost>"
    public_url: str = "http://127.0.0.1:8000"
    digest_hour: int = Field(default=7, ge=0, le=23)
    digest_check_seconds: float = 600
    warning_check_seconds: float = 60
    # Web push and webhooks (notify/reach.py, notify/outbox.py): the VAPID subject (a
    # mailto: or https: URL the push services may contact), how long news of a turn waits
    # for an open page to report it seen, how often the outbox is looked at, the first
    # retry's delay (doubled at each try), how many tries before giving up, the time one
    # delivery may take, and whether plain http:// endpoints are allowed (a local test).
    vapid_subject: str = "mailto:roses@localhost"
    reach_grace_seconds: float = 30
    reach_check_seconds: float = 5
    reach_retry_seconds: float = 30
    reach_max_tries: int = Field(default=6, ge=1)
    reach_timeout_seconds: float = 10
    reach_plain_http: bool = False

    # The tournaments' job (tournaments/scheduler.py) looks for rounds to start every
    # tournament_check_seconds (and at once when a tournament game ends in this process).
    tournament_check_seconds: float = 5

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        values: dict[str, object] = {}
        if url := os.environ.get("ROSES_DATABASE_URL"):
            values["database_url"] = url
        if redis_url := os.environ.get("ROSES_REDIS_URL"):
            values["redis_url"] = redis_url
        if channel := os.environ.get("ROSES_REDIS_CHANNEL"):  # deployments sharing a Redis
            values["redis_channel"] = channel
        for field in _LIMITS:  # ROSES_GUESTS_PER_ADDRESS=1000/hour, say, for a load test
            if raw := os.environ.get(f"ROSES_{field.upper()}"):
                values[field] = raw.split(",") if field == "trusted_origins" else raw
        mail = ("smtp_url", "mail_from", "public_url", "digest_hour", "digest_check_seconds")
        reach = ("vapid_subject", *(name for name in cls.model_fields if name.startswith("reach_")))
        checks = ("warning_check_seconds", "full_collection_seconds", "tournament_check_seconds")
        for name in (*mail, *reach, *checks):
            if raw := os.environ.get(f"ROSES_{name.upper()}"):
                values[name] = raw
        if clocks := os.environ.get("ROSES_LIVE_CLOCKS"):  # e.g. "0.25+1,5+5" for a test
            values["live_clocks"] = clocks.split(",")
        if os.environ.get("ROSES_SECURE_COOKIES", "").lower() in {"1", "true", "yes"}:
            values["secure_cookies"] = True
        if os.environ.get("ROSES_GAME_OWNERS", "").lower() in {"1", "true", "yes"}:
            values["game_owners"] = True
        for name in ("owner_seconds", "process_name"):
            if raw := os.environ.get(f"ROSES_{name.upper()}"):
                values[name] = raw
        values.update({key: value for key, value in overrides.items() if value is not None})
        return cls.model_validate(values)
