"""uvicorn's HTTP protocol with the bounds on each request that it lacks.

uvicorn arms its keep-alive timer only after a response, and httptools sets no limit on
header size, so a client that opens a connection and sends its headers a byte at a time
(slowloris), or headers without end, or a body a byte at a time, holds the connection and
its memory forever. Here each request is judged alone: its headers must arrive within
``header_timeout`` seconds and its body within ``body_timeout`` seconds after them (408),
and its headers may be at most ``max_header_bytes`` (431); the connection is closed after
either answer, a sentence in the reader's language. A request refused for its headers is
never handed to the app, so it is not carried out; one whose body is late never reaches a
route, which reads its body first. When the server stops, a request whose body is still on
its way is refused (503) rather than waited for.
"""

from __future__ import annotations

import asyncio
import json
from http import HTTPStatus

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..errors import as_sentence
from ..i18n import N_, _, request_language, speaking

HEADERS_LATE = N_("the request's headers did not arrive within {seconds} seconds")
BODY_LATE = N_("the request's body did not arrive within {seconds} seconds; nothing was done")
HEADERS_TOO_LARGE = N_("the request's headers are larger than {most} bytes, the most accepted")
STOPPING = N_("the server is stopping and did nothing; send the request again in a moment")


class _GuardedHttpToolsProtocol(HttpToolsProtocol):
    header_timeout: float
    body_timeout: float
    max_header_bytes: int

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._deadline: asyncio.TimerHandle | None = None
        self._awaiting_headers = True
        self._awaiting_body = False
        self._partial_header_bytes = 0  # of a request whose headers are not complete yet
        self._messages_completed = 0
        super().connection_made(transport)
        self._arm(self.header_timeout)

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return
        if self._awaiting_headers:
            self._arm(self.header_timeout)  # the first bytes of the next kept-alive request
        in_headers_throughout = self._awaiting_headers
        completed = self._messages_completed
        super().data_received(data)
        if not self._awaiting_headers or self.transport.is_closing():
            return
        # Headers not complete yet. Count this read only when all of it is header bytes:
        # when another request ended within it, its bytes are not this one's, and the
        # exact count comes when the headers are complete (``on_headers_complete``);
        # meanwhile at most one read (256 KiB) of them goes uncounted.
        if in_headers_throughout and self._messages_completed == completed:
            self._partial_header_bytes += len(data)
            if self._partial_header_bytes > self.max_header_bytes:
                self._refuse_large_headers()

    def on_message_begin(self) -> None:
        if self.transport.is_closing():
            return
        self._arm(self.header_timeout)  # a request that began right after another one
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        if self.transport.is_closing():
            return
        self._disarm()
        self._awaiting_headers = False
        self._partial_header_bytes = 0
        if self.parser.should_upgrade() and self._should_upgrade():
            super().on_headers_complete()  # a WebSocket: its own protocol takes over
            return
        if self._header_bytes() > self.max_header_bytes:
            # Refused before the app is given the request: nothing of it is carried out.
            self._refuse_large_headers()
            return
        self._arm(self.body_timeout)
        super().on_headers_complete()
        self._awaiting_body = True

    def on_body(self, body: bytes) -> None:
        if not self.transport.is_closing():
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self.transport.is_closing():
            return
        self._disarm()
        self._messages_completed += 1
        self._awaiting_body = False
        super().on_message_complete()
        self._awaiting_headers = True  # whatever comes next starts a new request

    def shutdown(self) -> None:
        """The server is stopping: a request whose body is still on its way has not reached
        its route, so it is refused now (503) rather than waited for."""
        if self._awaiting_body and not self.transport.is_closing():
            self._refuse(HTTPStatus.SERVICE_UNAVAILABLE, STOPPING)
            return
        super().shutdown()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _header_bytes(self) -> int:
        """The size of this request's line and headers, as a client writes them."""
        request_line = len(self.parser.get_method()) + len(self.url) + len("  HTTP/1.1\r\n")
        fields = sum(len(name) + len(value) + len(": \r\n") for name, value in self.headers)
        return request_line + fields + len("\r\n")

    def _arm(self, seconds: float) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(seconds, self._too_late, seconds)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_late(self, seconds: float) -> None:
        self._deadline = None
        if self.flow.read_paused:
            # The server stopped reading (the app has not taken the body yet, or an earlier
            # request on this connection is still being answered): not the client's delay.
            self._arm(seconds)
            return
        late = BODY_LATE if self._awaiting_body else HEADERS_LATE
        self._refuse(HTTPStatus.REQUEST_TIMEOUT, late, seconds=f"{seconds:g}")

    def _refuse_large_headers(self) -> None:
        status = HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
        self._refuse(status, HEADERS_TOO_LARGE, most=self.max_header_bytes)

    def _may_answer(self) -> bool:
        """Whether no other answer is on its way: an earlier request's, still being written
        (pipelined), or this one's, when only the rest of its body was late."""
        cycle = self.cycle
        if cycle is None or cycle.response_complete:
            return True
        return self._awaiting_body and not cycle.response_started

    def _refuse(self, status: HTTPStatus, problem: str, **params: object) -> None:
        """Answer ``status`` with ``problem`` as a sentence, if no other answer is on its
        way, and close the connection."""
        self._disarm()
        if self.transport.is_closing():
            return
        if self._may_answer():
            with speaking(self._language()):
                body = json.dumps({"detail": as_sentence(_(problem, **params))}).encode()
            head = (
                f"HTTP/1.1 {status.value} {status.phrase}\r\n"
                "content-type: application/json\r\n"
                f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
            )
            self.transport.write(head.encode() + body)
        self.transport.close()

    def _language(self) -> str:
        """The reader's language, from the headers of this request read so far."""
        fields = {name: value.decode("latin-1") for name, value in self.headers or []}
        return request_language(fields.get(b"cookie"), fields.get(b"accept-language"))


def guarded_http_protocol(
    header_timeout: float, body_timeout: float, max_header_bytes: int
) -> type[asyncio.Protocol]:
    """The protocol class to pass as ``uvicorn.run(..., http=...)``."""
    return type(
        "GuardedHttpToolsProtocol",
        (_GuardedHttpToolsProtocol,),
        {
            "header_timeout": header_timeout,
            "body_timeout": body_timeout,
            "max_header_bytes": max_header_bytes,
        },
    )
