"""What a player's name may be: the rule every form and route checks (422 naming the field)."""

from __future__ import annotations

import functools
import re
import unicodedata

from confusable_homoglyphs import confusables

from ..i18n import N_, _

NAME_MIN, NAME_MAX = 2, 24
# Words of letters, marks and digits of any script, '_', '.' and '-', one space between words.
_WORDS = re.compile(r"[^\s]+(?: [^\s]+)*")
# Guests get "guest-" and six hex digits; nobody chooses such a name, so that a guest's name
# (an upgraded guest's old one included) never points at someone else.
GUEST_PREFIX = "guest-"
# A deleted account keeps its seats under "deleted-" and hex digits (accounts/deletion.py):
# kept, like the guests' prefix, so that no name points at someone it is not.
DELETED_PREFIX = "deleted-"
# Names that would speak for the site; their case and look-alike variants are refused too.
RESERVED_NAMES = ("admin", "administrator", "moderator", "roses", "system")
# Digits and signs read as letters ('adm1n', '5ystem'), and letter pairs read as one
# ('rn' as 'm'); 'l' and 'i' are one letter here, as in many fonts.
_READ_AS = str.maketrans("0134578l", "oieastbi")
_PAIRS = (("rn", "m"), ("vv", "w"))
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
    folded = unicodedata.normalize("NFKC", normal.casefold())
    if folded.startswith(GUEST_PREFIX):
        raise ValueError(
            _(
                "names beginning with '{prefix}' are kept for guests; choose another",
                prefix=GUEST_PREFIX,
            )
        )
    if folded.startswith(DELETED_PREFIX):
        raise ValueError(
            _(
                "names beginning with '{prefix}' are kept for deleted accounts; choose another",
                prefix=DELETED_PREFIX,
            )
        )
    if reserved(normal):
        raise ValueError(
            _(
                "'{name}' reads as a name kept for the site's own voice "
                "(such as admin, moderator or system); choose another",
                name=normal,
            )
        )
    return normal


@functools.cache
def _latin_look_alike(character: str) -> str:
    """The ASCII letter or digit ``character`` looks like in either case (Unicode's
    confusables, e.g. Cyrillic 'а' for 'a', 'т' as its capital 'Т' for 'T'), or
    ``character`` itself."""
    for form in dict.fromkeys((character, character.upper(), character.lower())):
        for entry in confusables.is_confusable(form, greedy=True) or []:
            for glyph in entry["homoglyphs"]:
                if len(glyph["c"]) == 1 and glyph["c"].isascii() and glyph["c"].isalnum():
                    return str(glyph["c"])
    return character


def look_alike_key(name: str) -> str:
    """What ``name`` reads as: NFKC, case folded, accents dropped, look-alike letters of other
    scripts and digits read as the Latin letters they resemble, separators ignored. Two
    names with one key look the same to a reader."""
    normal = unicodedata.normalize("NFKC", name)
    bare = "".join(
        c for c in unicodedata.normalize("NFD", normal) if unicodedata.category(c) != "Mn"
    )
    latin = "".join(c if c.isascii() else _latin_look_alike(c) for c in bare).casefold()
    key = "".join(c for c in latin.translate(_READ_AS) if c not in " _.-")
    for pair, letter in _PAIRS:
        key = key.replace(pair, letter)
    return key


_RESERVED_KEYS = frozenset(look_alike_key(name) for name in RESERVED_NAMES)


def reserved(name: str) -> bool:
    """Whether ``name`` reads as one of the names kept for the site."""
    return look_alike_key(name) in _RESERVED_KEYS
