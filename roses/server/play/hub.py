"""Live updates: the open WebSockets, per game, per player's lobby and per sign-in session.

Each account, and each address, may hold at most so many sockets in one server process
(``sockets_per_account``, ``sockets_per_address``): one person opening sockets without end
would slow every change down for everyone.

Each socket has its own queue, filled in the order changes are accepted (under the game's
lock) and emptied by that socket's own task: a slow reader never holds up a game, and the
versions reach each socket in order. A client that stops reading altogether is closed.

The hub also knows who is here (``online``, ``games_watched``, ``left_at``): an account's
presence, which the people pages show to its friends; ``on_presence`` hears an account
arrive (its first socket) or leave (its last).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter, OrderedDict, defaultdict, deque
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any, cast

from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..http.fast_json import dumps
from ..i18n import _, current

QUEUE_LIMIT = 256  # messages a socket may fall behind before it is closed
ENDED_SESSIONS_KEPT = 10_000  # far more than sign out while a socket opens


def encode(message: dict[str, Any]) -> str:
    """A message as sent: encoded once, sent to many."""
    return dumps(message)


class Watcher:
    """One open WebSocket (or stream: ``streams``) of one signed-in user."""

    def __init__(self, socket: HTTPConnection, user_id: int, session: str) -> None:
        self.socket = socket
        self.user_id = user_id
        self.session = session  # its sign-in's token hash: signing out closes it
        self.language = current()  # its page's: the courtesy phrases it is sent are in it
        self.address = socket.client.host if socket.client else "unknown"
        self.version = -1  # the game version it was last sent: it is never sent an older one
        # Its messages in order, None last once closed; ``pump`` sends them. (A deque and a
        # future to wake the pump: an asyncio.Queue cost a tenth of a move's CPU.)
        self._queue: deque[str | None] = deque()
        self._waiting: asyncio.Future[None] | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message encoded already (``encode``)."""
        if len(self._queue) >= QUEUE_LIMIT:
            self.close()
        else:
            self._queue.append(text)
            self._wake()

    def _wake(self) -> None:
        waiting = self._waiting
        if waiting is not None and not waiting.done():
            waiting.set_result(None)

    def send_version(self, version: int, text: str) -> None:
        """Send a game's ``version`` (``text``, encoded) unless this socket has it already."""
        if version > self.version:
            self.version = version
            self.send_text(text)

    def close(self) -> None:
        """Stop after what is queued is dropped: the client reloads on reconnection."""
        self._queue.clear()
        self._queue.append(None)
        self._wake()

    async def pump(self) -> None:
        """A WebSocket's: send the queued messages in order until closed or the client leaves."""
        socket = cast(WebSocket, self.socket)
        queue = self._queue
        with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
            while True:
                if not queue:
                    await self._arrival(None)
                    continue
                text = queue.popleft()
                if text is None:
                    return
                await socket.send_text(text)

    async def texts(self, quiet_seconds: float) -> AsyncIterator[str]:
        """A stream's: the queued messages in order until closed, and an empty text after
        each ``quiet_seconds`` without one (a stream's keep-alive)."""
        queue = self._queue
        while True:
            if not queue and not await self._arrival(quiet_seconds):
                yield ""
                continue
            text = queue.popleft()
            if text is None:
                return
            yield text

    async def _arrival(self, seconds: float | None) -> bool:
        """Wait for a message to be queued: False if none came within ``seconds``."""
        self._waiting = asyncio.get_running_loop().create_future()
        try:
            await asyncio.wait_for(self._waiting, seconds)
            return True
        except TimeoutError:
            return False
        finally:
            self._waiting = None


class Hub:
    def __init__(self, per_account: int, per_address: int) -> None:
        self._games: dict[int, set[Watcher]] = defaultdict(set)
        self._lobbies: dict[int, set[Watcher]] = defaultdict(set)
        self._sessions: dict[str, set[Watcher]] = defaultdict(set)
        self._per_account = per_account
        self._per_address = per_address
        self._by_account: Counter[int] = Counter()
        self._by_address: Counter[str] = Counter()
        # Sessions signed out lately: a socket that was opening meanwhile (its session
        # read before the sign-out) is closed as soon as it registers.
        self._ended: OrderedDict[str, None] = OrderedDict()
        self._watching: dict[int, Counter[int]] = defaultdict(Counter)  # user: games watched
        self._left: OrderedDict[int, float] = OrderedDict()  # user: when the last socket closed
        # What the other server processes told of their sockets (``heard_presence``): per
        # process, the accounts with a socket open there and the games they watch there.
        self._elsewhere: dict[str, dict[int, set[int]]] = defaultdict(dict)
        # The same, turned round: which processes hold an account's sockets, and which
        # watch a game (``processes_for``: where a game's news must go).
        self._account_processes: dict[int, set[str]] = defaultdict(set)
        self._game_processes: dict[int, Counter[str]] = defaultdict(Counter)
        self.presence_listeners: list[Callable[[int], None]] = []

    def refusal(self, watcher: Watcher) -> str | None:
        """Why ``watcher`` may not be registered (a sentence for the socket's close reason),
        or None. Register it before the next await, so that no other slips in between."""
        if self._by_account[watcher.user_id] >= self._per_account:
            return _("you have too many connections open; close some pages first")
        if self._by_address[watcher.address] >= self._per_address:
            return _("too many connections are open from your address; close some pages first")
        return None

    def watch_game(self, game_id: int, watcher: Watcher) -> None:
        self._games[game_id].add(watcher)
        self._watching[watcher.user_id][game_id] += 1
        if not self._registered(watcher):  # an arrival is told already
            self._presence_changed(watcher.user_id)

    def unwatch_game(self, game_id: int, watcher: Watcher) -> None:
        if watcher in self._games.get(game_id, ()):
            _discard(self._games, game_id, watcher)
            watching = self._watching[watcher.user_id]
            _uncount(watching, game_id)
            if not watching:
                del self._watching[watcher.user_id]
            if not self._unregistered(watcher):  # a departure is told already
                self._presence_changed(watcher.user_id)

    def watch_lobby(self, watcher: Watcher) -> None:
        self._lobbies[watcher.user_id].add(watcher)
        self._registered(watcher)

    def unwatch_lobby(self, watcher: Watcher) -> None:
        if watcher in self._lobbies.get(watcher.user_id, ()):
            _discard(self._lobbies, watcher.user_id, watcher)
            self._unregistered(watcher)

    def _registered(self, watcher: Watcher) -> bool:
        """Count ``watcher`` in; True if it is its account's first socket here (told)."""
        self._sessions[watcher.session].add(watcher)
        self._by_account[watcher.user_id] += 1
        self._by_address[watcher.address] += 1
        if watcher.session in self._ended:
            watcher.close()
        if self._by_account[watcher.user_id] > 1:
            return False
        self._left.pop(watcher.user_id, None)
        self._presence_changed(watcher.user_id)
        return True

    def _unregistered(self, watcher: Watcher) -> bool:
        """Count ``watcher`` out; True if it was its account's last socket here (told)."""
        _discard(self._sessions, watcher.session, watcher)
        _uncount(self._by_account, watcher.user_id)
        _uncount(self._by_address, watcher.address)
        if watcher.user_id in self._by_account:
            return False
        self._left[watcher.user_id] = time.time()
        if len(self._left) > ENDED_SESSIONS_KEPT:
            self._left.popitem(last=False)
        self._presence_changed(watcher.user_id)
        return True

    def _presence_changed(self, user_id: int) -> None:
        for listener in self.presence_listeners:
            listener(user_id)

    # -- presence ---------------------------------------------------------------------------

    def here(self, user_id: int) -> tuple[bool, set[int]]:
        """Whether the account has a socket open in this process, and the games it watches."""
        return user_id in self._by_account, set(self._watching.get(user_id, ()))

    def online(self, user_id: int) -> bool:
        """Whether the account has a socket open in any process."""
        return user_id in self._by_account or user_id in self._account_processes

    def games_watched(self, user_id: int) -> set[int]:
        """The games the account has open, in any process."""
        watched = set(self._watching.get(user_id, ()))
        for accounts in self._elsewhere.values():
            watched |= accounts.get(user_id, set())
        return watched

    def left_at(self, user_id: int) -> float | None:
        """When (Unix time) the account's last socket closed, if lately."""
        return self._left.get(user_id)

    def heard_presence(
        self, process: str, user_id: int, online: bool, games: list[int], at: float
    ) -> None:
        """Another process told of the account's sockets there."""
        for game_id in self._elsewhere[process].pop(user_id, ()):
            _uncount(self._game_processes[game_id], process)
            if not self._game_processes[game_id]:
                del self._game_processes[game_id]
        if online:
            self._elsewhere[process][user_id] = set(games)
            self._account_processes[user_id].add(process)
            for game_id in games:
                self._game_processes[game_id][process] += 1
        else:
            processes = self._account_processes.get(user_id, set())
            processes.discard(process)
            if not processes:
                self._account_processes.pop(user_id, None)
            if not self.online(user_id):
                self._left[user_id] = max(at, self._left.get(user_id, 0.0))

    def processes_for(self, game_id: int, user_ids: Iterable[int]) -> set[str]:
        """The other processes that hold a socket of the game or a lobby of one of
        ``user_ids`` (its players): those that must hear of its change."""
        found = set(self._game_processes.get(game_id, ()))
        for user_id in user_ids:
            found |= self._account_processes.get(user_id, set())
        return found

    def accounts_here(self) -> dict[int, list[int]]:
        """Each account with a socket open in this process, and the games it watches here
        (all of this process's presence, for a process that has just started)."""
        return {user: sorted(self._watching.get(user, ())) for user in self._by_account}

    def game_watchers(self, game_id: int) -> list[Watcher]:
        return list(self._games.get(game_id, ()))

    def close_game(self, game_id: int) -> None:
        """The game moved to another server process: its sockets here close (the pages
        reconnect, through the balancer, to its owner)."""
        for watcher in self._games.get(game_id, ()):
            watcher.close()

    def lobbies_open(self) -> bool:
        """Whether any page has its lobby socket open in this process."""
        return bool(self._lobbies)

    def notify_lobbies(self, user_ids: set[int], message: dict[str, Any]) -> None:
        text: str | None = None
        for user_id in user_ids:
            for watcher in self._lobbies.get(user_id, ()):
                text = text or encode(message)
                watcher.send_text(text)

    def notify_all_lobbies(self, message: dict[str, Any]) -> None:
        """Every open lobby hears of it (e.g. the open games changed)."""
        text = encode(message)
        for watchers in self._lobbies.values():
            for watcher in watchers:
                watcher.send_text(text)

    def close_session(self, session: str) -> None:
        """Signing out: that browser's sockets receive nothing more."""
        self._ended[session] = None
        if len(self._ended) > ENDED_SESSIONS_KEPT:
            self._ended.popitem(last=False)
        for watcher in list(self._sessions.get(session, ())):
            watcher.close()


def _discard(index: dict[Any, set[Watcher]], key: Any, watcher: Watcher) -> None:
    watchers = index.get(key)
    if watchers is not None:
        watchers.discard(watcher)
        if not watchers:
            del index[key]


def _uncount(counts: Counter[Any], key: Any) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]
