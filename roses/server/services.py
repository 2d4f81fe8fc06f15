"""The server's services, built once by ``create_app`` and handed to every route by one
dependency (``AppServices``) and to every background job by the lifespan.

It imports the services' types only for the type checker, so that any room of the server
can name it without importing the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends
from sqlalchemy.orm import Session, sessionmaker
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp

if TYPE_CHECKING:
    from .accounts.quotas import Limiter
    from .accounts.signed_in import SignedInCache
    from .clocks.time_control import ServerTime
    from .notify.reach import Reach
    from .play.hub import Hub
    from .play.live_games import LiveGames
    from .play.relay import RedisRelay
    from .settings import Settings
    from .tournaments.scheduler import Tournaments
    from .workers.analysis_runner import AnalysisRunner
    from .workers.bot_runner import BotRunner
    from .workers.timeouts import Timeouts


@dataclass(eq=False)
class Services:
    settings: Settings
    sessions: sessionmaker[Session]
    now: ServerTime  # the server's clock, which tests move forward
    hub: Hub  # this process's sockets
    signed_in: SignedInCache
    limiter: Limiter
    games: LiveGames
    bots: BotRunner
    timeouts: Timeouts
    analyses: AnalysisRunner
    relay: RedisRelay | None  # the other server processes, when there are any
    reach: Reach  # news to people away from the site (web push, webhooks)
    tournaments: Tournaments


def services_of(app: ASGIApp) -> Services:
    """The services of an app made by ``create_app`` (the one place that reads app.state)."""
    services: Services = app.state.services  # type: ignore[attr-defined]
    return services


def services(connection: HTTPConnection) -> Services:
    return services_of(connection.app)


AppServices = Annotated[Services, Depends(services)]


def _sessions(connection: HTTPConnection) -> sessionmaker[Session]:
    return services_of(connection.app).sessions


Sessions = Annotated[sessionmaker[Session], Depends(_sessions)]
