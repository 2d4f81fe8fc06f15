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
