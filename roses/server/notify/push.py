"""Web push (RFC 8030, encrypted per RFC 8291, signed per RFC 8292 VAPID) through pywebpush.

The server's VAPID key pair is made once and shared by every process (a server secret,
``accounts/secrets.py``): browsers subscribe with its public key (``public_key``), and a
push service accepts only messages signed by the matching private key."""

from __future__ import annotations

import base64
import json
from typing import Any

import aiohttp
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid
from pywebpush import WebPushException, webpush_async
from sqlalchemy.orm import Session

from ..accounts.secrets import server_secret
from ..settings import Settings

VAPID_SECRET = "vapid"


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _new_private_key() -> str:
    """A P-256 private key as its raw 32 bytes, base64url (what ``Vapid.from_raw`` reads)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return _b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def vapid_key(db: Session) -> Any:
    """The server's VAPID key (a ``py_vapid.Vapid``), made by the first process to ask."""
    return Vapid.from_raw(server_secret(db, VAPID_SECRET, _new_private_key).encode())


def public_key(vapid: Any) -> str:
    """The key a browser subscribes with (``applicationServerKey``): the uncompressed
    P-256 point, base64url."""
    point = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64url(point)


class PushRefused(Exception):
    """The push service answered with an error ``status`` (None: no answer at all)."""

    def __init__(self, status: int | None) -> None:
        super().__init__(f"the push service answered {status}")
        self.status = status


async def send(
    settings: Settings,
    vapid: Any,
    endpoint: str,
    p256dh: str,
    auth: str,
    payload: dict[str, Any],
) -> None:
    """Encrypt ``payload`` (JSON) for one browser and hand it to its push service;
    ``PushRefused`` with the service's status, or no status when it could not be reached."""
    subscription = {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}
    try:
        await webpush_async(
            subscription,
            data=json.dumps(payload, ensure_ascii=False),
            vapid_private_key=vapid,
            vapid_claims={"sub": settings.vapid_subject},
            timeout=aiohttp.ClientTimeout(total=settings.reach_timeout_seconds),
            ttl=24 * 3600,  # a browser offline for a day still gets the news
        )
    except WebPushException as error:
        raise PushRefused(error.status_code) from None
    except (aiohttp.ClientError, TimeoutError, OSError):
        raise PushRefused(None) from None
