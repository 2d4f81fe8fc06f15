"""The Rose King's seat names as the pages show them (translated there, RK-16). The moves
and the end told for people are the engine's (``roses.roseking.readable``); the plug
(``roseking.py``) adds these names to its log entries."""

from __future__ import annotations

from .base import N_

# Each seat's name, as the pages show it (translated there); seat order R1, W1, R2, W2.
_TEAM_SEATS = (N_("Red 1"), N_("White 1"), N_("Red 2"), N_("White 2"))


def seat_label(seat: int, seats: int) -> str:
    """``Red``/``White``, or ``Red 1``..``White 2`` in the team variant (RK-16)."""
    return (N_("Red"), N_("White"))[seat & 1] if seats == 2 else _TEAM_SEATS[seat]
