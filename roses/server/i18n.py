"""Languages: English, German, Italian, Portuguese of Brazil and of Portugal.

The catalogues are gettext ``.po`` files in ``roses/locale`` (English is the source
language: a message id is its English text), read once per process with Babel. A language
is named by its tag as the web writes it (``pt-BR``: ``<html lang>``, Accept-Language, the
``lang`` cookie, the account), its catalogue by Babel's locale (``roses/locale/pt_BR``). Each
request's language is chosen in this order: the signed-in account's saved language, the
``lang`` cookie, the browser's Accept-Language, English. ``LanguageMiddleware`` picks it
from the request; ``deps.signed_in`` switches to the account's. ``_`` and ``ngettext``
translate into the current request's language; placeholders are ``{name}``, as in the
JavaScript ``t()``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from http.cookies import SimpleCookie
from importlib.resources import files
from pathlib import Path
from typing import Any

from babel import negotiate_locale
from babel.dates import format_date, format_time, get_datetime_format
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from starlette.types import ASGIApp, Receive, Scope, Send

from roses.games import GameError

# Each language under its own name, as the switcher offers it. "pt" is the Portuguese of
# Portugal (a bare "pt" asks for no region, and Babel's own alias of "pt" is pt_PT).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "it": "Italiano",
    "pt-BR": "Português (Brasil)",
    "pt": "Português (Portugal)",
}
SOURCE_LANGUAGE = "en"
LANGUAGE_COOKIE = "lang"
LOCALE_DIR = Path(str(files("roses") / "locale"))
_SERVER = "roses/server/"  # where messages only the server shows come from

_current: ContextVar[str] = ContextVar("language", default=SOURCE_LANGUAGE)


def babel_locale(language: str) -> str:
    """Babel's name of a language (``pt-BR`` is ``pt_BR``): its catalogue's folder."""
    return language.replace("-", "_")


# CLDR's (Babel's, the browser's Intl) plain "pt" is Brazil's Portuguese; ours is Portugal's.
_DATE_LOCALES = {"pt": "pt_PT"}


def date_locale(language: str) -> str:
    """The Babel locale a language's dates and numbers are written in ("06/05/2031" for
    Portugal, "6 de mai. de 2031" for Brazil)."""
    return _DATE_LOCALES.get(language, babel_locale(language))


def N_(message: str) -> str:
    """Marks a message for the catalogues where it is written; it is translated where shown."""
    return message


@functools.cache
def catalogue(language: str) -> Catalog | None:
    """The language's catalogue (None for English, the source language)."""
    if language == SOURCE_LANGUAGE:
        return None
    locale = babel_locale(language)
    with (LOCALE_DIR / locale / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=locale)


def _translation(language: str, key: str | tuple[str, str]) -> str | list[str] | None:
    found = catalogue(language)
    message = found.get(key) if found is not None else None
    if message is None or message.fuzzy or not message.string:
        return None
    if isinstance(message.string, str):
        return message.string
    forms = list(message.string)
    return forms if all(forms) else None


def current() -> str:
    """The language of the request being answered."""
    return _current.get()


def use(language: str) -> None:
    """Answer the rest of this request in ``language`` (one of ``LANGUAGES``)."""
    _current.set(language if language in LANGUAGES else SOURCE_LANGUAGE)


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Translate into ``language`` inside the block (for texts made outside a request)."""
    token = _current.set(language if language in LANGUAGES else SOURCE_LANGUAGE)
    try:
        yield
    finally:
        _current.reset(token)


def _fill(template: str, original: str, params: dict[str, object]) -> str:
    """``template`` filled; a translation whose braces went wrong falls back to English
    rather than failing the request (tests/server/test_i18n.py keeps them right)."""
    if not params:
        return template
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return original.format(**params)


def gettext(message: str, **params: object) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled from ``params``."""
    translated = _translation(current(), message)
    return _fill(translated if isinstance(translated, str) else message, message, params)


_ = gettext


def ngettext(singular: str, plural: str, n: int, **params: object) -> str:
    """The form for ``n`` (every language here: one form for 1, another for the rest)."""
    forms = _translation(current(), (singular, plural))
    chosen = (
        forms[0 if n == 1 else 1] if isinstance(forms, list) else (singular if n == 1 else plural)
    )
    return _fill(chosen, singular if n == 1 else plural, {"n": n, **params})


# "(RK-9)", ", WR-5)": where a refusal cites its rule. The numbers are for the readers of
# docs/rules and of the code; a player reads the sentence without them.
_RULE_CITATION = re.compile(r"\s*\((?:RK|WR)-\d+\)|,\s*(?:RK|WR)-\d+(?=\))")


def without_rule_numbers(text: str) -> str:
    """``text`` with its rule citations left out: "(RK-9)" is no word for a player."""
    return _RULE_CITATION.sub("", text)


def _value_text(value: object) -> object:
    """A refusal's value in the current language: a word of the catalogue (a seat's colour,
    a phase), a phrase (``{"template", "params"}``, a sea in words) in turn, a list joined."""
    if isinstance(value, str):
        return gettext(value)
    if isinstance(value, list):
        return ", ".join(str(_value_text(item)) for item in value)
    if isinstance(value, dict) and isinstance(value.get("template"), str):
        params = value.get("params")
        filled = (
            {name: _value_text(inner) for name, inner in (params or {}).items()}
            if isinstance(params, dict)
            else {}
        )
        plural = value.get("plural")
        if isinstance(plural, str):
            count = filled.pop("n", 0)
            n = count if isinstance(count, int) else 0
            return ngettext(value["template"], plural, n, **filled)
        return gettext(value["template"], **filled)
    return value


def moment(when: datetime) -> str:
    """A date and time in the current language, as its readers write them ("May 6, 2031,
    8:00 AM" in English, "06.05.2031, 08:00" in German), in UTC and saying so: a mail
    cannot know its reader's time zone."""
    utc = when.astimezone(UTC)
    language = date_locale(current())
    written = str(get_datetime_format("medium", locale=language)).format(
        format_time(utc, "short", tzinfo=UTC, locale=language),
        format_date(utc, "medium", locale=language),
    )
    return gettext("{moment} UTC", moment=written)


def game_error(error: GameError) -> str:
    """A game's refusal in the current language, without rule numbers. Its parameters are
    translated too when they are words of the catalogue or phrases."""
    params = {name: _value_text(value) for name, value in error.params.items()}
    return without_rule_numbers(gettext(error.template, **params))


def _accepted(header: str) -> list[str]:
    """The languages of an Accept-Language header, the most wanted first."""
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _sep, parameters = part.strip().partition(";")
        quality = 1.0
        if parameters.strip().startswith("q="):
            try:
                quality = float(parameters.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and tag != "*" and quality > 0:
            weighted.append((-quality, index, tag))
    return [tag for _q, _i, tag in sorted(weighted)]


# Our languages by their tags in lower case: a browser may write "pt-br" or "pt_BR".
_BY_TAG = {language.lower(): language for language in LANGUAGES}


def negotiate(saved: str | None, cookie: str | None, accept_language: str | None) -> str:
    """The language to answer in: the account's, the cookie's, the browser's, else English.

    A browser's tag is ours when it is the same ("pt-BR", "pt-br", "pt_BR"), else its
    language alone is ("de-CH" is "de", "pt-PT" and "pt-AO" are "pt")."""
    for choice in (saved, cookie):
        if choice in LANGUAGES:
            return choice
    if accept_language:
        wanted = [tag.replace("_", "-") for tag in _accepted(accept_language)]
        found = negotiate_locale(wanted, list(_BY_TAG), sep="-", aliases={})
        if found is not None:
            return _BY_TAG[found.lower()]
    return SOURCE_LANGUAGE


@functools.cache
def js_catalogue(language: str) -> dict[str, str | list[str]]:
    """What the browser's ``t()``/``tn()`` need: every translated message but the server's
    own (the scripts', and the games' words and refusals that reach the page as data).

    A plural message is keyed ``singular + "\\0" + plural`` and holds its forms."""
    found = catalogue(language)
    if found is None:
        return {}
    table: dict[str, str | list[str]] = {}
    for message in found:
        if not message.id or all(path.startswith(_SERVER) for path, _line in message.locations):
            continue
        if isinstance(message.id, str):
            key, translated = message.id, _translation(language, message.id)
        else:
            singular, plural = message.id[0], message.id[1]
            key, translated = f"{singular}\0{plural}", _translation(language, (singular, plural))
        if translated is not None:
            table[key] = translated
    return table


def _cookies(cookie_header: str | None) -> SimpleCookie:
    jar: SimpleCookie = SimpleCookie()
    if cookie_header:
        try:
            jar.load(cookie_header)
        except Exception:  # a malformed Cookie header: as if there were none
            jar = SimpleCookie()
    return jar


def request_language(cookie_header: str | None, accept_language: str | None) -> str:
    """The language of a request from its headers alone (before anyone is signed in)."""
    jar = _cookies(cookie_header)
    cookie = jar[LANGUAGE_COOKIE].value if LANGUAGE_COOKIE in jar else None
    return negotiate(None, cookie, accept_language)


# The saved language of the account a session cookie's token belongs to, if any.
SavedLanguage = Callable[[Any, str], Awaitable[str | None]]


class LanguageMiddleware:
    """Sets each request's language from its cookie and Accept-Language; a page (any GET
    outside /api and /static) also asks the signed-in account, which comes first. The API
    and the sockets learn the account's language when they look up the signed-in user
    (``deps.signed_in``, ``live``)."""

    def __init__(self, app: ASGIApp, saved: SavedLanguage, session_cookie: str) -> None:
        self.app = app
        self.saved = saved
        self.session_cookie = session_cookie

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = {
                name.decode("latin-1"): value.decode("latin-1")
                for name, value in scope.get("headers", [])
                if name in (b"cookie", b"accept-language")
            }
            use(request_language(headers.get("cookie"), headers.get("accept-language")))
            path: str = scope.get("path", "")
            if (
                scope["type"] == "http"
                and scope.get("method") == "GET"
                and not path.startswith(("/api/", "/static/"))
            ):
                jar = _cookies(headers.get("cookie"))
                if self.session_cookie in jar:
                    saved = await self.saved(scope["app"], jar[self.session_cookie].value)
                    if saved:
                        use(saved)
        await self.app(scope, receive, send)
