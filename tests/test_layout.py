"""The rooms and their doors: web -> server -> roses.games -> engines <- bots.

The server, the bot runner, the lobby, records and replays know games only through
``roses.games``; each game plugs in at one module there, and only that module (with the
engine and that game's bots) knows its rules. Engines import nothing outside themselves.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROSES = Path(__file__).resolve().parent.parent / "roses"
ENGINES = ("roses.roseking", "roses.wotr")
GAME_PLUGS = {ROSES / "games" / "roseking.py", ROSES / "games" / "wotr.py"}


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
    other_game = {
        ROSES / "games" / "roseking.py": ("roses.wotr", "roses.bots.wotr"),
        ROSES / "games" / "wotr.py": ("roses.roseking", "roses.bots.roseking"),
    }
    for path, others in other_game.items():
        wrong = {m for m in imported_modules(path) if _within(m, (*others, "roses.server"))}
        assert not wrong, f"{path.relative_to(ROSES)} imports {sorted(wrong)}"


def test_engines_import_nothing_outside_themselves() -> None:
    for engine in ("roseking", "wotr"):
        for path in (ROSES / engine).rglob("*.py"):
            outside = ("roses.server", "roses.games", "roses.bots", "roses.cli", "roses.web")
            wrong = {m for m in imported_modules(path) if _within(m, outside)}
            assert not wrong, f"{path.relative_to(ROSES)} imports {sorted(wrong)}"


def test_the_checker_sees_relative_imports() -> None:
    """The checks above would pass vacuously if relative imports were misread."""
    found = imported_modules(ROSES / "server" / "play" / "live_games.py")
    assert "roses.server.db.store" in found and "roses.games" in found


def test_the_shell_js_names_no_game() -> None:
    """The lobby, the new-game form and the shell's pages (roses/web/js) learn each game's
    title and tutorial from /api/catalog: only a game's own folder, roses/web/<name>/,
    names it, so a third game needs no edit of the shell."""
    from roses.games import GAMES

    for path in sorted((ROSES / "web" / "js").glob("*.js")):
        text = path.read_text(encoding="utf-8")
        for module in GAMES.values():
            for word in (module.name, module.title):
                assert not re.search(rf"\b{re.escape(word)}\b", text), f"{path.name}: {word}"


# The server's rooms, lowest first: a room imports only rooms before it (and the shared
# top-level modules: settings, errors, i18n, services). app.py builds the house from all.
SERVER_ROOMS = (
    "http", "db", "clocks", "accounts", "play", "workers", "lobby", "learn", "notify", "ratings"
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
