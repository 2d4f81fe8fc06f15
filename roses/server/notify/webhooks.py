"""A person's webhook: news as a JSON POST to a URL of theirs (a chat's incoming webhook).

The body is Discord- and Slack-compatible: ``content`` (Discord) and ``text`` (Slack) hold
the sentence in the person's language; the other fields say the same as data. The
request carries ``X-Roses-Signature: sha256=<hex>``, the HMAC-SHA256 of the exact body
bytes keyed with the webhook's secret (shown once, when the webhook is set), so that a
receiver can check the message came from this server; ``sent_at`` inside the body lets it
refuse an old message played again."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

import aiohttp

from ..settings import Settings

SIGNATURE_HEADER = "X-Roses-Signature"


def signature(secret: str, body: bytes) -> str:
    """The header's value for ``body``: ``sha256=`` and the HMAC's hex digest."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def body_bytes(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


class HookFailed(Exception):
    """The receiver answered with an error ``status`` (None: no answer at all)."""

    def __init__(self, status: int | None) -> None:
        super().__init__(f"the webhook answered {status}")
        self.status = status


async def send(
    settings: Settings, url: str, secret: str, payload: dict[str, Any], delivery: int
) -> None:
    """POST ``payload`` signed; ``HookFailed`` unless the receiver answered 2xx."""
    body = body_bytes(payload)
    headers = {
        "Content-Type": "application/json",
        SIGNATURE_HEADER: signature(secret, body),
        "X-Roses-Event": str(payload["kind"]),
        "X-Roses-Delivery": str(delivery),  # the same on every try of one message
    }
    timeout = aiohttp.ClientTimeout(total=settings.reach_timeout_seconds)
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.post(url, data=body, headers=headers, allow_redirects=False) as answer,
        ):
            status = answer.status
    except (aiohttp.ClientError, TimeoutError, OSError):
        raise HookFailed(None) from None
    if not 200 <= status < 300:
        raise HookFailed(status)
