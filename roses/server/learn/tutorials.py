"""Interactive tutorials: a game's real positions, each asking for a move its rules check.

A game offers one through ``GameModule.tutorial()``; its texts are per-language TOML files
in its web folder, ``roses/web/<game>/tutorial/<lang>.toml``: a ``title``, an ``intro``
and a ``summary``, a ``[hints]`` table (one text per reason a move is refused), and per
step (``[steps.<key>]``) its ``title``, ``task``, ``done`` and optional hints of its own
(``[steps.<key>.hints]``, keyed by a move or a reason). Texts are Markdown; a hint's
placeholders are the values the game gives with its answer (The Rose King: ``{move}``,
``{card}``, ``{target}``, ``{red}``, ``{white}``; Wars of the Roses: see
``roses/wotr/tutorial.py``). Nothing is stored: the browser says which step it is on, and a
refused move changes nothing.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from roses.games import GAMES, GameError
from roses.games.base import Tutorial, tutorial_preview

from ..errors import NotFound, Unprocessable
from ..http.pages import page
from ..http.schemas import ERROR_ANSWERS, DraftRequest
from ..i18n import N_, _, game_error
from .rules_pages import content_file, markdown, reader_language

router = APIRouter(tags=["tutorials"], responses=ERROR_ANSWERS)


class TutorialMove(BaseModel):
    move: Any = Field(
        description="the move, in the game's notation (The Rose King: N2, N2h, draw, pass; "
        'Wars of the Roses: an action such as {"pick": "newcastle"} or {"orders": {...}})'
    )


def tutorial_of(game: str) -> Tutorial:
    """The game's tutorial; ``NotFound`` naming why there is none."""
    module = GAMES.get(game)
    if module is None:
        raise NotFound(_("there is no game called “{game}”", game=game))
    tutorial = module.tutorial()
    if tutorial is None:
        raise NotFound(
            _("{game} has no tutorial yet; its rules page explains it", game=module.title)
        )
    return tutorial


@functools.cache
def _texts(path: Path) -> dict[str, Any]:
    with path.open("rb") as source:
        return tomllib.load(source)


def texts(game: str, language: str) -> dict[str, Any]:
    """The tutorial's texts in ``language`` (English where that language has none)."""
    path = content_file(game, "tutorial", language, ".toml")
    if path is None:
        raise NotFound(_("the tutorial of {game} has no texts", game=GAMES[game].title))
    return _texts(path)


class _Values(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return ""  # a value this answer does not have (no target for a draw)


def _html(text: str, values: dict[str, Any] | None = None) -> str:
    if values is not None:
        text = text.format_map(_Values({k: v for k, v in values.items() if v is not None}))
    return str(markdown.render(text))


def _step(tutorial: Tutorial, index: int) -> str:
    keys = tutorial.steps()
    if not 0 <= index < len(keys):
        raise NotFound(_("the tutorial has steps 0 to {last}", last=len(keys) - 1))
    return keys[index]


@router.get("/api/tutorials/{game}")
def tutorial(game: str, lang: str | None = None) -> dict[str, Any]:
    """Every step: its texts in the reader's language and its position as the learner sees
    it (never the draw pile's order)."""
    found = tutorial_of(game)
    language = reader_language(lang)
    words = texts(game, language)
    steps = []
    for index, key in enumerate(found.steps()):
        step = words["steps"][key]
        steps.append(
            {"key": key, "title": step["title"], "task": _html(step["task"]),
             "view": found.view(index)}
        )  # fmt: skip
    return {
        "game": game,
        "language": language,
        "title": words["title"],
        "intro": _html(words["intro"]),
        "summary": _html(words["summary"]),
        "steps": steps,
    }


@router.post("/api/tutorials/{game}/steps/{index}")
def try_move(game: str, index: int, body: TutorialMove, lang: str | None = None) -> dict[str, Any]:
    """The learner's move in step ``index``: accepted (the position after it and what it
    did) or refused (a hint; the position is unchanged)."""
    found = tutorial_of(game)
    key = _step(found, index)
    language = reader_language(lang)
    try:
        answer = found.answer(index, body.move)
    except GameError as error:
        raise Unprocessable("move", game_error(error)) from None
    words = texts(game, language)
    step = words["steps"][key]
    if answer.accepted:
        message = step["done"]
    else:
        # The step's hint for this very move, else for this reason, else the general one.
        hints = step.get("hints", {})
        move = answer.values.get("move")
        message = hints.get(move) or hints.get(answer.reason) or words["hints"][answer.reason]
    return {
        "accepted": answer.accepted,
        "reason": answer.reason,
        "message": _html(message, answer.values),
        "view": answer.view,
    }


@router.post("/api/tutorials/{game}/steps/{index}/preview")
def preview(game: str, index: int, body: DraftRequest) -> dict[str, Any]:
    """A draft reckoned in step ``index``'s position as the game previews drafts in a game
    (Wars of the Roses: a plan's cost, the money left and what a shortfall cancels, WR-11),
    from the learner's view; ``null`` where the game previews nothing. Nothing is kept."""
    found = tutorial_of(game)
    _step(found, index)
    return {"preview": tutorial_preview(found, index, body.draft)}


@router.get("/tutorial/{game}", include_in_schema=False)
def tutorial_page(game: str) -> HTMLResponse:
    tutorial_of(game)  # a clear 404 for a game without one
    return page("tutorial", "tutorial", N_("roses · tutorial"))
