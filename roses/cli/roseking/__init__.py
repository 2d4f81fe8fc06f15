"""``roses rk ...``: The Rose King at the command line."""

from __future__ import annotations

import typer


def register(root: typer.Typer) -> None:
    from .commands import app

    root.add_typer(app, name="rk")
