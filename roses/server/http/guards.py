"""Checks on every request before any route sees it: cross-site requests, bodies.

A browser sends the session cookie (SameSite=Lax) along with a form posted from another
port of the same host, which is the same *site*; so every state-changing request is
checked for where it comes from: ``Sec-Fetch-Site`` when the browser sends it, and
``Origin``, which browsers send on every POST. A request with neither is not from a
browser's page (tests, curl) and may pass. Bodies must be JSON, which a cross-site form
cannot send without a CORS preflight, and no larger than ``max_body_bytes``.
(WebSocket handshakes are checked where the sockets are opened, in ``live``.)
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import as_sentence
from ..i18n import N_, _

_STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": ":80", "https": ":443"}
_OWN_SITE = frozenset({"same-origin", "none"})  # "none": the person typed or bookmarked it
OTHER_SITE = N_("requests from other sites may not change anything here")


def _origin(scheme: str, host: str) -> str:
    """``scheme://host`` without a default port, lower case, as browsers write ``Origin``."""
    host = host.lower().removesuffix(_DEFAULT_PORTS.get(scheme, ""))
    return f"{scheme}://{host}"


class RequestGuard:
    """ASGI middleware: 403 for another site's state-changing requests, 415 for bodies that
    are not JSON, 413 for bodies over ``max_body_bytes``; nothing is changed by any of them."""

    def __init__(
        self, app: ASGIApp, *, max_body_bytes: int, trusted_origins: Iterable[str] = ()
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.trusted_origins = frozenset(origin.rstrip("/").lower() for origin in trusted_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in _STATE_CHANGING:
            refusal = self._refusal(scope)
            if refusal is not None:
                await _answer(send, *refusal)
                return
            receive = self._bounded(receive)
        await self.app(scope, receive, send)

    def _from_here(self, scope: Scope, headers: dict[str, str]) -> bool:
        if headers.get("sec-fetch-site", "same-origin") not in _OWN_SITE:
            return False
        origin = headers.get("origin")
        if origin is None:
            return True
        here = _origin(scope["scheme"], headers.get("host", ""))
        return origin.lower() in {here} | self.trusted_origins

    def _refusal(self, scope: Scope) -> tuple[int, str] | None:
        headers = _headers(scope)
        if not self._from_here(scope, headers):
            return 403, _(OTHER_SITE)
        length = headers.get("content-length", "0")
        if not length.isdigit():
            return 400, _("the Content-Length header must be a number of bytes")
        if int(length) > self.max_body_bytes:
            return 413, self._too_large
        has_body = int(length) > 0 or "transfer-encoding" in headers
        media_type = headers.get("content-type", "").split(";")[0].strip().lower()
        if has_body and media_type != "application/json":
            return 415, _("send the request body as JSON (Content-Type: application/json)")
        return None

    @property
    def _too_large(self) -> str:
        return _(
            "the request body is larger than {most} bytes, the most accepted",
            most=self.max_body_bytes,
        )

    def _bounded(self, receive: Receive) -> Receive:
        """``receive`` that stops a body sent without Content-Length at ``max_body_bytes``."""
        received = 0

        async def bounded_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body_bytes:
                    # Raised where the route reads its body: FastAPI passes it on, and the
                    # app's handler answers 413 before anything was done.
                    raise HTTPException(413, self._too_large)
            return message

        return bounded_receive


def _headers(scope: Scope) -> dict[str, str]:
    return {name.decode("latin-1"): value.decode("latin-1") for name, value in scope["headers"]}


async def _answer(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": as_sentence(detail)}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
