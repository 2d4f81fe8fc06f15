"""Typed errors: each says what was wrong and where. All are ``ValueError``s."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .text import Phrase, Value


class WotrError(ValueError):
    """Base class of every error the Wars of the Roses engine raises for bad input."""


@dataclass(frozen=True)
class Problem:
    """One fault in a board data file: the key (a dotted path), its value and why it is wrong."""

    key: str
    value: object
    why: str

    def __str__(self) -> str:
        return f"{self.key}: {self.value!r}: {self.why}"


class BoardDataError(WotrError):
    """A board data file is malformed; ``problems`` lists every fault found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        first = str(problems[0]) if problems else "invalid board data"
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(first + more)


class IllegalActionError(WotrError):
    """An action the rules do not allow now; ``field`` names the part at fault.

    ``message`` is for a player: ``template`` with its ``{name}`` placeholders filled from
    ``params``, so that a server can show it in the player's language; a value may be a
    phrase (a sea in words), translated in turn (``params_json``)."""

    def __init__(self, field: str, template: str, **params: Value) -> None:
        message = str(Phrase(template, params)) if params else template
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.template = template
        self.params = params

    def params_json(self) -> dict[str, Any]:
        """``params`` as JSON: a phrase as ``{"template", "params"}``, as the log's are."""
        return dict(Phrase(self.template, self.params).to_json()["params"])

    def to_json(self) -> dict[str, Any]:
        """The fault for a page: its field, its English sentence, and its template and
        values, which the page translates as it does the log's phrases."""
        return {
            "field": self.field,
            "message": self.message,
            "template": self.template,
            "params": self.params_json(),
        }

    def __reduce__(self) -> tuple[object, ...]:
        # keyword parameters: the default pickling passes only ``args`` back to __init__
        return _illegal_action, (self.field, self.template, self.params)


def _illegal_action(field: str, template: str, params: dict[str, Value]) -> IllegalActionError:
    return IllegalActionError(field, template, **params)


class InvalidRecordError(WotrError):
    """A game record is malformed, or one of its actions is illegal.

    ``action_index`` is the 0-based index of the first bad action, or ``None`` when the
    fault is elsewhere (then ``key`` names the record key at fault).
    """

    def __init__(
        self, message: str, *, key: str | None = None, action_index: int | None = None
    ) -> None:
        where = f"action {action_index}" if action_index is not None else (key or "record")
        super().__init__(f"{where}: {message}")
        self.key = key
        self.action_index = action_index
