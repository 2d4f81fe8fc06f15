"""How deep a JSON value a person may send: every draft, action and socket frame is
checked before it is kept or parsed further.

A value nested about a thousand deep exhausts the interpreter's recursion when a view that
holds it is encoded; one such draft once froze a game for everyone. Nothing a game needs is
nested more than a few levels (a Wars of the Roses plan is four).
"""

from __future__ import annotations

MAX_DEPTH = 32


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
