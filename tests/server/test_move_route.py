"""The POSTed move's route is tried first (routes are tried one by one, and a move is the
request the server answers most), and trying it first changes no other request's answer:
no other route takes its path, whatever the method."""

from __future__ import annotations

from pathlib import Path

from starlette.routing import Match

from roses.server import Settings, create_app


def _matching(path: str, method: str, tmp_path: Path) -> list[tuple[int, Match]]:
    """The app's routes, by their place, that match ``method`` and ``path``."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'roses.sqlite3'}"))
    scope = {"type": "http", "path": path, "method": method, "root_path": "", "path_params": {}}
    found = []
    for index, route in enumerate(app.routes):
        match, _ = route.matches(dict(scope))
        if match != Match.NONE:
            found.append((index, match))
    return found


def test_the_move_route_is_the_first_that_takes_a_move(tmp_path: Path) -> None:
    found = _matching("/api/games/12/moves", "POST", tmp_path)
    assert len(found) == 1 and found[0][1] == Match.FULL
    before = _matching("/api/games/12/moves", "POST", tmp_path)[0][0]
    # Only FastAPI's own pages (the schema, the docs) come before it.
    assert all(_matching(path, "GET", tmp_path)[0][0] < before
               for path in ("/openapi.json", "/docs"))  # fmt: skip
    assert _matching("/api/me", "GET", tmp_path)[0][0] > before  # the accounts' routes


def test_no_other_route_takes_the_move_path_whatever_the_method(tmp_path: Path) -> None:
    for method in ("GET", "PUT", "DELETE", "PATCH"):
        assert [m for _, m in _matching("/api/games/12/moves", method, tmp_path)] in (
            [],
            [Match.PARTIAL],  # the move route itself: 405, as before
        )
