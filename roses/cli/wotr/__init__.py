"""``roses wotr ...``: Wars of the Roses at the command line."""

from __future__ import annotations

import typer


def register(root: typer.Typer) -> None:
    from .commands import app

    root.add_typer(app, name="wotr")
