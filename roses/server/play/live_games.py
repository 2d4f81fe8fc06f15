"""Live games: each game's state held in memory by its one writer.

A game is read from the database and rebuilt once; after that every action on it goes
through its ``LiveGame``, one at a time (an asyncio lock), is applied in memory, written in
one transaction guarded by the version, and only then announced. What a seat sees is
built once per version, and only from committed versions: while an action waits for its
commit, readers wait for it too (``LiveGames.get``), so nobody sees a move that might
never happen. If the write fails (another process acted first), the cached state
is dropped and read again on the next request, so memory never runs ahead of the database.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.orm import Session, sessionmaker

from roses.games import (
    JSON,
    Forfeit,
    GameError,
    GameModule,
    IllegalAction,
    InvalidInput,
    Outcome,
    Playthrough,
    game_module,
)
from roses.games.base import TimeoutRule, draft_preview

from ..clocks import time_control
from ..db import store
from ..db.models import Game, GameStatus, SeatClock, utcnow
from ..db.store import Change, StoredGame
from ..errors import Conflict, Forbidden, NotFound, ServiceError, Unprocessable
from ..i18n import _, game_error
from .commits import CommitQueue
from .owners import EveryGame, Owners

log = logging.getLogger("roses.server.games")


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    label: str
    user_id: int | None
    player: str | None
    invited_id: int | None
    invited: str | None
    bot: str | None
    strength: str | None
    bot_account: bool  # its player is a program playing through the API


def seat_infos(game: Game, labels: list[str]) -> list[SeatInfo]:
    return [
        SeatInfo(
            seat=seat.seat,
            label=labels[seat.seat],
            user_id=seat.user_id,
            player=seat.user.name if seat.user else None,
            invited_id=seat.invited_user_id,
            invited=seat.invited_user.name if seat.invited_user else None,
            bot=seat.bot_name,
            strength=seat.bot_strength,
            bot_account=bool((account := seat.user or seat.invited_user) and account.is_bot),
        )
        for seat in game.seats
    ]


def result_json(outcome: Outcome) -> dict[str, JSON]:
    """How a finished game's result is stored and sent: the game's summary and the ranks."""
    return {**outcome.summary, "ranks": list(outcome.ranks)}


class GameHeader:
    """What lists of games and the envelope of every view need: no state."""

    def __init__(self, game: Game) -> None:
        try:
            module = game_module(game.game)
        except InvalidInput:  # its plug-in was taken out: the game is kept, not served
            raise NotFound(
                _("game {id} is of a game this server no longer offers", id=game.id)
            ) from None
        self.id = game.id
        self.module: GameModule[Any, Any] = module
        self.players = game.players
        self.options = dict(game.options)
        self.status = game.status
        self.version = game.version
        self.created_by = game.created_by
        self.turn_since = game.turn_since
        self.result = game.result
        self.seats = seat_infos(game, module.seat_labels(game.players, game.options))
        self._seat_of: dict[int, int] = {}  # each player's first seat: asked on every view
        for info in reversed(self.seats):
            if info.user_id is not None:
                self._seat_of[info.user_id] = info.seat
        self.to_act: tuple[int, ...] = (
            tuple(game.to_act) if game.status == GameStatus.ACTIVE else ()
        )
        self.drafts: dict[int, JSON] = {}
        self.rated = game.rated
        self.bot_accounts = game.bot_accounts
        self.time_control = time_control.TimeControl.from_json(game.time_control)
        self.timeout_rule = time_control.rule_of(self.module, self.players, self.time_control)
        self.clocks = time_control.seat_clocks(game)  # None: no time limit (or not started)

    def seat_of(self, user_id: int | None) -> int | None:
        return None if user_id is None else self._seat_of.get(user_id)


class LiveGame(GameHeader):
    def __init__(self, stored: StoredGame) -> None:
        super().__init__(stored.game)
        game = stored.game
        self.deal = game.deal
        self.state = self.module.restore(game.deal, game.players, game.options)
        self.history: list[tuple[int, Any]] = []  # every action so far, parsed
        # since[seat]: the first version on which this seat's pending decision was current;
        # a decision made on an older version is stale (a second tab, a late bot).
        self.since = [0] * game.players
        for row in stored.actions:
            self.since = self._replay(row.seat, row.action, row.version)
        self.actions = len(stored.actions)
        self.to_act = self.module.to_act(self.state) if self.status == GameStatus.ACTIVE else ()
        self.drafts = dict(stored.drafts)
        self.lock = asyncio.Lock()
        self.stale = False  # dropped from the cache: read the game again
        # Set while an action is applied in memory but not yet committed: readers wait.
        self.committing: asyncio.Event | None = None
        self._views: dict[int | None, dict[str, JSON]] = {}
        # The action that made the current version (None: read, or changed otherwise):
        # other server processes apply it instead of reading the game again.
        self.last_change: Change | None = None

    def _replay(self, seat: int, action: JSON, version: int) -> list[int]:
        before = set(self.module.to_act(self.state))
        self.make(seat, self.module.parse_action(action))
        since = list(self.since)
        since[seat] = version
        for other in self.module.to_act(self.state):
            if other not in before:
                since[other] = version
        return since

    def make(self, seat: int, action: Any) -> None:
        """``seat``'s parsed action made on the state and kept in the history."""
        self.module.apply(self.state, seat, action)
        self.history.append((seat, action))

    def played(self) -> Playthrough[Any, Any]:
        """The game so far, for its replay and record."""
        return Playthrough(self.players, self.options, self.deal, tuple(self.history), self.state)

    def module_view(self, seat: int | None) -> dict[str, JSON]:
        """What ``seat`` sees of the game itself, built once per version."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.module.view(self.state, seat)
        return view

    def people(self) -> set[int]:
        """The players and invited players (their lobbies list this game)."""
        ids = {s.user_id for s in self.seats} | {s.invited_id for s in self.seats}
        return {i for i in ids if i is not None}

    def check_running(self) -> None:
        """``Conflict`` unless the game is being played."""
        if self.status == GameStatus.WAITING:
            raise Conflict(_("the game has not started: a seat is still free"))
        if self.status == GameStatus.FINISHED:
            raise Conflict(_("the game is over"))
        if self.status == GameStatus.CANCELLED:
            raise Conflict(_("the game was cancelled"))

    def check_turn(self, seat: int, version: int) -> None:
        """``Conflict``/``Forbidden`` unless ``seat`` may act now on a decision from ``version``."""
        self.check_running()
        if version > self.version or version < self.since[seat]:
            raise Conflict(
                _(
                    "the game has moved on (version {now}, not {yours}); reload",
                    now=self.version,
                    yours=version,
                )
            )
        if not self.module.may_act(self.state, seat):
            waiting = _(" and ").join(_(self.seats[s].label) for s in self.to_act)
            raise Forbidden(
                _(
                    "it is {waiting}'s turn; you play {seat}",
                    waiting=waiting,
                    seat=_(self.seats[seat].label),
                )
            )

    def apply(self, seat: int, action: Any) -> Change:
        """Apply the parsed ``action`` in memory and describe the change to write;
        ``Conflict`` if illegal."""
        try:
            self.make(seat, action)
        except IllegalAction as error:
            raise Conflict(game_error(error)) from None
        to_act = self.module.to_act(self.state)
        outcome = self.module.outcome(self.state)
        result = None if outcome is None else result_json(outcome)
        changed, due = self._clocks_after(seat, to_act)
        return Change(
            game_id=self.id,
            based_on=self.version,
            number=self.actions,
            seat=seat,
            action=self.module.action_json(action),
            to_act=list(to_act),
            turn_since=utcnow() if set(to_act) != set(self.to_act) else self.turn_since,
            status=GameStatus.ACTIVE if outcome is None else GameStatus.FINISHED,
            result=result,
            clocks=changed,
            clock_due=due,
        )

    def _clocks_after(
        self, seat: int, to_act: tuple[int, ...]
    ) -> tuple[tuple[SeatClock, ...], datetime | None]:
        """The clocks that ``seat``'s action changes, and when the server must next act."""
        if self.time_control is None or self.clocks is None:
            return (), None
        after = time_control.after_action(
            self.time_control, self.clocks, seat, set(to_act), time_control.server_time()
        )
        changed = tuple(new for new, old in zip(after, self.clocks, strict=True) if new != old)
        return changed, time_control.clock_due(self.timeout_rule, after)

    def check_clock(self, seat: int) -> None:
        """``Conflict`` if ``seat``'s time ran out where that loses the game at once: the
        server ends the game (``timeouts.py``); a move a moment late does not count."""
        if self.timeout_rule is not TimeoutRule.LOSS or self.clocks is None:
            return
        if any(
            c.seat == seat for c in time_control.run_out(self.clocks, time_control.server_time())
        ):
            raise Conflict(_("your time has run out: the game is lost on time"))

    def stopped_clocks(self) -> tuple[SeatClock, ...]:
        """Every seat's clock stopped now (the game ends)."""
        if self.clocks is None:
            return ()
        return tuple(time_control.stopped(self.clocks, time_control.server_time()))

    def accept(self, change: Change) -> None:
        """The change is in the database: make it this game's current version."""
        before = set(self.to_act)
        self.version = change.based_on + 1
        self.actions += 1
        self.since[change.seat] = self.version
        self.to_act = tuple(change.to_act)
        for seat in self.to_act:
            if seat not in before:
                self.since[seat] = self.version
        self.turn_since = change.turn_since
        self.status = change.status
        if self.clocks is not None:
            for clock in change.clocks:
                self.clocks[clock.seat] = clock
        self.result = change.result
        self.last_change = change
        self.clear_views()

    def clear_views(self) -> None:
        """The game changed: every seat's view is built again."""
        self._views.clear()


class ChangeListener(Protocol):
    """Who hears of the live games' changes: told under the game's lock, in the order of
    versions."""

    def changed(self, live: LiveGame, *, relayed: bool) -> None:
        """A new version (``relayed``: another server process made it and told the others)."""

    def loaded(self, live: LiveGame) -> None:
        """Read afresh (a restart, another process gone): it may wait for a bot or a clock."""


class GameListener(ChangeListener, Protocol):
    """The live games' listener: it hears of changes, and answers for this process's sockets."""

    def watched(self, game_id: int) -> bool:
        """Whether this process has sockets open on the game."""

    def passed(self, game_id: int, people: Sequence[int]) -> None:
        """Another process (the game's owner) accepted an action on the game; this one does
        not hold it: only its players' lobbies here hear of it."""


# Run in a thread, in a transaction of its own, when a game has just ended (e.g. ratings),
# before anyone is told.
FinishedHook = Callable[[Session, int], None]


def lost_on_time(live: LiveGame, seat: int) -> Outcome:
    """The game's outcome of ``seat``'s loss on time; the result names the seat
    (``lost_on_time``) for the pages to say so."""
    outcome = live.module.forfeit(live.state, live.players, seat, Forfeit.TIME)
    return Outcome(outcome.ranks, {**outcome.summary, "lost_on_time": seat})


class LiveGames:
    """The games held in memory, least recently used dropped first beyond ``capacity``."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        capacity: int = 20_000,
        finished_hooks: Sequence[FinishedHook] = (),
    ) -> None:
        self._sessions = sessions
        self._commits = CommitQueue(sessions.kw["bind"])
        self.listener: GameListener = _Unheard()
        self.owners: Owners = EveryGame()
        self._finished_hooks = tuple(finished_hooks)
        self._capacity = capacity
        self._games: OrderedDict[int, LiveGame] = OrderedDict()
        self._loading: dict[int, asyncio.Future[LiveGame]] = {}

    async def own(self, game_id: int, *, take_over: bool) -> bool:
        """Whether this process may act on the game (``owners``): claimed, from another live
        process too if ``take_over`` (a person's move or socket came here; ``Unavailable``
        if it could not be done in time), else only if nobody else owns it (background
        work). A game newly claimed is read again: its last owner may have moved it on."""
        if self.owners.owns(game_id):
            return True
        if take_over:
            await self.owners.claim(game_id)
        elif not await self.owners.adopt(game_id):
            return False
        self.evict(game_id)
        return True

    async def locked_as_owner(self, game_id: int, *, take_over: bool) -> LiveGame:
        """The game with its lock held by the caller, this process its owner (``own``; the
        game could be handed over while its lock was awaited: then it is claimed again);
        ``Conflict`` if background work may not have it."""
        while True:
            if not await self.own(game_id, take_over=take_over):
                raise Conflict(_("another server plays game {id} now", id=game_id))
            try:
                live = await self.locked(game_id)
            except NotFound:
                self.owners.finished(game_id)  # no such game: nothing to own
                raise
            if self.owners.owns(game_id):
                return live
            live.lock.release()

    def cached(self, game_id: int) -> LiveGame | None:
        return self._games.get(game_id)

    async def get(self, game_id: int) -> LiveGame:
        """The live game at its last committed version: a reader that comes while an action
        waits for its commit waits too (and reads the game again if the commit failed)."""
        while True:
            live = await self._get(game_id)
            if live.committing is None:
                return live
            await live.committing.wait()

    async def _get(self, game_id: int) -> LiveGame:
        """The live game, read from the database on first use (once, however many ask)."""
        live = self._games.get(game_id)
        if live is not None:
            self._games.move_to_end(game_id)
            return live
        pending = self._loading.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveGame] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            live = await asyncio.to_thread(self._read, game_id)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: no "never retrieved" warning without waiters
            raise
        finally:
            del self._loading[game_id]
        future.set_result(live)
        # Read for a request by a process that does not own it: not kept, since the owner
        # tells its moves only to the processes that hold its sockets (``relay``).
        owners = self.owners
        if not owners.exclusive or owners.owns(game_id) or self.listener.watched(game_id):
            self._games[game_id] = live
        self.listener.loaded(live)
        while len(self._games) > self._capacity:
            _, oldest = self._games.popitem(last=False)
            oldest.stale = True
        return live

    def _read(self, game_id: int) -> LiveGame:
        with self._sessions() as db:
            return LiveGame(store.read_game(db, game_id))

    def evict(self, game_id: int) -> None:
        live = self._games.pop(game_id, None)
        if live is not None:
            live.stale = True

    async def locked(self, game_id: int) -> LiveGame:
        """The game with its lock held by the caller (who must release ``live.lock``)."""
        while True:
            live = await self.get(game_id)
            await live.lock.acquire()
            if not live.stale:
                return live
            live.lock.release()

    async def act(self, game_id: int, seat_of: Callable[[LiveGame], int], raw: JSON,
                  version: int) -> LiveGame:  # fmt: skip
        """One seat's action as sent: parsed, checked, applied, written, announced."""

        def parsed(live: LiveGame) -> Any:
            try:
                return live.module.parse_action(raw)
            except InvalidInput as error:
                raise Unprocessable("move", game_error(error)) from None

        return await self._act(game_id, seat_of, parsed, version, take_over=True)

    async def act_parsed(self, game_id: int, seat_of: Callable[[LiveGame], int], action: Any,
                         version: int) -> LiveGame:  # fmt: skip
        """The same for an action the server parsed already (a bot's, a stand-in's): only
        where the game is owned already or nobody owns it."""
        return await self._act(game_id, seat_of, lambda _: action, version, take_over=False)

    async def _act(self, game_id: int, seat_of: Callable[[LiveGame], int],
                   action_of: Callable[[LiveGame], Any], version: int,
                   *, take_over: bool) -> LiveGame:  # fmt: skip
        live = await self.locked_as_owner(game_id, take_over=take_over)
        try:
            action = action_of(live)
            seat = seat_of(live)
            live.check_turn(seat, version)
            live.check_clock(seat)
            change = live.apply(seat, action)
            committing = live.committing = asyncio.Event()
            try:
                await self._commits.write(change)
            except BaseException:
                self.evict(game_id)  # memory ran ahead of the database: read it again
                raise
            else:
                live.accept(change)
            finally:
                live.committing = None
                committing.set()
            await self._tell_if_over(live)
            self.listener.changed(live, relayed=False)
            return live
        finally:
            live.lock.release()

    async def finish(self, game_id: int, outcome_of: Callable[[LiveGame], Outcome]) -> LiveGame:
        """End a running game now with the outcome ``outcome_of`` decides (a resignation):
        one transaction guarded by the version, then announced like an action."""
        live = await self.locked(game_id)
        try:
            live.check_running()
            result = result_json(outcome_of(live))
            stopped = live.stopped_clocks()
            try:
                await asyncio.to_thread(self._write_finish, live.id, live.version, result, stopped)
            except BaseException:
                self.evict(game_id)
                raise
            live.version += 1
            live.status, live.result, live.to_act = GameStatus.FINISHED, result, ()
            if live.clocks is not None:
                live.clocks = list(stopped)
            live.last_change = None
            live.clear_views()
            await self._tell_if_over(live)
            self.listener.changed(live, relayed=False)
            return live
        finally:
            live.lock.release()

    async def change_clocks(
        self, game_id: int, change: Callable[[LiveGame], list[SeatClock]]
    ) -> LiveGame:
        """Change a running game's clocks with no action (a vacation pauses a seat's):
        ``change`` gives every seat's clock from the game's; written guarded by the
        version, which it bumps, then announced like an action. Nothing if none changes."""
        live = await self.locked(game_id)
        try:
            if live.status != GameStatus.ACTIVE or live.clocks is None:
                return live
            after = change(live)
            changed = tuple(new for new, old in zip(after, live.clocks, strict=True) if new != old)
            if not changed:
                return live
            due = time_control.clock_due(live.timeout_rule, after)
            try:
                await asyncio.to_thread(self._write_clocks, live.id, live.version, changed, due)
            except BaseException:
                self.evict(game_id)
                raise
            live.version += 1
            live.clocks = list(after)
            live.last_change = None  # other processes read the game again
            live.clear_views()
            self.listener.changed(live, relayed=False)
            return live
        finally:
            live.lock.release()

    def _write_clocks(
        self, game_id: int, based_on: int, clocks: tuple[SeatClock, ...], due: datetime | None
    ) -> None:
        with self._sessions.begin() as db:
            store.change_clocks(db, game_id, based_on, clocks, due)

    async def _tell_if_over(self, live: LiveGame) -> None:
        """A game just ended: the finished hooks run (before anyone is told). The action
        that ended it is saved already: a failure here is logged, never answered."""
        if live.status != GameStatus.FINISHED:
            return
        for hook in self._finished_hooks:
            try:
                await asyncio.to_thread(self._run_hook, hook, live.id)
            except Exception:
                log.exception("game %s ended but %s failed", live.id, hook.__qualname__)

    def _run_hook(self, hook: FinishedHook, game_id: int) -> None:
        with self._sessions.begin() as db:
            hook(db, game_id)

    def _write_finish(
        self,
        game_id: int,
        based_on: int,
        result: dict[str, JSON],
        stopped: tuple[SeatClock, ...],
    ) -> None:
        with self._sessions.begin() as db:
            store.finish_game(db, game_id, based_on, result, stopped)

    async def save_draft(self, game_id: int, user_id: int, draft: JSON) -> JSON:
        """Keep ``user_id``'s seat's draft; the game's preview of it for that seat alone."""
        live = await self.locked_as_owner(game_id, take_over=True)
        try:
            seat = live.seat_of(user_id)
            if seat is None:
                raise Forbidden(_("you have no seat in this game"))
            await asyncio.to_thread(self._write_draft, game_id, seat, user_id, draft)
            live.drafts[seat] = draft
            return draft_preview(live.module, live.state, seat, draft)
        finally:
            live.lock.release()

    def _write_draft(self, game_id: int, seat: int, user_id: int, draft: JSON) -> None:
        with self._sessions.begin() as db:
            store.save_draft(db, game_id, seat, user_id, draft)

    async def changed_elsewhere(
        self, game_id: int, version: int | None = None, *, relayed: bool = False
    ) -> None:
        """The game changed outside its writer (a join; ``relayed``: in another process;
        ``version``, if known, is the version it changed to): read it again, announce it."""
        cached = self._games.get(game_id)
        if cached is not None and version is not None and cached.version >= version:
            return  # already read at that version or a later one
        self.evict(game_id)
        try:
            live = await self.locked(game_id)
        except ServiceError:
            return  # gone
        try:
            self.listener.changed(live, relayed=relayed)
        finally:
            live.lock.release()

    def applies(self, game_id: int) -> bool:
        """Whether this process applies the game's actions made elsewhere: it owns it."""
        return self.owners.owns(game_id)

    async def passed(self, game_id: int, people: Sequence[int]) -> None:
        """Another process, the game's owner, accepted an action on it: this process drops
        its copy (if it read one for a request), tells its players' lobbies here
        (``people``), and reads the game again only for sockets of its own on it."""
        self.evict(game_id)
        if self.listener.watched(game_id):
            await self.changed_elsewhere(game_id, relayed=True)
        else:
            self.listener.passed(game_id, people)

    async def acted_elsewhere(self, change: Change, people: Sequence[int] = ()) -> None:
        """Another server process accepted ``change``: applied to the cached state if it
        follows this process's version (no database read, the move not paid twice), read
        again on a gap; announced to this process's watchers either way. With owners, a
        process that does not own the game never applies it: it drops its copy, reads the
        game again only for sockets of its own on it, and tells its players' lobbies
        (``people``: ``passed``)."""
        live = self._games.get(change.game_id)
        if live is not None and not live.stale:
            async with live.lock:
                if live.version > change.based_on:
                    return  # known already (e.g. read after the change)
                if live.version == change.based_on and not live.stale:
                    try:
                        live.make(change.seat, live.module.parse_action(change.action))
                    except GameError:  # our state differs from the writer's: read it
                        self.evict(change.game_id)
                    else:
                        live.accept(change)
                        self.listener.changed(live, relayed=True)
                        return
        await self.changed_elsewhere(change.game_id, change.based_on + 1, relayed=True)


class Listeners:
    """The sockets' listener and others that hear of changes too, each told in turn (the
    sockets first); the sockets' listener alone answers for the sockets."""

    def __init__(self, sockets: GameListener, *others: ChangeListener) -> None:
        self.sockets = sockets
        self.listeners = (sockets, *others)

    def changed(self, live: LiveGame, *, relayed: bool) -> None:
        for listener in self.listeners:
            listener.changed(live, relayed=relayed)

    def loaded(self, live: LiveGame) -> None:
        for listener in self.listeners:
            listener.loaded(live)

    def watched(self, game_id: int) -> bool:
        return self.sockets.watched(game_id)

    def passed(self, game_id: int, people: Sequence[int]) -> None:
        self.sockets.passed(game_id, people)


class _Unheard:
    """The listener until the server gives its own: nobody hears."""

    def changed(self, live: LiveGame, *, relayed: bool) -> None:
        pass

    def loaded(self, live: LiveGame) -> None:
        pass

    def watched(self, game_id: int) -> bool:
        return False

    def passed(self, game_id: int, people: Sequence[int]) -> None:
        pass
