"""Errors the services raise; the app turns each into one JSON answer with its status.

Every ``detail`` a person reads is a sentence in their language: the services write their
messages through ``i18n._``, and a request that is not what an operation takes (pydantic's
422) becomes one sentence per problem naming the field in words, never by its path."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .i18n import N_, _


def as_sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop (messages are written as clauses)."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?…" else text + "."


class ServiceError(Exception):
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotSignedIn(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    """An illegal move, a stale version, a name taken: nothing was changed."""

    status = 409


class Unavailable(ServiceError):
    """Not now, nothing done: try again in a moment (e.g. a game moving between servers)."""

    status = 503


class Unprocessable(ServiceError):
    """Input that is not what the field takes (e.g. a move in no game's notation).

    ``field`` names the field for programs (``errors``); the message alone is for people."""

    status = 422

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.problem = message


# -- pydantic's 422 in words -----------------------------------------------------------------

# Each request field, as a person would name it.
_FIELDS: dict[str, str] = {
    "name": N_("the name"),
    "password": N_("the password"),
    "game": N_("the game"),
    "players": N_("the number of players"),
    "options": N_("the options"),
    "seats": N_("the list of seats"),
    "rated": N_("the choice between rated and casual"),
    "seat": N_("the seat"),
    "version": N_("the game version"),
    "move": N_("the move"),
    "draft": N_("the draft"),
    "text": N_("the message"),
    "game_id": N_("the game number"),
    "page": N_("the page number"),
    "limit": N_("the number of players to list"),
    "variant": N_("the variant"),
    "language": N_("the language"),
    "time_limit": N_("the time limit"),
    "email": N_("the e-mail address"),
    "digest": N_("the daily e-mail choice"),
    "deadline_warning": N_("the deadline warning choice"),
    "browser": N_("the browser notification choice"),
    "sound": N_("the sound choice"),
    "token": N_("the link's token"),
    "position": N_("the position"),
}
# A field of one seat of a new game (``seats.1.name``), numbered from 1 as people count.
_SEAT_FIELDS: dict[str, str] = {
    "kind": N_("the kind of seat {n}"),
    "name": N_("the name of the player invited to seat {n}"),
    "bot": N_("the bot of seat {n}"),
    "strength": N_("the strength of the bot in seat {n}"),
}


def _field_in_words(location: Sequence[Any]) -> str:
    parts = [part for part in location if part not in ("body", "query", "path", "cookie")]
    if not parts:
        return _("the request")
    if parts[0] == "seats" and len(parts) >= 2 and isinstance(parts[1], int):
        if len(parts) == 2:
            return _("seat {n}", n=parts[1] + 1)
        template = _SEAT_FIELDS.get(str(parts[2]))
        if template is not None:
            return _(template, n=parts[1] + 1)
    if parts[0] == "options" and len(parts) == 2:
        return _("the option “{name}”", name=parts[1])
    known = _FIELDS.get(str(parts[0]))
    return _(known) if known is not None else _("the field “{name}”", name=parts[-1])


def _problem(error: Mapping[str, Any]) -> str:
    """One pydantic error as a sentence."""
    kind: str = error["type"]
    context: Mapping[str, Any] = error.get("ctx") or {}
    location: Sequence[Any] = error["loc"]
    if kind in ("value_error", "assertion_error") and "error" in context:
        return str(context["error"])  # our validators' own sentences, translated when raised
    if kind == "json_invalid":
        return _("the request is not valid JSON")
    if kind == "extra_forbidden":
        return _("“{name}” is not something this request takes", name=location[-1])
    field = _field_in_words(location)
    if kind == "missing":
        return _("{field} is missing", field=field)
    if kind == "string_too_short":
        if context.get("min_length") == 1:
            return _("{field} is empty", field=field)
        return _("{field} needs at least {min} characters", field=field, min=context["min_length"])
    if kind == "string_too_long":
        return _("{field} is too long (at most {max} characters)", field=field,
                 max=context["max_length"])  # fmt: skip
    if kind == "too_short":
        return _("{field} needs at least {min} entries", field=field, min=context["min_length"])
    if kind == "too_long":
        return _("{field} has too many entries (at most {max})", field=field,
                 max=context["max_length"])  # fmt: skip
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return _("{field} must be a whole number", field=field)
    if kind in ("bool_type", "bool_parsing"):
        return _("{field} must be true or false", field=field)
    if kind in ("string_type", "string_unicode"):
        return _("{field} must be a text", field=field)
    if kind in ("greater_than_equal", "greater_than"):
        limit = context.get("ge", context.get("gt"))
        return _("{field} must be at least {min}", field=field, min=limit)
    if kind in ("less_than_equal", "less_than"):
        limit = context.get("le", context.get("lt"))
        return _("{field} must be at most {max}", field=field, max=limit)
    if kind == "literal_error":
        return _("{field} must be one of: {choices}", field=field, choices=context["expected"])
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        if len(location) <= 1:
            return _("the request must be a JSON object")
        return _("{field} must be an object", field=field)
    if kind == "list_type":
        return _("{field} must be a list", field=field)
    if kind == "string_pattern_mismatch":
        return _("{field} is not in the expected form", field=field)
    return _("{field} is not valid", field=field)


def _path(location: Sequence[Any]) -> str:
    parts = [str(part) for part in location if part not in ("body", "query", "path", "cookie")]
    return ".".join(parts) or "body"


def validation_answer(errors: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The 422 body: ``detail`` the sentences, ``errors`` each field (for programs) and its
    sentence."""
    problems = [
        {"field": _path(error["loc"]), "message": as_sentence(_problem(error))} for error in errors
    ]
    return {"detail": " ".join(problem["message"] for problem in problems), "errors": problems}
