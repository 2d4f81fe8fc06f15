"""A real SMTP server for the tests (aiosmtpd on a free port) that keeps what it receives."""

from __future__ import annotations

import email
import email.policy
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from .live_server import free_port


class Inbox:
    """aiosmtpd's handler: every message accepted, parsed, kept in order of arrival."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.recipients: list[list[str]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        self.messages.append(parsed)
        self.recipients.append(list(envelope.rcpt_tos))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[EmailMessage]:
        return [
            m for m, rcpt in zip(self.messages, self.recipients, strict=True) if address in rcpt
        ]

    def wait_for(self, count: int, seconds: float = 15.0) -> list[EmailMessage]:
        """The messages once ``count`` have come (for servers in another process)."""
        deadline = time.monotonic() + seconds
        while len(self.messages) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.messages


@contextmanager
def smtp_server() -> Iterator[tuple[str, Inbox]]:
    """An SMTP server on 127.0.0.1: its ``smtp://`` URL and its inbox."""
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}", inbox
    finally:
        controller.stop()


def body(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def unsubscribe_link(message: EmailMessage) -> str:
    """The link of the List-Unsubscribe header, which the text carries too."""
    found = re.fullmatch(r"<(\S+)>", str(message["List-Unsubscribe"]).strip())
    assert found, message["List-Unsubscribe"]
    assert found.group(1) in body(message)
    return found.group(1)


def take_link(inbox: Inbox, address: str, path: str, seconds: float = 15.0) -> str:
    """The token of the first e-mail to ``address`` with a link ``.../<path>/<token>``,
    once it has come; that e-mail is taken out of the inbox (tests count the others)."""
    deadline = time.monotonic() + seconds
    while True:
        for index, (message, rcpt) in enumerate(zip(inbox.messages, inbox.recipients, strict=True)):
            found = re.search(rf"/{path}/(\S+)", body(message)) if address in rcpt else None
            if found:
                del inbox.messages[index], inbox.recipients[index]
                return found.group(1)
        assert time.monotonic() < deadline, f"no e-mail with /{path}/ to {address}"
        time.sleep(0.05)
