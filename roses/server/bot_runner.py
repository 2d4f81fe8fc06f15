"""Bots move on the server: off the event loop, within a time bound, from the registry.

A bot sees only its seat's ``PlayerView``. A bot that overruns its bound (or fails) is
replaced for that move by a uniformly random legal move, so a game never stalls.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from roses.bots.roseking import make_bot
from roses.roseking import Move
from roses.roseking.view import PlayerView

from . import games
from .errors import ServiceError
from .models import Game
from .settings import Settings

log = logging.getLogger("roses.server.bots")


@dataclass(frozen=True)
class BotTurn:
    game_id: int
    version: int
    seat: int
    bot_name: str
    strength: str
    view: PlayerView


def next_bot_turn(db: Session, game_id: int) -> BotTurn | None:
    """The bot's turn waiting in this game, if a bot is to move."""
    game = db.get(Game, game_id)
    if game is None or game.status != games.ACTIVE or game.turn_seat is None:
        return None
    seat = game.seats[game.turn_seat]
    if seat.bot_name is None:
        return None
    loaded = games.load(db, game_id)
    return BotTurn(
        game_id=game_id,
        version=game.version,
        seat=seat.seat,
        bot_name=seat.bot_name,
        strength=seat.bot_strength or "normal",
        view=loaded.board.view(seat.seat),
    )


class BotRunner:
    def __init__(
        self,
        sessions: sessionmaker[Session],
        settings: Settings,
        on_move: Callable[[int], Awaitable[None]],
    ) -> None:
        self._sessions = sessions
        self._settings = settings
        self._on_move = on_move  # announces a bot's move (WebSockets)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._poked: set[int] = set()

    def poke(self, game_id: int) -> None:
        """Let the bots of ``game_id`` move if it is their turn (at most one driver per game)."""
        self._poked.add(game_id)
        if game_id not in self._tasks:
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._drive(game_id))

    async def resume_all(self) -> None:
        """After a restart: the games where a bot was to move."""
        with self._sessions() as db:
            ids = list(db.scalars(select(Game.id).where(Game.status == games.ACTIVE)))
        for game_id in ids:
            self.poke(game_id)

    async def stop(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _drive(self, game_id: int) -> None:
        try:
            while True:
                # A poke while the state is being read may mean a newer state: read again.
                self._poked.discard(game_id)
                turn = await asyncio.to_thread(self._next_turn, game_id)
                if turn is None:
                    if game_id in self._poked:
                        continue
                    return
                move = await self._choose(turn)
                try:
                    await asyncio.to_thread(self._apply, turn, move)
                except ServiceError as error:  # a person acted meanwhile (e.g. ended the game)
                    log.info("bot move in game %s not applied: %s", game_id, error.message)
                    continue
                await self._on_move(game_id)
        finally:  # at once, not in a done-callback: a poke after this starts a new driver
            self._tasks.pop(game_id, None)

    def _next_turn(self, game_id: int) -> BotTurn | None:
        with self._sessions() as db:
            return next_bot_turn(db, game_id)

    def _apply(self, turn: BotTurn, move: Move) -> None:
        with self._sessions.begin() as db:
            games.play_for_bot(db, turn.game_id, turn.seat, move, turn.version)

    async def _choose(self, turn: BotTurn) -> Move:
        seconds = self._settings.bot_seconds.get(turn.strength, 1.0)
        bound = seconds + self._settings.bot_margin_seconds
        try:  # a bot since taken out of the registry fails here, and is stood in for too
            bot = make_bot(turn.bot_name, time_limit=seconds)
            move = await asyncio.wait_for(asyncio.to_thread(bot.choose, turn.view), bound)
        except TimeoutError:
            log.warning("bot %s overran %.1fs in game %s", turn.bot_name, bound, turn.game_id)
        except Exception:
            log.exception("bot %s failed in game %s", turn.bot_name, turn.game_id)
        else:
            if move in turn.view.legal_moves:
                return move
            log.warning("bot %s chose the illegal move %s", turn.bot_name, move)
        return random.choice(turn.view.legal_moves)
