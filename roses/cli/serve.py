"""``roses serve``: the web server for online play (SQLite under ./var by default)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from .errors import UserError

if TYPE_CHECKING:
    from sqlalchemy import Engine

# How long ``roses serve`` lets running requests finish after SIGTERM before cancelling them.
SHUTDOWN_SECONDS = 2


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", help="address to listen on"),
        port: int = typer.Option(8000, min=1, max=65535, help="port to listen on"),
        database_url: str | None = typer.Option(
            None,
            help="any SQLAlchemy URL (default: $ROSES_DATABASE_URL, else SQLite "
            "$ROSES_DATA_DIR/roses.sqlite3 with ROSES_DATA_DIR defaulting to ./var)",
        ),
        access_log: bool = typer.Option(False, help="log every request (costs CPU per move)"),
    ) -> None:
        """Serve the games to browsers: http://HOST:PORT (migrates the database first)."""
        import uvicorn

        from roses.server import Settings, create_app
        from roses.server.http.connections import guarded_http_protocol
        from roses.server.workers.collector import Collector

        settings = Settings.from_env(database_url=database_url)
        migrated_engine(settings.database_url).dispose()
        application = create_app(settings)
        typer.echo(f"roses at http://{host}:{port} (database: {_safe(settings.database_url)})")
        Collector(settings.full_collection_seconds).install()
        uvicorn.run(
            application,
            host=host,
            port=port,
            log_level="info",
            # Headers or bodies that take too long or headers that grow too large close the
            # connection; see there.
            http=guarded_http_protocol(
                settings.header_timeout_seconds,
                settings.body_timeout_seconds,
                settings.max_header_bytes,
            ),
            timeout_keep_alive=settings.keep_alive_seconds,
            # On SIGTERM, requests still running after this are cancelled: an action already
            # acknowledged is committed, one not yet acknowledged may be retried.
            timeout_graceful_shutdown=SHUTDOWN_SECONDS,
            # Clients send small messages; a larger one closes the socket (1009).
            ws_max_size=settings.max_body_bytes,
            # Views are small and many: compressing each costs more CPU than it saves.
            ws_per_message_deflate=False,
            # The sans-I/O protocol: no task per socket, a timer for its keep-alive pings.
            ws="websockets-sansio",
            access_log=access_log,
        )


def migrated_engine(database_url: str) -> Engine:
    """An engine on the database, migrated to the newest schema; a database that cannot be
    opened is one line (``UserError``), not a traceback."""
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from roses.server.db.engine import make_engine
    from roses.server.db.migrate import upgrade

    try:
        engine = make_engine(database_url)
    except ArgumentError as error:
        raise UserError(f"--database-url: {error}") from None
    except OSError as error:  # the SQLite file's directory cannot be made
        raise UserError(f"cannot create the data directory: {error}") from None
    try:
        upgrade(engine)
    except SQLAlchemyError as error:
        engine.dispose()
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        raise UserError(f"cannot open the database {_safe(database_url)}: {reason}") from None
    return engine


def _safe(url: str) -> str:
    """The URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
