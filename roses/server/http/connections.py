"""uvicorn's HTTP protocol with the two bounds on request headers that it lacks.

uvicorn arms its keep-alive timer only after a response, and httptools sets no limit on
header size, so a client that opens a connection and sends its headers a byte at a time
(slowloris), or sends headers without end, holds the connection and its memory forever.
Here a request's headers must arrive within ``header_timeout`` seconds (408) and within
``max_header_bytes`` (431); the connection is closed after either answer.
"""

from __future__ import annotations

import asyncio
from http import HTTPStatus

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class _GuardedHttpToolsProtocol(HttpToolsProtocol):
    header_timeout: float
    max_header_bytes: int

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._header_deadline: asyncio.TimerHandle | None = None
        self._awaiting_headers = True
        self._header_bytes = 0
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return
        if self._awaiting_headers:
            self._arm()  # the first bytes of the next request on a kept-alive connection
        super().data_received(data)
        if self._awaiting_headers and not self.transport.is_closing():
            self._header_bytes += len(data)
            if self._header_bytes > self.max_header_bytes:
                self._refuse(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)

    def on_headers_complete(self) -> None:
        self._disarm()
        self._awaiting_headers = False
        self._header_bytes = 0
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._awaiting_headers = True  # whatever comes next starts a new request

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._header_deadline is None:
            self._header_deadline = self.loop.call_later(
                self.header_timeout, self._refuse, HTTPStatus.REQUEST_TIMEOUT
            )

    def _disarm(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _refuse(self, status: HTTPStatus) -> None:
        self._disarm()
        if self.transport.is_closing():
            return
        body = f"{status.description}\n".encode()
        head = (
            f"HTTP/1.1 {status.value} {status.phrase}\r\n"
            "content-type: text/plain; charset=utf-8\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
        )
        self.transport.write(head.encode() + body)
        self.transport.close()


def guarded_http_protocol(header_timeout: float, max_header_bytes: int) -> type[asyncio.Protocol]:
    """The protocol class to pass as ``uvicorn.run(..., http=...)``."""
    return type(
        "GuardedHttpToolsProtocol",
        (_GuardedHttpToolsProtocol,),
        {"header_timeout": header_timeout, "max_header_bytes": max_header_bytes},
    )
