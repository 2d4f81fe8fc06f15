"""How deep a JSON value a person may send, and which characters: every draft, action and
socket frame is checked before it is kept or parsed further.

A value nested about a thousand deep exhausts the interpreter's recursion when a view that
holds it is encoded; one such draft once froze a game for everyone. Nothing a game needs is
nested more than a few levels (a Wars of the Roses plan is four).
"""

from __future__ import annotations

import re

MAX_DEPTH = 32
# NUL and lone surrogates: PostgreSQL keeps no NUL in text, and no database (nor UTF-8)
# keeps half of a surrogate pair; refused on every database alike.
_UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")


def too_deep(value: object, most: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests lists or objects more than ``most`` deep (scalars are depth 0).
    Iterative, so that the check itself cannot run out of recursion."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: list[object] = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        if level + 1 > most:
            return True
        stack.extend((child, level + 1) for child in children)
    return False


def unstorable_text(text: str) -> bool:
    """Whether ``text`` holds a character no database keeps (NUL, a lone surrogate)."""
    return _UNSTORABLE.search(text) is not None


def unstorable(value: object) -> bool:
    """Whether any text in ``value`` (keys included) holds such a character. Iterative, and
    only called on values ``too_deep`` let through."""
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _UNSTORABLE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False
