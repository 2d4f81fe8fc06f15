"""WR-3: the control-point chart as a tie-break priority.

Nobles (and the Captain of Calais, ranked as a noble, WR-11) compare first by rank, then
the second noble, then the third; then royal castles, large towns, bishops, towns, ports
and ships by count. ``Holdings.priority`` is a key: greater wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .data import ICON_KINDS


@dataclass
class Holdings:
    cp: int = 0
    noble_ranks: list[int] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ICON_KINDS, 0))

    def add_noble(self, rank: int) -> None:
        self.cp += rank
        self.noble_ranks.append(rank)

    def add_icon(self, kind: str, cp: int) -> None:
        self.cp += cp
        self.counts[kind] += 1

    def merge(self, other: Holdings) -> Holdings:
        merged = Holdings(self.cp + other.cp, self.noble_ranks + other.noble_ranks)
        merged.counts = {kind: self.counts[kind] + other.counts[kind] for kind in ICON_KINDS}
        return merged

    def priority(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Tuples compare element by element, and a longer tuple with an equal prefix wins:
        exactly "compare the best nobles, then the second, then the third"."""
        return tuple(sorted(self.noble_ranks, reverse=True)), tuple(
            self.counts[kind] for kind in ICON_KINDS
        )
