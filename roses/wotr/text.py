"""Sentences for people, kept as an English template and its values (``Phrase``) so that a
reader in another language can have them translated: the game log and the previews.

``str(phrase)`` is the English. A server or a page translates a phrase the way it
translates the engine's refusals (``IllegalActionError``): the template through its
catalogue (the templates are the message ids; babel.cfg extracts ``note``, ``phrase`` and
``counted``), then each value: a text through the same catalogue (a seat's colour, an award,
"nobody"; a place's name, which no catalogue holds, stays as it is), a nested phrase in
turn, a list joined with commas. Values hold only what the event makes public.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Union

# A phrase's value: a number, a text, a phrase in it, or a list of them.
Value = Union[int, str, "Phrase", tuple["Value", ...]]


@dataclass(frozen=True)
class Phrase:
    """``template`` with its ``{name}`` placeholders filled from ``params``; with ``plural``,
    a count: ``template`` is the form for ``params["n"] == 1``, ``plural`` the others'."""

    template: str
    params: Mapping[str, Value] = field(default_factory=dict)
    plural: str | None = None

    def __str__(self) -> str:
        chosen = self.template
        if self.plural is not None and self.params["n"] != 1:
            chosen = self.plural
        return chosen.format(**{name: _english(value) for name, value in self.params.items()})

    def to_json(self) -> dict[str, Any]:
        """``{"template", "params"}`` (and ``"plural"`` for a count), each value as JSON: a
        phrase as an object, a list as an array."""
        found: dict[str, Any] = {
            "template": self.template,
            "params": {name: _json(value) for name, value in self.params.items()},
        }
        if self.plural is not None:
            found["plural"] = self.plural
        return found


def _english(value: Value) -> str:
    if isinstance(value, tuple):
        return ", ".join(_english(item) for item in value)
    return str(value)


def _json(value: Value) -> Any:
    if isinstance(value, Phrase):
        return value.to_json()
    if isinstance(value, tuple):
        return [_json(item) for item in value]
    return value


def phrase(template: str, **params: Value) -> Phrase:
    return Phrase(template, params)


def counted(singular: str, plural: str, n: int, **params: Value) -> Phrase:
    """``counted("{n} troop", "{n} troops", 2)``: "2 troops"."""
    return Phrase(singular, {"n": n, **params}, plural)


def pounds(amount: int) -> Phrase:
    return counted("{n} pound", "{n} pounds", amount)


def troops(number: int) -> Phrase:
    return counted("{n} troop", "{n} troops", number)


def mercenaries(number: int) -> Phrase:
    return counted("{n} mercenary", "{n} mercenaries", number)


def troops_and_mercenaries(troop_count: int, mercenary_count: int) -> Phrase:
    """What is placed on a Location: "1 troop and 2 mercenaries", "3 troops", "1 mercenary"."""
    if troop_count and mercenary_count:
        return phrase(
            "{troops} and {mercenaries}",
            troops=troops(troop_count),
            mercenaries=mercenaries(mercenary_count),
        )
    return troops(troop_count) if troop_count else mercenaries(mercenary_count)
