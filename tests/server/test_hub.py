"""The hub of sockets on its own: what the endpoints' tests cannot time."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from roses.server.play.hub import Hub, Watcher


class _Socket:
    client = None

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)


def test_a_socket_registered_after_its_session_signed_out_is_closed() -> None:
    """A socket reads its session, then waits (for its game's lock, say); if the session
    signs out meanwhile, in this process or another, the socket closes as it registers."""

    async def run() -> tuple[list[str], list[str]]:
        hub = Hub(per_account=10, per_address=10)
        hub.close_session("signed-out")
        late_socket, other_socket = _Socket(), _Socket()
        sockets: list[Any] = [late_socket, other_socket]
        watchers = [Watcher(sockets[0], 1, "signed-out"), Watcher(sockets[1], 1, "still-in")]
        for watcher in watchers:
            hub.watch_lobby(watcher)
            watcher.send({"type": "hello"})
        await asyncio.wait_for(watchers[0].pump(), 1)  # returns: closed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(watchers[1].pump(), 0.2)  # open: it goes on waiting
        return late_socket.sent, other_socket.sent

    late, other = asyncio.run(run())
    assert late == [] and other == ['{"type":"hello"}']


def test_presence_is_told_once_per_change_and_merges_the_other_processes() -> None:
    """An account's first socket, each game it opens or closes, and its last socket are each
    told once; what other processes tell of their sockets counts as much as this one's."""
    hub = Hub(per_account=10, per_address=10)
    told: list[tuple[int, bool, set[int]]] = []
    hub.presence_listeners.append(lambda user: told.append((user, *hub.here(user))))
    lobby, board = Watcher(_Socket(), 7, "s"), Watcher(_Socket(), 7, "s")  # type: ignore[arg-type]
    hub.watch_lobby(lobby)
    hub.watch_game(3, board)
    hub.unwatch_game(3, board)
    assert hub.left_at(7) is None
    hub.unwatch_lobby(lobby)
    assert told == [(7, True, set()), (7, True, {3}), (7, True, set()), (7, False, set())]
    assert not hub.online(7) and hub.left_at(7) is not None
    hub.heard_presence("other", 7, True, [5], 0.0)
    assert hub.online(7) and hub.games_watched(7) == {5}
    hub.heard_presence("third", 7, True, [], 0.0)
    hub.heard_presence("other", 7, False, [], 1e12)
    assert hub.online(7) and hub.games_watched(7) == set()  # still there in "third"
    hub.heard_presence("third", 7, False, [], 2e12)
    assert not hub.online(7) and hub.left_at(7) == 2e12


def test_the_processes_that_must_hear_of_a_game_follow_what_they_tell() -> None:
    """Where a game's change must go: the processes holding a socket of the game, or a
    socket of one of its players; kept up as they tell of sockets opened and closed."""
    hub = Hub(per_account=10, per_address=10)
    assert hub.processes_for(5, {7, 8}) == set()
    hub.heard_presence("b", 7, True, [], 0.0)  # player 7's lobby on b
    hub.heard_presence("c", 9, True, [5], 0.0)  # a spectator of game 5 on c
    hub.heard_presence("d", 10, True, [6], 0.0)  # someone else, elsewhere
    assert hub.processes_for(5, {7, 8}) == {"b", "c"}
    hub.heard_presence("c", 9, True, [6], 0.0)  # the spectator turned to game 6
    assert hub.processes_for(5, {7, 8}) == {"b"} and hub.processes_for(6, ()) == {"c", "d"}
    hub.heard_presence("b", 7, False, [], 1.0)
    hub.heard_presence("c", 9, False, [], 1.0)
    assert hub.processes_for(5, {7, 8}) == set() and hub.processes_for(6, ()) == {"d"}
    lobby = Watcher(_Socket(), 8, "s")  # type: ignore[arg-type]
    hub.watch_lobby(lobby)
    board = Watcher(_Socket(), 8, "s")  # type: ignore[arg-type]
    hub.watch_game(5, board)
    assert hub.accounts_here() == {8: [5]}  # this process's own: told on a greeting
    assert hub.processes_for(5, {8}) == set()  # never itself


def test_a_process_with_no_page_open_reads_no_friends_on_a_change_of_presence() -> None:
    """News of someone's presence concerns only their friends' open pages: a process with
    no lobby socket skips the database; one with a page open reads the friends and tells
    them."""
    from types import SimpleNamespace

    from roses.server.people.presence import tell_friends

    hub = Hub(per_account=10, per_address=10)
    reads: list[int] = []

    class _Session:
        def __enter__(self) -> _Session:
            reads.append(1)
            return self

        def __exit__(self, *_: object) -> None:
            pass

        def execute(self, *_: object) -> list[Any]:
            return []

        def scalars(self, *_: object) -> list[int]:
            return [8]

    app: Any = SimpleNamespace(hub=hub, sessions=_Session)
    asyncio.run(tell_friends(app, 7))
    assert reads == []
    lobby = Watcher(_Socket(), 8, "s")  # type: ignore[arg-type]
    hub.watch_lobby(lobby)
    asyncio.run(tell_friends(app, 7))
    assert reads == [1]
