"""The server runs tournaments by itself: at its start time a tournament's first round
starts, each game's result goes into the log, and once a round's games are all over the
next round starts (an arena pairs its free players as they come, until its end).

Every process runs this job (``app.py``'s lifespan), every ``tournament_check_seconds``
and at once when a tournament game ends in it; each step is one transaction that first
claims the tournament (``store.claim``), so of several processes stepping one tournament at
once one does the work and the others find it done (``Conflict``, or a unique key:
a round starts once, a result is recorded once) and change nothing. A round's start is the
``RoundStarted`` event and its games together: a process killed before it commits leaves
nothing, after it leaves everything, and the next step anywhere goes on from there.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from ..db.models import Seat, as_utc
from ..errors import Conflict
from ..notify.reach import tell as reach_out
from ..play.hub import Hub
from ..services import Services
from ..workers.periodic import repeated
from . import games, journal
from .formats import FORMATS
from .log import PairingError, RoundStarted
from .store import Tournament, TournamentGame, TournamentStatus

log = logging.getLogger("roses.server.tournaments")


@dataclass
class Stepped:
    """What one step did: the games it started (to be announced once committed)."""

    started: list[int] = field(default_factory=list)


def due(db: Session, now: datetime) -> list[int]:
    """The tournaments a step may have work for: running ones, and open ones whose start
    time has come."""
    query = select(Tournament.id).where(
        or_(
            Tournament.status == TournamentStatus.RUNNING,
            (Tournament.status == TournamentStatus.OPEN) & (Tournament.starts_at <= now),
        )
    )
    return list(db.scalars(query.order_by(Tournament.id)))


def step(db: Session, tournament_id: int, now: datetime) -> Stepped:
    """Do what is due for one tournament, in the caller's transaction."""
    tournament = db.get(Tournament, tournament_id)
    if tournament is None:
        return Stepped()
    if tournament.status == TournamentStatus.OPEN:
        if as_utc(tournament.starts_at) > now:
            return Stepped()
        journal.lock(db, tournament)
        stepped = Stepped()
        if len(journal.state(db, tournament).active) < max(2, tournament.players_per_table):
            tournament.status = TournamentStatus.CANCELLED  # too few came
        else:
            tournament.status = TournamentStatus.RUNNING
            _advance(db, tournament, now, stepped)
        return stepped
    if tournament.status != TournamentStatus.RUNNING:
        return Stepped()
    results = games.unrecorded_results(db, tournament)
    if not results and tournament.format != "arena" and games.any_playing(db, tournament):
        return Stepped()  # the round goes on (the usual case: known without a replay)
    if not results and not _may_advance(db, tournament, now):
        return Stepped()  # nothing to do
    journal.lock(db, tournament)
    for link, game in results:
        games.record_result(db, tournament, link, game, now)
    stepped = Stepped()
    _advance(db, tournament, now, stepped)
    return stepped


def _may_advance(db: Session, tournament: Tournament, now: datetime) -> bool:
    """Whether a running tournament with no new result has something to do: its end, or
    (an arena) two free players to pair. A round-based one waits for its last game."""
    state = journal.state(db, tournament)
    format_ = FORMATS[tournament.format]
    if format_.finished(state, now.timestamp()):
        return True
    if format_.continuous:
        return len(set(state.active) - state.playing()) >= 2
    return state.round_over


def _advance(db: Session, tournament: Tournament, now: datetime, stepped: Stepped) -> None:
    """Start what comes next: the next round, an arena's pairs of free players, or the end."""
    state = journal.state(db, tournament)
    format_ = FORMATS[tournament.format]
    if format_.finished(state, now.timestamp()):
        tournament.status = TournamentStatus.FINISHED
        return
    if format_.continuous:
        busy = state.playing()
        waiting = [player for player in state.active if player not in busy]
        tables = format_.pair_waiting(state, waiting, now.timestamp())
        if tables:
            wave = RoundStarted(state.rounds_started + 1, tuple(tables), ())
            stepped.started = games.start_round(db, tournament, wave)
        return
    if not state.round_over:
        return
    try:
        round_started = format_.next_round(state)
    except PairingError:  # too few left to pair, or no pairing without a repeat
        tournament.status = TournamentStatus.FINISHED
        return
    stepped.started = games.start_round(db, tournament, round_started)


class Tournaments:
    """This process's side of the tournaments: the job that steps them (every
    ``tournament_check_seconds``, and at once when one of their games ends here), and the
    news of their changes to the lobby sockets: ``{"type": "tournament", "tournament_id",
    "version"}`` at once for a change made here, within a check for one made elsewhere
    (each process compares the versions it last told)."""

    def __init__(self, hub: Hub) -> None:
        self._hub = hub
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._told: dict[int, int] = {}  # tournament: the version the lobbies heard of

    def game_finished(self, db: Session, game_id: int) -> None:
        """The live games' finished hook (in a worker thread): a tournament's game ended."""
        if db.get(TournamentGame, game_id) is not None and self._loop is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    def tell(self, tournament_id: int, version: int) -> None:
        """Tell every lobby socket here that the tournament is at ``version`` now."""
        if self._told.get(tournament_id, -1) < version:
            self._told[tournament_id] = version
            message = {"type": "tournament", "tournament_id": tournament_id, "version": version}
            self._hub.notify_all_lobbies(message)

    async def step_all(self, app: Services) -> None:
        def find() -> list[int]:
            with app.sessions() as db:
                return due(db, app.now())

        for tournament_id in await asyncio.to_thread(find):
            stepped = await asyncio.to_thread(self._step, app, tournament_id)
            for game_id in stepped.started:
                await app.games.changed_elsewhere(game_id)
            if stepped.started:
                await self._announce_round(app, stepped.started)
        await self.look_for_changes(app)

    @staticmethod
    async def _announce_round(app: Services, started: list[int]) -> None:
        """Each person seated in a game just started hears "a tournament round starts" away
        from the site, if they opted in (once per round: its subject names the round)."""

        def read() -> list[tuple[int, int, int, int, str]]:
            with app.sessions() as db:
                query = (
                    select(
                        Seat.user_id,
                        Seat.game_id,
                        Tournament.id,
                        TournamentGame.round,
                        Tournament.name,
                    )
                    .join(TournamentGame, TournamentGame.game_id == Seat.game_id)
                    .join(Tournament, Tournament.id == TournamentGame.tournament_id)
                    .where(Seat.game_id.in_(started), Seat.user_id.is_not(None))
                )
                return [(r[0], r[1], r[2], r[3], r[4]) for r in db.execute(query) if r[0]]

        for user_id, game_id, tournament_id, round_, name in await asyncio.to_thread(read):
            facts = {"tournament": name, "round": round_, "path": f"/tournaments/{tournament_id}"}
            subject = f"tournament:{tournament_id}:round:{round_}"
            await reach_out(app.reach, user_id, "tournament", subject, facts, game_id)

    async def look_for_changes(self, app: Services) -> None:
        """Tell the lobbies of the changes made since (here or in another process)."""

        def read() -> list[tuple[int, int, str]]:
            with app.sessions() as db:
                query = select(Tournament.id, Tournament.version, Tournament.status).where(
                    or_(
                        Tournament.status.in_((TournamentStatus.OPEN, TournamentStatus.RUNNING)),
                        Tournament.id.in_(list(self._told)),
                    )
                )
                return [(row[0], row[1], row[2]) for row in db.execute(query)]

        for tournament_id, version, status in await asyncio.to_thread(read):
            self.tell(tournament_id, version)
            if status not in (TournamentStatus.OPEN, TournamentStatus.RUNNING):
                self._told.pop(tournament_id, None)  # over: nothing more will change

    @staticmethod
    def _step(app: Services, tournament_id: int) -> Stepped:
        try:
            with app.sessions.begin() as db:
                return step(db, tournament_id, app.now())
        except (Conflict, IntegrityError, OperationalError):
            # Another process stepped it at the same moment: its work stands, ours is undone.
            log.info("tournament %s was stepped elsewhere", tournament_id)
            return Stepped()

    def wake(self) -> None:
        """Step the tournaments now (e.g. an entrant came late: pair them)."""
        self._wake.set()

    @asynccontextmanager
    async def running(self, app: Services) -> AsyncIterator[None]:
        """The job, for as long as the server runs."""
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()  # bound to this loop (a test may run the app twice)
        seconds = app.settings.tournament_check_seconds
        job = functools.partial(self.step_all, app)
        async with repeated(job, lambda: seconds, "stepping the tournaments", self._wake):
            yield
