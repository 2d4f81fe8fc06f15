"""Plain English for the game log and previews."""

from __future__ import annotations


def count(number: int, singular: str, plural: str | None = None) -> str:
    """``count(1, "troop")`` is "1 troop", ``count(2, "troop")`` "2 troops"."""
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def troops_and_mercenaries(troops: int, mercenaries: int) -> str:
    """What is placed on a Location: "1 troop and 2 mercenaries", "3 troops", "1 mercenary"."""
    parts = []
    if troops:
        parts.append(count(troops, "troop"))
    if mercenaries:
        parts.append(count(mercenaries, "mercenary", "mercenaries"))
    return " and ".join(parts)
