"""The site's HTML pages: one shell (roses/web/page.html) that loads each page's script, in
the request's language, with that language's catalogue for the script."""

from __future__ import annotations

import json
from html import escape as html_escape
from importlib.resources import files
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from ..i18n import N_, _, current, js_catalogue
from .schemas import GameId

WEB = Path(str(files("roses") / "web"))
PAGE = (WEB / "page.html").read_text()  # every page: one shell, its own script

router = APIRouter(include_in_schema=False)


def page(script: str, kind: str, title: str = "roses") -> HTMLResponse:
    """A page of the site: the shell with /static/js/<script>.js, which draws the rest, in
    the request's language (``title`` is translated here) with that language's catalogue."""
    language = current()
    catalogue = json.dumps(js_catalogue(language), ensure_ascii=False).replace("</", "<\\/")
    html = PAGE.format(
        title=html_escape(_(title)),
        script=script,
        kind=kind,
        language=language,
        translations=catalogue,
        loading=html_escape(_("Loading…")),
    )
    return HTMLResponse(
        html, headers={"Content-Language": language, "Vary": "Cookie, Accept-Language"}
    )


@router.get("/")
def lobby_page() -> HTMLResponse:
    return page("lobby", "lobby", N_("Lobby — roses"))


@router.get("/games/{game_id}")
def play_page(game_id: GameId) -> HTMLResponse:
    return page("play", "play")


@router.get("/games/{game_id}/replay")
def replay_page(game_id: GameId) -> HTMLResponse:
    return page("replay", "play replay")


@router.get("/games/{game_id}/analysis")
def analysis_page(game_id: GameId) -> HTMLResponse:
    return page("analysis", "play analysis", N_("roses · analysis"))


@router.get("/ratings")
def ratings_page() -> HTMLResponse:
    return page("ratings", "ratings", N_("roses · ratings"))


@router.get("/players/{name}")
def player_page(name: str) -> HTMLResponse:
    return page("player", "ratings", N_("roses · player"))


@router.get("/people")
def people_page() -> HTMLResponse:
    return page("people", "settings", N_("People — roses"))


@router.get("/settings")
def settings_page() -> HTMLResponse:
    return page("settings", "settings", N_("Settings — roses"))


@router.get("/unsubscribe/{token}")
def unsubscribe_page(token: str) -> HTMLResponse:
    return page("unsubscribe", "settings", N_("Unsubscribe — roses"))


@router.get("/reset-password")
def reset_request_page() -> HTMLResponse:
    return page("account", "settings", N_("New password — roses"))


@router.get("/reset-password/{token}")
def reset_page(token: str) -> HTMLResponse:
    return page("account", "settings", N_("New password — roses"))


@router.get("/confirm-email/{token}")
def confirm_page(token: str) -> HTMLResponse:
    return page("account", "settings", N_("Confirm your e-mail address — roses"))
