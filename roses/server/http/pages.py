"""The site's HTML pages: one shell (roses/web/page.html) that loads each page's script, in
the request's language, with that language's catalogue for the script."""

from __future__ import annotations

import json
from html import escape as html_escape
from importlib.resources import files
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ..i18n import N_, _, current, js_catalogue
from .schemas import GameId

WEB = Path(str(files("roses") / "web"))
PAGE = (WEB / "page.html").read_text()  # every page: one shell, its own script
OFFLINE = (WEB / "offline.html").read_text()  # what the service worker shows offline
SERVICE_WORKER = (WEB / "sw.js").read_text()
THEME_COLOUR = "#8f1d2c"  # the rose's red (rose.svg)

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


@router.get("/manifest.webmanifest")
def manifest() -> JSONResponse:
    """The web app manifest: the site installs as an app (its name and icons), in the
    request's language."""
    language = current()
    return JSONResponse(
        {
            "name": _("roses: The Rose King and Wars of the Roses"),
            "short_name": "roses",
            "description": _("Play The Rose King and Wars of the Roses with people and bots."),
            "lang": language,
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": "#f6efe2",
            "theme_color": THEME_COLOUR,
            "icons": [
                {
                    "src": f"/static/icons/rose-{size}.png",
                    "sizes": f"{size}x{size}",
                    "type": "image/png",
                    "purpose": "any",
                }
                for size in (192, 512)
            ],
        },
        media_type="application/manifest+json",
        headers={"Content-Language": language, "Vary": "Cookie, Accept-Language"},
    )


@router.get("/sw.js")
def service_worker() -> Response:
    """The service worker, at the root so that it may serve every page of the site."""
    return Response(
        SERVICE_WORKER,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache"},  # a new version is picked up at once
    )


@router.get("/offline")
def offline_page() -> HTMLResponse:
    """The page the service worker keeps and shows when the network is down."""
    language = current()
    html = OFFLINE.format(
        language=language,
        title=html_escape(_("Offline — roses")),
        heading=html_escape(_("You are offline")),
        explanation=html_escape(
            _(
                "roses cannot reach its server just now. Your games wait for you; try "
                "again once you are back online."
            )
        ),
        again=html_escape(_("Try again")),
    )
    return HTMLResponse(
        html, headers={"Content-Language": language, "Vary": "Cookie, Accept-Language"}
    )
