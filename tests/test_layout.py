"""The rooms and their doors: web -> server -> roses.games -> engines <- bots.

The server, the bot runner, the lobby, records and replays know games only through
``roses.games``; each game plugs in at one module there, and only that module (with the
engine and that game's bots) knows its rules. Engines import nothing outside themselves.
"""

from __future__ import annotations

import ast
import inspect
import re
from configparser import ConfigParser
from pathlib import Path

from roses.games import GAMES

ROSES = Path(__file__).resolve().parent.parent / "roses"


def _registered() -> dict[Path, str]:
    """Each registered game's plug (``roses/games/<name>.py``) and its engine's package
    (``roses.<name>``), from the registry: a new game is checked without a line here."""
    plugs = {}
    for name, module in GAMES.items():
        plug = Path(inspect.getfile(type(module)))
        if plug.is_relative_to(ROSES):  # not a test's own game (the duel)
            assert plug == ROSES / "games" / f"{name}.py", f"{name}'s plug is {plug}"
            assert (ROSES / name / "__init__.py").exists(), f"{name} has no engine roses/{name}"
            plugs[plug] = f"roses.{name}"
    return plugs


GAME_PLUGS = _registered()
ENGINES = tuple(GAME_PLUGS.values())


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports made absolute."""
    package = ".".join(path.relative_to(ROSES.parent).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            found.add(module)
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return found


def _within(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_the_server_knows_games_only_through_roses_games() -> None:
    checked = [*(ROSES / "server").rglob("*.py"), *(ROSES / "games").glob("*.py")]
    assert len(checked) > 20
    for path in checked:
        if path in GAME_PLUGS:
            continue
        wrong = {m for m in imported_modules(path) if _within(m, (*ENGINES, "roses.bots"))}
        assert not wrong, f"{path.relative_to(ROSES)} imports {sorted(wrong)}"


def test_each_game_plug_knows_only_its_own_game() -> None:
    assert len(GAME_PLUGS) >= 2
    for path, engine in GAME_PLUGS.items():
        name = engine.removeprefix("roses.")
        others = [o.removeprefix("roses.") for o in ENGINES if o != engine]
        forbidden = (*[f"roses.{o}" for o in others], *[f"roses.bots.{o}" for o in others])
        wrong = {m for m in imported_modules(path) if _within(m, (*forbidden, "roses.server"))}
        assert not wrong, f"{path.relative_to(ROSES)} imports {sorted(wrong)}"
        assert engine in imported_modules(path) or any(
            m.startswith(engine + ".") for m in imported_modules(path)
        ), f"the plug of {name} does not use its engine {engine}"


def test_engines_import_nothing_outside_themselves() -> None:
    for engine in ENGINES:
        for path in (ROSES / engine.removeprefix("roses.")).rglob("*.py"):
            outside = ("roses.server", "roses.games", "roses.bots", "roses.cli", "roses.web")
            wrong = {m for m in imported_modules(path) if _within(m, outside)}
            assert not wrong, f"{path.relative_to(ROSES)} imports {sorted(wrong)}"


def test_the_checker_sees_relative_imports() -> None:
    """The checks above would pass vacuously if relative imports were misread."""
    found = imported_modules(ROSES / "server" / "play" / "live_games.py")
    assert "roses.server.db.store" in found and "roses.games" in found


# Words a game may use that the shell uses for itself too ("Search" a bot, "random" a seat).
GENERIC_WORDS = {"random", "Random", "search", "Search", "light"}


def test_the_shell_js_names_no_game() -> None:
    """The lobby, the new-game form and the shell's pages (roses/web/js) learn each game's
    title and tutorial from /api/catalog: only a game's own folder, roses/web/<name>/,
    names it, so a third game needs no edit of the shell."""
    for path in sorted((ROSES / "web" / "js").glob("*.js")):
        text = path.read_text(encoding="utf-8")
        for module in GAMES.values():
            # Its name, its title, its options' keys and its bots' names and words.
            words = [module.name, module.title, *(option.name for option in module.option_fields)]
            words += [w for bot in module.bot_words for w in (bot.bot, bot.label)]
            for word in words:
                if word in GENERIC_WORDS:
                    continue
                assert not re.search(rf"\b{re.escape(word)}\b", text), f"{path.name}: {word}"


# The server's rooms, lowest first: a room imports only rooms before it (and the shared
# top-level modules: settings, errors, i18n, services). app.py builds the house from all.
SERVER_ROOMS = (
    "http", "db", "clocks", "accounts", "play", "workers", "lobby", "people", "learn", "notify",
    "ratings", "tournaments",
)  # fmt: skip
SHARED_MODULES = ("settings", "errors", "i18n", "services")


def test_the_server_is_its_rooms_and_a_few_shared_modules() -> None:
    server = ROSES / "server"
    top = sorted(path.stem for path in server.glob("*.py"))
    assert top == sorted(["__init__", "app", *SHARED_MODULES]), top
    rooms = sorted(path.name for path in server.iterdir() if (path / "__init__.py").exists())
    assert rooms == sorted(SERVER_ROOMS)


def test_imports_between_the_server_rooms_run_one_way() -> None:
    server = ROSES / "server"
    for level, room in enumerate(SERVER_ROOMS):
        allowed = {*SERVER_ROOMS[:level], room, *SHARED_MODULES}
        for path in (server / room).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            reached = {
                module.split(".")[2]
                for module in imported_modules(path)
                if module.startswith("roses.server.")
            }
            wrong = reached - allowed
            assert not wrong, f"{path.relative_to(ROSES)} imports the rooms {sorted(wrong)}"


def test_shared_modules_import_no_room_at_run_time() -> None:
    """``services`` names every room's types for the type checker only."""
    for name in SHARED_MODULES:
        tree = ast.parse((ROSES / "server" / f"{name}.py").read_text())
        for node in tree.body:  # module level, outside ``if TYPE_CHECKING:``
            if isinstance(node, ast.ImportFrom) and node.level:
                assert (node.module or "").split(".")[0] in SHARED_MODULES, (name, node.module)


def test_no_module_imports_another_modules_private_name() -> None:
    for path in ROSES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                private = [
                    alias.name
                    for alias in node.names
                    if alias.name.startswith("_")
                    and alias.name != "_"
                    and not alias.name.startswith("__")
                ]
                assert not private, f"{path.relative_to(ROSES)} imports {private}"


def test_the_message_extraction_names_no_game() -> None:
    """babel.cfg reads every game's folders through patterns that name none: a new game
    needs no entry there (its texts marked as the others' are)."""
    config = ConfigParser()
    config.read(ROSES.parent / "babel.cfg")
    patterns = [section.partition(":")[2].strip() for section in config.sections()]
    assert "**.py" in patterns
    for name in GAMES:
        assert not [p for p in patterns if name in p], f"babel.cfg names {name}"
