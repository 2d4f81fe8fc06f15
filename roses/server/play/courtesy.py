"""The courtesy phrases of a table whose talk is courtesy only (``TableTalk.COURTESY``, e.g.
Wars of the Roses, WR-20): a player sends a phrase's key, never free text, and each reader
gets it in their own language, so the phrases say nothing of the game."""

from __future__ import annotations

from ..errors import Unprocessable
from ..i18n import N_, _

PHRASES: dict[str, str] = {
    "hello": N_("Hello!"),
    "good-luck": N_("Good luck!"),
    "well-played": N_("Well played!"),
    "thanks": N_("Thank you!"),
    "sorry": N_("Sorry!"),
    "must-go": N_("I must go."),
    "back-soon": N_("Back soon."),
}


def checked(key: str) -> str:
    """``key`` if it is a phrase; a 422 naming the field otherwise."""
    if key not in PHRASES:
        raise Unprocessable(
            "phrase",
            _(
                "there is no phrase '{phrase}' (choose from: {choices})",
                phrase=key,
                choices=", ".join(PHRASES),
            ),
        )
    return key


def phrase_text(key: str) -> str:
    """The phrase in the current language."""
    return _(PHRASES[key])


def offered() -> list[dict[str, str]]:
    """Every phrase, its key and its text in the current language, in the order offered."""
    return [{"key": key, "text": phrase_text(key)} for key in PHRASES]
