"""Game analyses run in worker processes, one decision per job, and kept in the database.

An analysis judges each decision of a game from what its seat knew then
(``roses.games.base.Analysable``). The searches run in their own ``BotPool`` (so that an
analysis never holds up a bot's move), each with a hard time limit; each decision's result
is written as soon as it is ready, so a page that polls sees the analysis grow, and a
second visit reads it all from the database.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from roses.games import JSON

from ..db.models import AnalysisRow
from ..i18n import N_
from ..settings import Settings
from .bot_pool import AnalysisJob, BotFailed, BotPool

log = logging.getLogger("roses.server.analysis")


def stored_results(sessions: sessionmaker[Session], game_id: int) -> dict[int, JSON]:
    """The decisions of ``game_id`` analysed so far, by number."""
    with sessions() as db:
        rows = db.scalars(select(AnalysisRow).where(AnalysisRow.game_id == game_id))
        return {row.number: row.result for row in rows}


def _store(
    sessions: sessionmaker[Session], game_id: int, number: int, result: JSON, seconds: float
) -> None:
    try:
        with sessions.begin() as db:
            db.add(AnalysisRow(game_id=game_id, number=number, result=result, seconds=seconds))
    except IntegrityError:
        pass  # another server process analysed it first: the same decision, kept once


class AnalysisRunner:
    """The analyses running in this process: at most one per game."""

    def __init__(self, sessions: sessionmaker[Session], settings: Settings) -> None:
        self._sessions = sessions
        self._seconds = settings.analysis_seconds
        self._position_seconds = settings.position_analysis_seconds
        self._margin = settings.bot_margin_seconds
        self._limit = settings.analysis_seconds + settings.bot_margin_seconds
        self._pool = BotPool(settings.analysis_workers)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        # Why the last analysis of a game stopped short (in English: translated when sent).
        self.problems: dict[int, str] = {}

    @property
    def seconds(self) -> float:
        return self._seconds

    @property
    def position_seconds(self) -> float:
        return self._position_seconds

    def running(self, game_id: int) -> bool:
        return game_id in self._tasks

    def start(self, game_id: int, game: str, inputs: list[Any], done: set[int]) -> None:
        """Analyse the decisions of ``inputs`` whose numbers are not in ``done``."""
        if game_id in self._tasks:
            return
        self.problems.pop(game_id, None)
        todo = [(number, item) for number, item in enumerate(inputs) if number not in done]
        task = asyncio.get_running_loop().create_task(self._run(game_id, game, todo))
        self._tasks[game_id] = task

    async def _run(self, game_id: int, game: str, todo: list[tuple[int, Any]]) -> None:
        try:
            for number, item in todo:
                job = AnalysisJob(game=game, analysis_input=item, seconds=self._seconds)
                result = await self._pool.run(job, self._limit)
                await asyncio.to_thread(
                    _store, self._sessions, game_id, number, result, self._seconds
                )
        except TimeoutError:
            log.warning("the analysis of game %s overran %.1fs", game_id, self._limit)
            self.problems[game_id] = N_("the analysis took too long and was stopped: try again")
        except BotFailed as error:
            log.warning("the analysis of game %s failed: %s", game_id, error)
            self.problems[game_id] = N_("the analysis failed: try again later")
        finally:
            del self._tasks[game_id]

    async def analyse_position(self, game: str, position_input: Any) -> JSON:
        """A position a player set up, analysed in a worker within the hard limit
        (``TimeoutError``, ``BotFailed``)."""
        seconds = self._position_seconds
        job = AnalysisJob(game=game, analysis_input=position_input, seconds=seconds, position=True)
        return await self._pool.run(job, seconds + self._margin)

    async def stop(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._pool.close()
