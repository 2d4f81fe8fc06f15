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
