"""The ``roses`` command. Each game and the server add their own sub-commands."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import typer

try:  # typer >= 0.26 carries its own copy of click
    from typer._click import exceptions as cli_errors
except ImportError:  # pragma: no cover - older typer uses click itself
    from click import exceptions as cli_errors  # type: ignore[no-redef]

from .errors import UserError

app = typer.Typer(
    name="roses",
    help="Play and study the board games of roses: each game's commands, and the server.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register() -> None:
    """Every module of this package with a ``register`` adds its sub-commands: a game's
    folder here (``roses/cli/<game>/``) is found without a line in this file."""
    for found in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{found.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(app)


def main(argv: list[str] | None = None) -> int:
    """Run the command; bad input exits 2 with one line on standard error, no traceback."""
    _register()
    try:
        app(args=argv, standalone_mode=False, prog_name="roses")
    except UserError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except cli_errors.NoArgsIsHelpError:
        return 0  # the help text is already printed
    except cli_errors.ClickException as error:
        print(f"error: {error.format_message()}", file=sys.stderr)
        return 2
    except typer.Exit as exit_:
        return exit_.exit_code
    except typer.Abort:
        print("error: aborted", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


def run() -> None:
    sys.exit(main())
