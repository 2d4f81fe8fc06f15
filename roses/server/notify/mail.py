"""Sending e-mail through the SMTP server named by ``ROSES_SMTP_URL``, and checking the
addresses people give.

``smtp://user:password@host:port`` speaks plain SMTP (upgraded with STARTTLS when the server
offers it), ``smtps://...`` TLS from the first byte. The standard library's ``smtplib`` is
blocking: ``send`` runs it in a thread, never on the event loop."""

from __future__ import annotations

import asyncio
import re
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from urllib.parse import unquote, urlsplit

from ..i18n import _

SMTP_TIMEOUT_SECONDS = 30.0
_DEFAULT_PORTS = {"smtp": 25, "smtps": 465}


@dataclass(frozen=True)
class SmtpServer:
    host: str
    port: int
    implicit_tls: bool  # smtps://
    username: str | None
    password: str | None


def smtp_server(url: str) -> SmtpServer:
    """``ROSES_SMTP_URL`` read; ValueError saying what is wrong with it."""
    parts = urlsplit(url)
    if parts.scheme not in _DEFAULT_PORTS:
        raise ValueError(
            f"ROSES_SMTP_URL must start with smtp:// or smtps://, not {parts.scheme or url!r}"
        )
    if not parts.hostname:
        raise ValueError("ROSES_SMTP_URL names no host (smtp://user:password@host:port)")
    try:
        port = parts.port or _DEFAULT_PORTS[parts.scheme]
    except ValueError:
        raise ValueError("ROSES_SMTP_URL's port is not a number from 1 to 65535") from None
    return SmtpServer(
        host=parts.hostname,
        port=port,
        implicit_tls=parts.scheme == "smtps",
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
    )


# -- addresses ------------------------------------------------------------------------------

# RFC 5322's dot-atom for the part before '@' (the characters any mail server takes).
_LOCAL = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*")
_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")


def normal_address(text: str) -> str:
    """The address as stored (the domain in lower case), or ValueError saying why not.

    It is checked for form only: whether the mailbox exists shows when mail bounces."""
    address = text.strip()
    if len(address) > 254:
        raise ValueError(_("an e-mail address is at most 254 characters long"))
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain:
        raise ValueError(
            _("an e-mail address is a name, “@” and a domain, for example ann@example.org")
        )
    if len(local) > 64:
        raise ValueError(_("the part before “@” is at most 64 characters long"))
    if not _LOCAL.fullmatch(local):
        raise ValueError(
            _(
                "the part before “@” may hold only the letters a to z, digits and "
                "{characters}, with no spaces and no two dots in a row",
                characters="!#$%&'*+/=?^_`{|}~.-",
            )
        )
    try:
        ascii_domain = domain.lower().encode("idna").decode("ascii")
    except UnicodeError:
        ascii_domain = ""
    labels = ascii_domain.split(".")
    if len(labels) < 2 or not all(_LABEL.fullmatch(label) for label in labels):
        raise ValueError(_("“{domain}” is not a domain name such as example.org", domain=domain))
    if labels[-1].isdigit():
        raise ValueError(_("the domain must be a name such as example.org, not a number"))
    return f"{local}@{domain.lower()}"


# -- messages -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    text: str
    # Every e-mail one opts in to says how to stop it, in the text and the headers; an
    # e-mail a person asked for this once (a reset link, a confirmation) has none.
    unsubscribe_url: str | None = None


def compose(mail: Mail, sender: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = mail.to
    message["Subject"] = mail.subject
    message["Date"] = formatdate(usegmt=True)
    domain = parseaddr(sender)[1].rpartition("@")[2] or "localhost"
    message["Message-ID"] = make_msgid(domain=domain)
    message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no auto-replies, please
    if mail.unsubscribe_url is not None:
        message["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"  # RFC 2369
    message.set_content(mail.text)
    return message


def send_now(server: SmtpServer, message: EmailMessage) -> None:
    """Deliver ``message`` to the SMTP server (blocking); smtplib's errors pass on."""
    smtp: smtplib.SMTP
    if server.implicit_tls:
        smtp = smtplib.SMTP_SSL(
            server.host,
            server.port,
            timeout=SMTP_TIMEOUT_SECONDS,
            context=ssl.create_default_context(),
        )
    else:
        smtp = smtplib.SMTP(server.host, server.port, timeout=SMTP_TIMEOUT_SECONDS)
    with smtp:
        smtp.ehlo()
        if not server.implicit_tls and smtp.has_extn("starttls"):
            smtp.starttls(context=ssl.create_default_context())
            smtp.ehlo()
        if server.username is not None:
            smtp.login(server.username, server.password or "")
        smtp.send_message(message)


async def send(server: SmtpServer, message: EmailMessage) -> None:
    await asyncio.to_thread(send_now, server, message)
