"""Bot searches in worker processes: outside the web process's GIL, at a lower priority,
and with a hard time limit — a search that overruns has its process killed and replaced.

Each job is one bot decision: the game's name, the bot, the seat's view (``bot_input``),
the thinking time and a seed. Workers start when first needed and live on, so a search
library compiles once per worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection
from typing import Any

from roses.games import JSON, bot_player, game_module
from roses.games.base import PositionAnalysable, analysable, position_analysable

log = logging.getLogger("roses.server.bots")
PREPARATION_SECONDS = 120.0  # a worker's first job for a bot may compile its search first
ANALYSIS = "analysis"  # what a worker prepares for an AnalysisJob
PR_SET_PDEATHSIG = 1  # Linux prctl(2): the signal a process gets when its parent dies


@dataclass(frozen=True)
class BotJob:
    game: str
    bot: str
    bot_input: Any
    seconds: float
    seed: int


@dataclass(frozen=True)
class AnalysisJob:
    """One decision of a game analysed, or a position a player set up
    (``roses.games.base.Analysable``)."""

    game: str
    analysis_input: Any
    seconds: float
    position: bool = False  # analysis_input is a position_input, not a decision


class BotFailed(Exception):
    """The bot raised: its message, as the worker reported it."""


def _leave_the_server(keep: int) -> None:
    """A forked worker lets go of everything it inherited from the web process (its
    listening socket, its database files, the parent's end of every pipe), so that a server
    that dies, even by kill -9, leaves no worker holding its port; and it dies with it."""
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd > 2 and fd != keep:
            with contextlib.suppress(OSError):
                os.close(fd)
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() == 1:  # the server died before the line above took effect
        os._exit(0)


def _ready(
    connection: Connection,
    prepared: set[tuple[str, str]],
    task: tuple[str, str],
    prepare: Callable[[], None],
) -> None:
    """Prepare ``task`` once per worker (e.g. compile a search), then say the job's time
    starts now."""
    if task not in prepared:
        prepare()
        prepared.add(task)
    connection.send(("ready", None))


def _work(connection: Connection, niceness: int) -> None:
    """A worker process: one job at a time (a bot's move or a decision analysed), each
    answered with ("ok", action or analysis) or ("error", text)."""
    _leave_the_server(keep=connection.fileno())
    with contextlib.suppress(OSError):
        os.nice(niceness)  # people's requests in the web process come first
    prepared: set[tuple[str, str]] = set()
    while True:
        try:
            job: BotJob | AnalysisJob = connection.recv()
        except EOFError:  # the server is gone
            return
        try:
            module = game_module(job.game)
            if isinstance(job, AnalysisJob):
                analyses = position_analysable(module) if job.position else analysable(module)
                if analyses is None:
                    raise BotFailed(f"{job.game} has no such analysis")
                _ready(connection, prepared, (job.game, ANALYSIS), analyses.prepare_analysis)
                if isinstance(analyses, PositionAnalysable) and job.position:
                    answer = analyses.analyse_position(job.analysis_input, job.seconds)
                else:
                    answer = analyses.analyse(job.analysis_input, job.seconds)
            else:
                bots = bot_player(module)
                _ready(
                    connection, prepared, (job.game, job.bot), partial(bots.prepare_bot, job.bot)
                )
                answer = bots.bot_action(job.bot, job.bot_input, job.seconds, job.seed)
            connection.send(("ok", answer))
        except Exception as error:  # reported to the server, which stands in a random action
            connection.send(("error", f"{type(error).__name__}: {error}"))


class _Worker:
    def __init__(self, context: Any, niceness: int) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_work, args=(child, niceness), daemon=True)
        self.process.start()
        child.close()

    def kill(self) -> None:
        self.process.kill()
        self.process.join(1)
        self.connection.close()


class BotPool:
    def __init__(self, workers: int, niceness: int = 10) -> None:
        # fork: a worker starts in milliseconds with every game and bot already imported.
        self._context = multiprocessing.get_context("fork")
        self._size = max(1, workers)
        self._niceness = niceness
        self._idle: list[_Worker] = []
        self._free = asyncio.Semaphore(self._size)

    async def run(self, job: BotJob | AnalysisJob, limit: float) -> JSON:
        """The bot's action; ``TimeoutError`` (its worker killed) if it takes more than
        ``limit`` seconds, ``BotFailed`` if it raised. Neither waiting for a free worker nor
        a worker's one-off preparation of that bot (``prepare_bot``) counts."""
        async with self._free:
            worker = self._idle.pop() if self._idle else _Worker(self._context, self._niceness)
            try:
                worker.connection.send(job)
                answer = await asyncio.wait_for(self._answer(worker), PREPARATION_SECONDS)
                if answer[0] == "ready":
                    answer = await asyncio.wait_for(self._answer(worker), limit)
            except BaseException:
                worker.kill()
                raise
            self._idle.append(worker)
        kind, value = answer
        if kind == "error":
            raise BotFailed(value)
        return value

    async def _answer(self, worker: _Worker) -> tuple[str, JSON]:
        """The worker's next message, waited for without holding up the event loop."""
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        fd = worker.connection.fileno()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        if not worker.connection.poll():
            loop.add_reader(fd, readable)
            try:
                await ready
            finally:
                loop.remove_reader(fd)
        answer: tuple[str, JSON] = worker.connection.recv()
        return answer

    def close(self) -> None:
        for worker in self._idle:
            worker.kill()
        self._idle.clear()
