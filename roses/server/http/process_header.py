"""``X-Roses-Process``: which server process answered (a request, or a WebSocket's
handshake), for whoever runs several behind a balancer (``process_name``)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADER = b"x-roses-process"


class ProcessHeader:
    def __init__(self, app: ASGIApp, name: str) -> None:
        self.app = app
        self.header = (HEADER, name.encode("latin-1"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def named(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                message["headers"] = [*message.get("headers", ()), self.header]
            await send(message)

        await self.app(scope, receive, named)
