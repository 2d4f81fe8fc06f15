"""Presence, as friends see it: online (a page of the site open), playing (a game of theirs
in progress open: its number and title, which anyone may watch, and nothing of its state),
away (their last page closed within ``AWAY_SECONDS``) or offline.

Read from the sockets (``Hub``) and the games' seats. With several server processes each
tells the others through the relay when an account's sockets there change (``PRESENCE``
news), so that every process answers the same; a process that starts greets the others
(``GREETING``), who answer with all their presence at once (``PRESENCE_ALL``). The owner of
a game sends its moves by the same knowledge only to the processes that need them
(``Hub.processes_for``). Friends' open pages hear ``{"type": "presence"}`` on their lobby
socket and read the list again.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from roses.games import GAMES

from ..db.models import Game, GameStatus, Seat
from ..i18n import _
from ..services import Services
from .relations import friend_ids

AWAY_SECONDS = 10 * 60
PRESENCE = "presence"  # the relay's news of an account's sockets in one process
GREETING = "presence-greeting"  # a process has started: tell it all your presence
PRESENCE_ALL = "presence-all"  # one process's whole presence: {user: [games watched]}
Status = Literal["online", "playing", "away", "offline"]


def playing(db: Session, user_id: int, watched: set[int]) -> list[dict[str, Any]]:
    """Of the games ``user_id`` has open, those in progress where they have a seat: each
    game's number and title, the public envelope of a page anyone may watch."""
    if not watched:
        return []
    query = (
        select(Game.id, Game.game)
        .join(Seat, Seat.game_id == Game.id)
        .where(Game.id.in_(watched), Seat.user_id == user_id, Game.status == GameStatus.ACTIVE)
        .where(Game.game.in_(sorted(GAMES)))
        .distinct()
        .order_by(Game.id)
    )
    return [{"id": i, "title": _(GAMES[name].title)} for i, name in db.execute(query)]


def presence(app: Services, db: Session, user_ids: list[int]) -> dict[int, dict[str, Any]]:
    """Each account's presence: ``{"status": ..., "games": [{"id", "title"}]}``."""
    found: dict[int, dict[str, Any]] = {}
    for user_id in user_ids:
        status: Status = "offline"
        games: list[dict[str, Any]] = []
        if app.hub.online(user_id):
            games = playing(db, user_id, app.hub.games_watched(user_id))
            status = "playing" if games else "online"
        elif time.time() - (app.hub.left_at(user_id) or 0.0) < AWAY_SECONDS:
            status = "away"
        found[user_id] = {"status": status, "games": games}
    return found


async def tell_friends(app: Services, user_id: int) -> None:
    """``user_id``'s friends' open pages in this process: read the presence again. A
    process where no page is open has nobody to tell (and reads nothing)."""
    if not app.hub.lobbies_open():
        return

    def read() -> set[int]:
        with app.sessions() as db:
            return friend_ids(db, user_id)

    app.hub.notify_lobbies(await asyncio.to_thread(read), {"type": "presence"})


def greet(app: Services) -> None:
    """This process has just started: ask the others for their presence."""
    if app.relay is not None:
        app.relay.publish_account({GREETING: app.relay.origin})


async def heard(app: Services, news: dict[str, Any]) -> None:
    """News of an account's sockets in another process (``relay.on_account``)."""
    if GREETING in news and app.relay is not None:
        accounts = {str(user): games for user, games in app.hub.accounts_here().items()}
        everything = {"process": app.relay.origin, "accounts": accounts, "at": time.time()}
        app.relay.publish_account({PRESENCE_ALL: everything})
    if PRESENCE_ALL in news:
        told = news[PRESENCE_ALL]
        for user, games in told["accounts"].items():
            app.hub.heard_presence(told["process"], int(user), True, games, float(told["at"]))
    if PRESENCE in news:
        told = news[PRESENCE]
        user_id = int(told["user"])
        process, online, at = str(told["process"]), bool(told["online"]), float(told["at"])
        app.hub.heard_presence(process, user_id, online, [int(g) for g in told["games"]], at)
        await tell_friends(app, user_id)


class Presence:
    """Hears the hub's changes of presence in this process (``Hub.presence_listeners``):
    tells the other processes, and the friends."""

    def __init__(self, app: Services) -> None:
        self.app = app
        # The relay's name for this process: the one its messages reach it by.
        self.process = app.relay.origin if app.relay is not None else uuid.uuid4().hex
        self._tasks: set[asyncio.Task[None]] = set()

    def changed(self, user_id: int) -> None:
        online, watched = self.app.hub.here(user_id)
        if self.app.relay is not None:
            news = {"user": user_id, "online": online, "games": sorted(watched)}
            self.app.relay.publish_account(
                {PRESENCE: {**news, "process": self.process, "at": time.time()}}
            )
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop: nobody is listening
            return
        task = loop.create_task(tell_friends(self.app, user_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
