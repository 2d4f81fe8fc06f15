"""What a player's name may be: the rule every form and route checks (422 naming the field)."""

from __future__ import annotations

import re
import unicodedata

from ..i18n import N_, _

NAME_MIN, NAME_MAX = 2, 24
# Words of letters, marks and digits of any script, '_', '.' and '-', one space between words.
_WORDS = re.compile(r"[^\s]+(?: [^\s]+)*")
# Guests get "guest-" and six hex digits; nobody chooses such a name, so that a guest's name
# (an upgraded guest's old one included) never points at someone else.
GUEST_PREFIX = "guest-"
NAME_RULE = N_("2 to 24 letters, digits, '_', '.' or '-', with single spaces between words")


def _name_character(character: str) -> bool:
    return unicodedata.category(character)[0] in "LMN" or character in "_.-"


def normal_name(name: str) -> str:
    """The name as stored and shown, or ValueError stating the rule.

    NFKC first, so that 'Zoë' typed with a combining diaeresis is the same text as 'Zoë'."""
    normal = unicodedata.normalize("NFKC", name)
    if not (
        NAME_MIN <= len(normal) <= NAME_MAX
        and _WORDS.fullmatch(normal)
        and all(_name_character(character) for character in normal.replace(" ", ""))
        and unicodedata.category(normal[0])[0] != "M"  # a mark needs a letter to sit on
    ):
        raise ValueError(_("a name is {rule}", rule=_(NAME_RULE)))
    return normal


def chosen_name(name: str) -> str:
    """A name someone chooses (registering, or upgrading a guest): ``normal_name``'s form,
    or ValueError if it is one kept for guests (in any case, any width)."""
    normal = normal_name(name)
    if unicodedata.normalize("NFKC", normal.casefold()).startswith(GUEST_PREFIX):
        raise ValueError(
            _(
                "names beginning with '{prefix}' are kept for guests; choose another",
                prefix=GUEST_PREFIX,
            )
        )
    return normal
