"""``roses ratings rebuild``: every rating replayed from the rated games, in the order they
ended (``roses.server.ratings.replay``); the same ratings again when nothing changed."""

from __future__ import annotations

import typer

from .serve import migrated_engine


def register(app: typer.Typer) -> None:
    ratings = typer.Typer(help="The server's ratings.", no_args_is_help=True)
    app.add_typer(ratings, name="ratings")

    @ratings.command()
    def rebuild(
        database_url: str | None = typer.Option(
            None, help="any SQLAlchemy URL (default: as `roses serve`)"
        ),
    ) -> None:
        """Forget every rating and replay the rated games in order (migrates first; run it
        with the server stopped, so that no game ends meanwhile). Safe to run again."""
        from roses.server import Settings
        from roses.server.ratings.replay import rebuild as replay

        engine = migrated_engine(Settings.from_env(database_url=database_url).database_url)
        try:
            with engine.begin() as connection:
                games = replay(connection)
        finally:
            engine.dispose()
        typer.echo(f"replayed {games} rated games")
