"""Bots move on the server: each decision searched in a bot process (``BotPool``), within a
hard time bound, from the seat's view only.

Whenever a game changes, every bot seat the game now waits for gets a task (at most one per
seat). A bot that overruns its bound, fails or names an illegal action is replaced for that
decision by a random legal one, so a game never stalls. Once a game is over (finished,
resigned, called off) its bots' searches stop at once: their workers are free for others.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import secrets
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from roses.games import GameError, bot_player

from ..db.models import Game, GameStatus, Seat
from ..db.store import offered
from ..errors import ServiceError
from ..play.live_games import LiveGame, LiveGames
from ..settings import Settings
from .bot_pool import BotFailed, BotJob, BotPool

log = logging.getLogger("roses.server.bots")


class BotRunner:
    def __init__(self, games: LiveGames, settings: Settings) -> None:
        self._games = games
        self._settings = settings
        self._pool = BotPool(settings.bot_workers)
        self._tasks: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._searching: set[asyncio.Task[None]] = set()  # tasks waiting for their search
        self._adopting: dict[int, asyncio.Task[None]] = {}  # games this process may take

    def poke(self, live: LiveGame) -> None:
        """Start the bots ``live`` waits for (call under its lock: the views are consistent);
        with owners, only in the game's owner (a game nobody owns is taken first)."""
        if live.status != GameStatus.ACTIVE:
            return
        if not self._games.owners.owns(live.id):
            if live.id not in self._adopting and any(live.seats[s].bot for s in live.to_act):
                task = asyncio.get_running_loop().create_task(self._adopt(live.id))
                self._adopting[live.id] = task
                task.add_done_callback(functools.partial(self._adopted, live.id))
            return
        for seat in live.to_act:
            info = live.seats[seat]
            if info.bot is None or (live.id, seat) in self._tasks:
                continue
            seconds = self._settings.bot_seconds.get(info.strength or "", 0.0)
            job = BotJob(
                game=live.module.name,
                bot=info.bot,
                bot_input=bot_player(live.module).bot_input(live.state, seat),
                seconds=seconds,
                seed=secrets.randbits(63),
            )
            task = asyncio.get_running_loop().create_task(self._move(live, seat, job))
            key = (live.id, seat)
            self._tasks[key] = task
            self._searching.add(task)
            # Also when cancelled before it ever ran (and so before its own clean-up).
            task.add_done_callback(functools.partial(self._forget, key))

    def _adopted(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._adopting.get(game_id) is task:
            del self._adopting[game_id]

    async def _adopt(self, game_id: int) -> None:
        """Take a game whose bots nobody runs (its owner gone, or none yet), then poke."""
        try:
            if not await self._games.own(game_id, take_over=False):
                return  # another process runs them
            live = await self._games.locked(game_id)
        except ServiceError:
            return
        try:
            self.poke(live)
        finally:
            live.lock.release()

    def game_over(self, game_id: int) -> None:
        """Stop the searches for ``game_id`` (over, in this process or another): cancelling
        a search kills its worker, so that its time goes to other games at once."""
        for (game, _seat), task in self._tasks.items():
            if game == game_id and task in self._searching:
                task.cancel()

    def _forget(self, key: tuple[int, int], task: asyncio.Task[None]) -> None:
        self._searching.discard(task)
        if self._tasks.get(key) is task:
            del self._tasks[key]

    async def _move(self, live: LiveGame, seat: int, job: BotJob) -> None:
        version = live.version
        task = asyncio.current_task()
        assert task is not None
        try:
            action = await self._choose(live, job)
            self._searching.discard(task)  # from here on it writes a move: never cancelled
            try:
                await self._games.act_parsed(live.id, lambda _: seat, action, version)
            except ServiceError as error:  # a person acted meanwhile (e.g. ended the game)
                log.info("bot move in game %s not applied: %s", live.id, error.message)
        finally:  # at once: a change after this starts a new task
            self._forget((live.id, seat), task)
        current = self._games.cached(live.id)
        if current is not None and current.version != version:
            async with current.lock:  # the game moved on while the bot thought: look again
                if not current.stale:
                    self.poke(current)

    async def decide(self, live: LiveGame, seat: int, bot: str) -> Any:
        """``bot``'s decision for ``seat`` from its view now, at the quickest strength's
        time, parsed: a stand-in for an absent player (``timeouts.py``)."""
        job = BotJob(
            game=live.module.name,
            bot=bot,
            bot_input=bot_player(live.module).bot_input(live.state, seat),
            seconds=min(self._settings.bot_seconds.values(), default=0.2),
            seed=secrets.randbits(63),
        )
        return await self._choose(live, job)

    async def _choose(self, live: LiveGame, job: BotJob) -> Any:
        """The bot's action parsed (once: ``act_parsed`` takes it as it is), or a random
        legal one if it failed."""
        limit = job.seconds + self._settings.bot_margin_seconds
        try:
            action = await self._pool.run(job, limit)
            return live.module.parse_action(action)
        except TimeoutError:
            log.warning("bot %s overran %.1fs in game %s", job.bot, limit, live.id)
        except BotFailed as error:  # e.g. a bot since taken out of the registry
            log.warning("bot %s failed in game %s: %s", job.bot, live.id, error)
        except GameError as error:
            log.warning("bot %s answered nonsense in game %s: %s", job.bot, live.id, error.message)
        return bot_player(live.module).fallback_action(job.bot_input, random.Random(job.seed))

    async def resume_all(self, sessions: sessionmaker[Session]) -> None:
        """After a restart: read the games where a bot may be to move (reading a game starts
        the bots it waits for)."""
        for game_id in await asyncio.to_thread(_games_with_bots, sessions):
            with contextlib.suppress(ServiceError):  # gone meanwhile
                await self._games.get(game_id)

    async def stop(self) -> None:
        tasks = list(self._tasks.values()) + list(self._adopting.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._pool.close()


def _games_with_bots(sessions: sessionmaker[Session]) -> list[int]:
    with sessions() as db:
        query = select(Game.id).where(
            Game.status == GameStatus.ACTIVE,
            Game.id.in_(select(Seat.game_id).where(Seat.bot_name.is_not(None))),
            offered(),
        )
        return list(db.scalars(query))
