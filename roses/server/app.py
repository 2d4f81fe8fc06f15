"""The ASGI app: the HTTP API (OpenAPI at /docs), WebSockets, and the browser UI.

``create_app`` builds the services once (``services.Services``), and its lifespan starts
and stops every background job of the server.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from .accounts import quotas, sign_outs, users
from .accounts import routes as accounts_routes
from .accounts.signed_in import SignedInCache, saved_language
from .clocks.time_control import server_time
from .db.engine import make_engine, session_factory
from .db.migrate import upgrade
from .http import answers, health, pages
from .http.guards import RequestGuard
from .http.process_header import ProcessHeader
from .i18n import LanguageMiddleware
from .learn import routes as learn_routes
from .learn import rules_pages, tutorials
from .lobby import expiry
from .lobby import routes as lobby_routes
from .notify import deadline_warnings, digest, outbox
from .notify import routes as notify_routes
from .notify.reach import Reach
from .people import news as people_news
from .people import presence
from .people import routes as people_routes
from .play import notes, sockets, streams
from .play import routes as play_routes
from .play.hub import Hub
from .play.live_games import Listeners, LiveGames
from .play.owners import GameOwners
from .play.relay import RedisRelay
from .ratings import routes as ratings_routes
from .ratings.updates import rate_game
from .services import Services
from .settings import Settings
from .tournaments import routes as tournaments_routes
from .tournaments.scheduler import Tournaments
from .workers import timeouts
from .workers.analysis_runner import AnalysisRunner
from .workers.bot_runner import BotRunner

ROUTERS = (
    play_routes.moves,  # first: tried before every other route (see there)
    accounts_routes.router,
    lobby_routes.router,  # before play's: /api/games/mine is not the game "mine"
    play_routes.router,
    ratings_routes.router,
    notify_routes.router,
    people_routes.router,
    tournaments_routes.router,
    learn_routes.router,
    rules_pages.router,
    tutorials.router,
    sockets.router,
    streams.router,
    health.router,
    pages.router,
)


def build_services(settings: Settings) -> Services:
    """Every service of one server process, wired together."""
    sessions = session_factory(make_engine(settings.database_url))
    hub = Hub(settings.sockets_per_account, settings.sockets_per_address)
    tournaments = Tournaments(hub)
    # A finished game is rated first, then a tournament's is recorded.
    hooks = [rate_game, tournaments.game_finished]
    games = LiveGames(sessions, capacity=settings.cached_games, finished_hooks=hooks)
    bots = BotRunner(games, settings)
    services = Services(
        settings=settings,
        sessions=sessions,
        now=server_time,
        hub=hub,
        signed_in=SignedInCache(),
        limiter=quotas.Limiter(settings),
        games=games,
        bots=bots,
        timeouts=timeouts.Timeouts(games, bots, sessions, settings.clock_check_seconds),
        analyses=AnalysisRunner(sessions, settings),
        relay=(
            RedisRelay(settings.redis_url, settings.redis_channel, games)
            if settings.redis_url
            else None
        ),
        reach=Reach(settings, sessions, server_time),
        tournaments=tournaments,
    )
    games.listener = Listeners(sockets.Announcer(services), services.reach)
    if settings.game_owners and settings.redis_url:
        owners = GameOwners(
            settings.redis_url,
            settings.redis_channel,
            settings.process_name or "roses",
            settings.owner_seconds,
        )
        owners.on_release(functools.partial(let_go, services))
        games.owners = owners
    services.hub.presence_listeners.append(presence.Presence(services).changed)
    return services


async def let_go(services: Services, game_id: int) -> None:
    """Another process takes the game over (``owners``): the action being written ends
    first, then this process forgets the game, closes its sockets on it (the pages
    reconnect to the new owner) and stops its bots."""
    live = services.games.cached(game_id)
    if live is not None:
        async with live.lock:
            services.games.evict(game_id)
    services.hub.close_game(game_id)
    services.bots.game_over(game_id)


async def account_news(services: Services, news: dict[str, Any]) -> None:
    """News of an account from another server process, to each room it concerns."""
    await sign_outs.heard(services, news)
    await people_news.heard(services, news)
    await presence.heard(services, news)


@asynccontextmanager
async def running(services: Services) -> AsyncIterator[None]:
    """Every background job, for as long as the server runs."""
    engine = services.sessions.kw["bind"]
    upgrade(engine)
    async with AsyncExitStack() as jobs:
        owners = services.games.owners
        if isinstance(owners, GameOwners):  # first up, last down: it gives its games up
            await owners.start()
            jobs.push_async_callback(owners.stop)
        if services.relay is not None:
            # Notes from the other server processes reach this one's watchers.
            services.relay.on_note(functools.partial(notes.deliver, services))
            # Sign-outs in the other processes close this one's sockets of that session;
            # their private messages and presence reach this one's pages.
            services.relay.on_account(functools.partial(account_news, services))
            await services.relay.start()
            jobs.push_async_callback(services.relay.stop)
            presence.greet(services)
        jobs.push_async_callback(services.analyses.stop)
        await services.bots.resume_all(services.sessions)
        jobs.push_async_callback(services.bots.stop)
        await jobs.enter_async_context(timeouts.checks(services))
        await jobs.enter_async_context(expiry.checks(services))
        await jobs.enter_async_context(digest.digests(services))
        await jobs.enter_async_context(deadline_warnings.deadline_warnings(services))
        await jobs.enter_async_context(outbox.sending(services))
        await jobs.enter_async_context(services.tournaments.running(services))
        yield
    engine.dispose()


def create_app(settings: Settings | None = None) -> FastAPI:
    services = build_services(settings or Settings.from_env())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with running(services):
            yield

    app = FastAPI(
        title="roses: The Rose King and Wars of the Roses online",
        description="Play The Rose King and Wars of the Roses with people and bots.",
        version="1",
        lifespan=lifespan,
    )
    app.state.services = services
    answers.install(app)
    quotas.install(app)
    app.add_middleware(
        RequestGuard,
        max_body_bytes=services.settings.max_body_bytes,
        trusted_origins=services.settings.trusted_origins,
    )
    # Outermost: every answer in the person's language, the guard's refusals too.
    app.add_middleware(
        LanguageMiddleware, saved=saved_language, session_cookie=users.SESSION_COOKIE
    )
    if services.settings.process_name:
        app.add_middleware(ProcessHeader, name=services.settings.process_name)
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=pages.WEB), name="static")
    return app
