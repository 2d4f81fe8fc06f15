"""Each game's rules as a page in the reader's language: ``/rules/<game>``.

A game gives its rules as Markdown in its web folder, ``roses/web/<game>/rules/<lang>.md``
(a file per language), and the server renders it with markdown-it-py into the site's page
shell; it knows no game by name, only ``roses.games``. The language is an explicit
``?lang=``, else the request's (the account's, the ``lang`` cookie, Accept-Language); where
the game has no text in that language, its English one is shown.
"""

from __future__ import annotations

import functools
import json
import re
from html import escape
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt

from roses.games import GAMES

from ..i18n import LANGUAGES, SOURCE_LANGUAGE, _, current, js_catalogue, use

WEB = Path(__file__).resolve().parents[2] / "web"
SHELL = (WEB / "page.html").read_text()
_MAIN = re.compile(r"<main\b.*?</main>", re.S)

router = APIRouter(include_in_schema=False)
markdown = MarkdownIt("commonmark", {"html": False, "typographer": True}).enable("table")


def content_file(game: str, folder: str, language: str, suffix: str) -> Path | None:
    """``roses/web/<game>/<folder>/<language><suffix>`` (``pt-BR.md``), else the one of its
    language without the region (``pt.md``), else the English one, else None."""
    for choice in (language, language.partition("-")[0], SOURCE_LANGUAGE):
        path = WEB / game / folder / f"{choice}{suffix}"
        if path.is_file():
            return path
    return None


def reader_language(explicit: str | None) -> str:
    """``?lang=`` when it names a language we speak, else the request's: for a page the
    account's saved language, else the ``lang`` cookie, else Accept-Language (``i18n``)."""
    if explicit in LANGUAGES:
        use(explicit)
    return current()


class _Fill(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""  # a placeholder the shell grew later: empty rather than a broken page


def server_page(title: str, kind: str, language: str, body: str, status: int = 200) -> HTMLResponse:
    """The site's page shell with ``body`` (HTML made here) as its main content."""
    catalogue = json.dumps(js_catalogue(language), ensure_ascii=False).replace("</", "<\\/")
    shell = _MAIN.sub(lambda _m: f'<main id="main" class="{kind}">{body}</main>', SHELL, 1)
    # Its script is i18n.js alone: there is nothing left to draw in the browser.
    html = shell.format_map(
        _Fill(title=escape(title), script="i18n", kind=kind, language=language,
              translations=catalogue, loading="")
    )  # fmt: skip
    headers = {"Content-Language": language, "Vary": "Cookie, Accept-Language"}
    return HTMLResponse(html, status_code=status, headers=headers)


@functools.cache
def _rendered(path: Path) -> tuple[str, str]:
    """The page's HTML and its title (the first heading) from a Markdown file."""
    text = path.read_text(encoding="utf-8")
    heading = re.search(r"^# (.+)$", text, re.M)
    return markdown.render(text), heading.group(1).strip() if heading else path.parent.name


def _language_links(game: str, shown: str) -> str:
    """The languages this game's rules are written in, each under its own name."""
    links = [
        f'<a href="/rules/{game}?lang={code}" hreflang="{code}" lang="{code}"'
        + (' aria-current="page"' if code == shown else "")
        + f">{escape(name)}</a>"
        for code, name in LANGUAGES.items()
        if (WEB / game / "rules" / f"{code}.md").is_file()
    ]
    label = escape(_("The rules in other languages"))
    return f'<nav class="rules-languages" aria-label="{label}">{" · ".join(links)}</nav>'


def _games_with_rules() -> str:
    items = [
        f'<li><a href="/rules/{name}">{escape(_(module.title))}</a></li>'
        for name, module in GAMES.items()
        if content_file(name, "rules", SOURCE_LANGUAGE, ".md")
    ]
    return f"<ul>{''.join(items)}</ul>"


@router.get("/rules/{game}")
def rules_page(game: str, lang: str | None = None) -> HTMLResponse:
    language = reader_language(lang)
    path = content_file(game, "rules", language, ".md") if game in GAMES else None
    if path is None:
        problem = (
            _("The game {game} has no rules page yet.", game=GAMES[game].title)
            if game in GAMES
            else _("There is no game called “{game}”.", game=game)
        )
        body = (
            f'<article class="rules"><h1>{escape(problem)}</h1>'
            f"<p>{escape(_('Rules of the games we offer:'))}</p>{_games_with_rules()}</article>"
        )
        return server_page(_("Rules — roses"), "rules", language, body, status=404)
    shown = path.stem
    html, title = _rendered(path)
    body = f'{_language_links(game, shown)}<article class="rules" lang="{shown}">{html}</article>'
    return server_page(f"{title} — roses", "rules", language, body)
