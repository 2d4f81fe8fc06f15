"""Time running out, found by the server itself, without any request.

Each game held in memory has a timer (asyncio) for its ``clock_due`` (``clocks.py``), set
again whenever the game changes or is read; and a sweep at startup and every
``clock_check_seconds`` finds the games due in the database (one nobody opened since a
restart), so a clock runs out even if no process holds its game.

What happens is the game's rule (``GameModule.timeout_rule``): a live two-player game is
lost at once (``LOSS``); a run-out seat's opponents may claim the win (``CLAIM``, POST
/api/games/{id}/claim-timeout, ``timeouts_api.py``; nothing happens by itself); or the
absent seat's decision is made for it (``STAND_IN``: a bot's, or the game's own action,
e.g. an empty plan). Everything goes through the game's writer and its version-guarded
write, so of several server processes whose timers fire for one game exactly one acts; the
others find the game moved on and do nothing. A player's vacation moved their deadline
(``clocks.time_control.pause``): nothing runs out, and no stand-in acts, before it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from roses.games import Outcome
from roses.games.base import StandIn, TimeoutRule

from ..clocks.time_control import clock_due, run_out, server_time
from ..db.models import Game, GameStatus, as_utc
from ..db.store import offered
from ..errors import Conflict, ServiceError
from ..play.live_games import LiveGame, LiveGames, lost_on_time
from ..services import Services
from .bot_runner import BotRunner
from .periodic import repeated

log = logging.getLogger("roses.server.workers.timeouts")


class Timeouts:
    def __init__(
        self,
        games: LiveGames,
        bots: BotRunner,
        sessions: sessionmaker[Session],
        check_seconds: float,
    ) -> None:
        self._games = games
        self._bots = bots
        self._sessions = sessions
        self._check_seconds = check_seconds
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._running: set[asyncio.Task[None]] = set()

    def arm(self, live: LiveGame) -> None:
        """Set ``live``'s timer for when its clocks next need the server (or clear it)."""
        timer = self._timers.pop(live.id, None)
        if timer is not None:
            timer.cancel()
        due = (
            clock_due(live.timeout_rule, live.clocks) if live.status == GameStatus.ACTIVE else None
        )
        if due is None:
            return
        delay = max(0.0, (due - server_time()).total_seconds())
        loop = asyncio.get_running_loop()
        self._timers[live.id] = loop.call_later(delay, self._fire, live.id)

    def _fire(self, game_id: int) -> None:
        self._timers.pop(game_id, None)
        task = asyncio.get_running_loop().create_task(self.handle(game_id))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def handle(self, game_id: int) -> None:
        """Act on the clocks of ``game_id`` that ran out by now, by the game's rule (with
        owners: in the game's owner, or here if nobody owns it any more)."""
        try:
            if not await self._games.own(game_id, take_over=False):
                return
            live = await self._games.get(game_id)
            late = (
                []
                if live.status != GameStatus.ACTIVE or not live.clocks
                else run_out(live.clocks, server_time())
            )
            if not late:
                return
            if live.timeout_rule is TimeoutRule.LOSS:
                await self._games.finish(game_id, _lost_on_time)
            elif live.timeout_rule is TimeoutRule.STAND_IN:
                version = live.version
                for clock in late:
                    if clock.seat in live.to_act:
                        await self._stand_in(live, clock.seat, version)
        except ServiceError as error:  # moved on meanwhile (a move, another process)
            log.info("time out in game %s not acted on: %s", game_id, error.message)
        except Exception:
            log.exception("time out in game %s failed", game_id)

    async def _stand_in(self, live: LiveGame, seat: int, version: int) -> None:
        stand_in: StandIn = live.module.stand_in(live.state, seat)
        action = stand_in.action
        if stand_in.bot is not None:
            action = await self._bots.decide(live, seat, stand_in.bot)
        log.info("game %s: %s's time ran out; a stand-in acts", live.id, live.seats[seat].label)
        await self._games.act_parsed(live.id, lambda _: seat, action, version)

    async def sweep(self) -> None:
        """Act on every game due now; arm the timers of those due before the next sweep."""
        now = server_time()
        horizon = now + timedelta(seconds=self._check_seconds)
        for game_id, due in await asyncio.to_thread(self._due_games, horizon):
            if due <= now:
                await self.handle(game_id)
            else:
                with contextlib.suppress(ServiceError):
                    self.arm(await self._games.get(game_id))

    def _due_games(self, horizon: datetime) -> list[tuple[int, datetime]]:
        with self._sessions() as db:
            query = select(Game.id, Game.clock_due).where(
                Game.status == GameStatus.ACTIVE, Game.clock_due <= horizon, offered()
            )
            return [(row.id, as_utc(row.clock_due)) for row in db.execute(query)]

    async def stop(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in list(self._running):
            task.cancel()
        await asyncio.gather(*self._running, return_exceptions=True)


def _lost_on_time(live: LiveGame) -> Outcome:
    """The seat whose flag fell first loses (checked again under the game's lock)."""
    late = run_out(live.clocks or [], server_time())
    if not late:
        raise Conflict("no clock has run out")
    return lost_on_time(live, late[0].seat)


@asynccontextmanager
async def checks(app: Services) -> AsyncIterator[None]:
    """The sweep at startup and then periodically, for as long as the server runs."""
    timeouts: Timeouts = app.timeouts
    seconds = lambda: app.settings.clock_check_seconds  # noqa: E731
    try:
        async with repeated(timeouts.sweep, seconds, "looking for clocks run out"):
            yield
    finally:
        await timeouts.stop()
