"""Rate limits and quotas: how much one account, or one address, may do.

Counts over time windows (failed sign-ins, new accounts and guests, games created,
invitations) are kept by the ``limits`` library: in memory, or in Redis when the server
has a ``redis_url``, so that every process sees the same counts. What an account holds at
once (unfinished games, games with bots) is counted in the database. Either way the answer
is 429 with a sentence saying what to do, and ``Retry-After`` when a wait will help.
Moves are counted per account in each process (``MoveRate``), over all its sockets and the
POST route alike: they are the busiest path, so they cost no trip to Redis.

Routes apply the game checks as dependencies:
``@router.post("/games", dependencies=[Depends(quotas.new_game_allowed)])``. A rematch
creates a game too, and counts the same (``check_unfinished``, ``count_new_game``).
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session, aliased, sessionmaker
from starlette.requests import HTTPConnection

from ..db.models import Game, GameStatus, Seat, User
from ..errors import ServiceError, as_sentence
from ..i18n import N_, _, ngettext
from ..services import services
from ..settings import Settings, Window
from .signed_in import CurrentUser

T = TypeVar("T")


class TooMany(ServiceError):
    """429: a rate limit or quota was reached; nothing was changed."""

    status = 429

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def _in_words(seconds: int) -> str:
    if seconds < 120:
        return ngettext("{n} second", "{n} seconds", seconds)
    return ngettext("{n} minute", "{n} minutes", math.ceil(seconds / 60))


SWEEP_SECONDS = 10.0


class SweptMemoryStorage(MemoryStorage):
    """``limits``' in-process storage, its expired entries swept every ``SWEEP_SECONDS``
    rather than every hundredth of a second: a sweep walks every key (12 ms for 6,000
    accounts' keys), so a steady stream of counts kept half a core sweeping. The counts do
    not depend on the sweep (each check compares the entries' times); it only frees memory."""

    def _MemoryStorage__schedule_expiry(self) -> None:  # the hook its counting calls
        if not self.timer.is_alive():
            sweep = self._MemoryStorage__expire_events  # type: ignore[attr-defined]
            self.timer = threading.Timer(SWEEP_SECONDS, sweep)
            self.timer.daemon = True
            self.timer.start()


class MoveRate:
    """A token bucket per account: at most ``burst`` moves at once and ``per_second`` on
    average (the settings ``move_burst`` and ``moves_per_second``). Only the accounts that
    moved lately are kept: one idle for a few seconds has a full bucket again, as a
    forgotten one does."""

    def __init__(self, per_second: float, burst: int, capacity: int = 100_000) -> None:
        self._per_second = per_second
        self._burst = float(burst)
        self._capacity = capacity
        self._buckets: OrderedDict[int, tuple[float, float]] = OrderedDict()  # tokens, when

    def take(self, user_id: int) -> bool:
        """Count one move by ``user_id``; False (and nothing counted) if it is too soon."""
        now = time.monotonic()
        tokens, then = self._buckets.pop(user_id, (self._burst, now))
        tokens = min(self._burst, tokens + (now - then) * self._per_second)
        allowed = tokens >= 1.0
        self._buckets[user_id] = (tokens - 1.0 if allowed else tokens, now)
        if len(self._buckets) > self._capacity:
            self._buckets.popitem(last=False)  # the account idle longest
        return allowed


class Limiter:
    """The server's rate limits and quotas, and the slots for password hashing."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        storage = (
            storage_from_string(settings.redis_url) if settings.redis_url else SweptMemoryStorage()
        )
        self._windows = MovingWindowRateLimiter(storage)
        # Keys live under the deployment's channel name: deployments that share a Redis
        # keep their own counts.
        self._namespace = settings.redis_channel
        self._items: dict[str, RateLimitItem] = {}
        # argon2 takes 19 MiB and ~25 ms per hash; this bounds how many run at once.
        # Requests waiting for a slot wait in the event loop and hold no thread.
        self.password_slots = anyio.CapacityLimiter(settings.password_hashing_slots)
        self._moves = MoveRate(settings.moves_per_second, settings.move_burst)

    def _item(self, window: Window) -> RateLimitItem:
        if window not in self._items:
            self._items[window] = parse(getattr(self.settings, window))
        return self._items[window]

    def _refusal(self, window: Window, key: str, message: str) -> TooMany:
        item = self._item(window)
        reset = self._windows.get_window_stats(item, self._namespace, window, key).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        return TooMany(
            _("{problem}; try again in {wait}", problem=_(message), wait=_in_words(wait)),
            retry_after=wait,
        )

    def check(self, window: Window, key: str, message: str) -> None:
        """TooMany(``message``) if ``key`` has used up ``window``; counts nothing."""
        if not self._windows.test(self._item(window), self._namespace, window, key):
            raise self._refusal(window, key, message)

    def hit(self, window: Window, key: str, message: str, cost: int = 1) -> None:
        """Count ``cost`` uses by ``key``, or TooMany(``message``) if they would exceed it."""
        item = self._item(window)
        if cost and not self._windows.hit(item, self._namespace, window, key, cost=cost):
            raise self._refusal(window, key, message)

    def count(self, window: Window, key: str) -> None:
        """Count one use by ``key`` even past the limit (a failure that has happened)."""
        self._windows.hit(self._item(window), self._namespace, window, key)

    def count_move(self, user_id: int) -> None:
        """Count a move by ``user_id`` (on any of its sockets or by POST), or TooMany."""
        if not self._moves.take(user_id):
            raise TooMany(_("you are making moves too fast; slow down"), retry_after=1)

    async def hashing(self, work: Callable[[], T]) -> T:
        """Run ``work`` (which hashes a password) in a thread once a hashing slot is free."""
        return await anyio.to_thread.run_sync(work, limiter=self.password_slots)


def client_address(request: HTTPConnection) -> str:
    """The client's address. Behind a proxy, uvicorn takes it from X-Forwarded-For when the
    proxy's address is in FORWARDED_ALLOW_IPS (127.0.0.1 by default)."""
    return request.client.host if request.client else "unknown"


def install(app: FastAPI) -> None:
    """Give ``app`` the 429 answer with ``Retry-After``."""

    async def _too_many(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, TooMany)
        headers = {"Retry-After": str(error.retry_after)} if error.retry_after else None
        return JSONResponse(
            {"detail": as_sentence(error.message)}, status_code=429, headers=headers
        )

    app.add_exception_handler(TooMany, _too_many)


# -- what an account holds at once -----------------------------------------------------------


def _unfinished_games(db: Session, user: User, *, with_bots: bool = False) -> int:
    query = (
        select(func.count(func.distinct(Game.id)))
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.user_id == user.id, Game.status.in_((GameStatus.WAITING, GameStatus.ACTIVE)))
    )
    if with_bots:
        bot_seat = aliased(Seat)
        query = query.where(
            exists().where(bot_seat.game_id == Game.id, bot_seat.bot_name.is_not(None))
        )
    return int(db.scalar(query) or 0)


def check_unfinished(db: Session, settings: Settings, user: User, *, with_bots: bool) -> None:
    """TooMany if ``user`` holds as many unfinished games as allowed (of those with bots too,
    if the new game has bots): before taking a seat in another."""
    most = settings.open_games_per_account
    if _unfinished_games(db, user) >= most:
        raise TooMany(
            _(
                "one account may play at most {most} unfinished games at once: "
                "finish or cancel one first",
                most=most,
            )
        )
    most = settings.bot_games_per_account
    if with_bots and _unfinished_games(db, user, with_bots=True) >= most:
        raise TooMany(
            _(
                "one account may play at most {most} unfinished games with bots at once: "
                "finish or cancel one first",
                most=most,
            )
        )


def has_room(db: Session, settings: Settings, user: User, *, with_bots: bool) -> bool:
    """Whether ``user`` may take a seat in one more unfinished game (``check_unfinished``)."""
    try:
        check_unfinished(db, settings, user, with_bots=with_bots)
    except TooMany:
        return False
    return True


def count_new_game(limiter: Limiter, user: User, invitations: int = 0) -> None:
    """Count a game ``user`` creates (and its invitations), or TooMany if the window is full."""
    account = str(user.id)
    limiter.hit("games_per_account", account, N_("you have created too many games lately"))
    limiter.hit(
        "invitations_per_account",
        account,
        N_("you have sent too many invitations lately"),
        invitations,
    )


def _seat_kinds(body: Any) -> list[str]:
    """The seat kinds a new-game body asks for ("me", "open", "invite", "bot")."""
    seats = body.get("seats") if isinstance(body, dict) else None
    if not isinstance(seats, list):
        return []  # the body's own validation will refuse it
    return [str(seat.get("kind")) for seat in seats if isinstance(seat, dict)]


def _check_new_game(
    limiter: Limiter, sessions: sessionmaker[Session], user: User, kinds: list[str]
) -> None:
    with sessions() as db:
        check_unfinished(db, limiter.settings, user, with_bots="bot" in kinds)
    count_new_game(limiter, user, kinds.count("invite"))


async def new_game_allowed(request: Request, user: CurrentUser) -> None:
    """Dependency for creating a game: the open-game and bot-game quotas, and games and
    invitations per time window."""
    try:
        body = await request.json()  # already read and parsed by FastAPI: no second read
    except ValueError:
        body = None  # no body: the route's validation says what is missing
    kinds = _seat_kinds(body)
    await run_in_threadpool(
        _check_new_game, services(request).limiter, services(request).sessions, user, kinds
    )


def _check_join(limiter: Limiter, sessions: sessionmaker[Session], user: User) -> None:
    with sessions() as db:
        check_unfinished(db, limiter.settings, user, with_bots=False)


async def join_allowed(request: Request, user: CurrentUser) -> None:
    """Dependency for taking a seat: the open-game quota."""
    await run_in_threadpool(
        _check_join, services(request).limiter, services(request).sessions, user
    )
