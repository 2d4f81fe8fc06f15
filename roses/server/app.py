"""The ASGI app: the HTTP API (OpenAPI at /docs), WebSockets, and the browser UI."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from html import escape as html_escape
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .accounts import guest_upgrade, users
from .accounts import routes as accounts_routes
from .clocks.routes import router as timeouts_router
from .clocks.time_control import server_time
from .clocks.timeouts import Timeouts
from .db.engine import make_engine, session_factory
from .db.migrate import upgrade
from .errors import ServiceError, Unprocessable, as_sentence, validation_answer
from .http import quotas
from .http.deps import SignedInCache, saved_language
from .http.guards import RequestGuard
from .http.schemas import GameId
from .i18n import N_, LanguageMiddleware, _, current, js_catalogue
from .learn import routes as analysis_routes
from .learn import rules_pages, tutorials
from .lobby import community_routes
from .notify import routes as notify_routes
from .play import routes as play_routes
from .play import sockets
from .play.hub import Hub
from .play.live_games import LiveGame, LiveGames
from .play.relay import RedisRelay
from .ratings import routes as ratings_routes
from .settings import Settings
from .workers.analysis_runner import AnalysisRunner
from .workers.bot_runner import BotRunner

WEB = Path(str(files("roses") / "web"))
PAGE = (WEB / "page.html").read_text()  # every page: one shell, its own script


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
    response = HTMLResponse(
        html, headers={"Content-Language": language, "Vary": "Cookie, Accept-Language"}
    )
    return response


log = logging.getLogger("roses.server")


def _loaded(app: FastAPI, game: LiveGame) -> None:
    app.state.bots.poke(game)
    app.state.timeouts.arm(game)


# Starlette's own refusals (no such route, a method a route does not take), in words.
_HTTP_ERRORS = {
    404: N_("there is nothing at this address"),
    405: N_("this address does not take that kind of request"),
}


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    engine = make_engine(settings.database_url)
    sessions = session_factory(engine)
    hub = Hub()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        upgrade(engine)
        if app.state.relay is not None:
            await app.state.relay.start()
        await app.state.bots.resume_all(sessions)
        yield
        await app.state.bots.stop()
        await app.state.analyses.stop()
        if app.state.relay is not None:
            await app.state.relay.stop()
        engine.dispose()

    app = FastAPI(
        title="roses: The Rose King and Wars of the Roses online",
        description="Play The Rose King and Wars of the Roses with people and bots.",
        version="1",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.sessions = sessions
    app.state.hub = hub
    app.state.signed_in = SignedInCache()
    games = LiveGames(
        sessions,
        on_change=lambda game: sockets.announce(app, game),
        # A game read afresh (a restart, another process gone) may wait for a bot or a clock.
        on_load=lambda game: _loaded(app, game),
        capacity=settings.cached_games,
        on_relayed=lambda game: sockets.announce(app, game, relayed=True),
    )
    app.state.games = games
    app.state.bots = BotRunner(games, settings)
    app.state.now = server_time
    app.state.timeouts = Timeouts(games, app.state.bots, sessions, settings.clock_check_seconds)
    app.state.analyses = AnalysisRunner(sessions, settings)
    app.state.relay = (
        RedisRelay(settings.redis_url, settings.redis_channel, games)
        if settings.redis_url
        else None
    )

    @app.exception_handler(ServiceError)
    async def _service_error(_: Request, error: ServiceError) -> JSONResponse:
        body: dict[str, Any] = {"detail": as_sentence(error.message)}
        if isinstance(error, Unprocessable):
            body["errors"] = [{"field": error.field, "message": as_sentence(error.problem)}]
        return JSONResponse(body, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse(validation_answer(error.errors()), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        detail = _HTTP_ERRORS.get(error.status_code)
        return JSONResponse(
            {"detail": as_sentence(_(detail) if detail else str(error.detail))},
            status_code=error.status_code,
        )

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse(
            {"detail": as_sentence(_("internal error; nothing was changed"))}, status_code=500
        )

    quotas.install(app, settings)
    app.add_middleware(
        RequestGuard,
        max_body_bytes=settings.max_body_bytes,
        trusted_origins=settings.trusted_origins,
    )
    # Outermost: every answer in the person's language, the guard's refusals too.
    app.add_middleware(
        LanguageMiddleware, saved=saved_language, session_cookie=users.SESSION_COOKIE
    )

    app.include_router(accounts_routes.router)
    app.include_router(play_routes.router)
    app.include_router(community_routes.router)
    app.include_router(ratings_routes.router)
    app.include_router(timeouts_router)
    app.include_router(notify_routes.router)
    app.include_router(guest_upgrade.router)
    app.include_router(analysis_routes.router)
    app.include_router(rules_pages.router)
    app.include_router(tutorials.router)
    app.include_router(sockets.router)
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    @app.get("/", include_in_schema=False)
    def lobby_page() -> HTMLResponse:
        return page("lobby", "lobby", N_("Lobby — roses"))

    @app.get("/games/{game_id}", include_in_schema=False)
    def play_page(game_id: GameId) -> HTMLResponse:
        return page("play", "play")

    @app.get("/games/{game_id}/replay", include_in_schema=False)
    def replay_page(game_id: GameId) -> HTMLResponse:
        return page("replay", "play replay")

    @app.get("/games/{game_id}/analysis", include_in_schema=False)
    def analysis_page(game_id: GameId) -> HTMLResponse:
        return page("analysis", "play analysis", N_("roses · analysis"))

    @app.get("/tutorial/{game}", include_in_schema=False)
    def tutorial_page(game: str) -> HTMLResponse:
        tutorials.tutorial_of(game)  # a clear 404 for a game without one
        return page("tutorial", "tutorial", N_("roses · tutorial"))

    @app.get("/ratings", include_in_schema=False)
    def ratings_page() -> HTMLResponse:
        return page("ratings", "ratings", N_("roses · ratings"))

    @app.get("/players/{name}", include_in_schema=False)
    def player_page(name: str) -> HTMLResponse:
        return page("player", "ratings", N_("roses · player"))

    @app.get("/settings", include_in_schema=False)
    def settings_page() -> HTMLResponse:
        return page("settings", "settings", N_("Settings — roses"))

    @app.get("/unsubscribe/{token}", include_in_schema=False)
    def unsubscribe_page(token: str) -> HTMLResponse:
        return page("unsubscribe", "settings", N_("Unsubscribe — roses"))

    return app
