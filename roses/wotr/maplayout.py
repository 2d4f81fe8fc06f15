"""The schematic map: where a client draws each zone, sea zone and icon.

Part of the board data file (its ``map`` key), in a ``width`` x ``height`` box with y
pointing down: an outline (a polygon) and a label and noble point per land zone (WR-1), an
anchor point per sea zone (WR-5, along the coast in chain order) and a point per icon
inside its zone. Outlines of zones adjacent by land share a border; zones that are not
adjacent meet at most at a corner (WR-5: moves are orthogonal only).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

Point = tuple[int, int]
Report = Callable[[str, object, str], None]


class _Shape(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class ZoneShape(_Shape):
    outline: tuple[Point, ...] = Field(min_length=3)
    label: Point
    nobles: Point  # where the nobles standing in the zone are drawn


class MapLayout(_Shape):
    width: int = Field(ge=1)
    height: int = Field(ge=1)
    zones: dict[str, ZoneShape]
    seas: dict[str, Point]
    icons: dict[str, Point]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = self.model_dump(mode="json")
        return data


def inside(point: Point, outline: Sequence[Point]) -> bool:
    """Whether ``point`` lies strictly inside the polygon (even-odd rule)."""
    x, y = point
    crossings = False
    for (x1, y1), (x2, y2) in zip(outline, [*outline[1:], outline[0]], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + Fraction((y - y1) * (x2 - x1), y2 - y1):
            crossings = not crossings
    return crossings


def _edges(outline: Sequence[Point]) -> list[tuple[Point, Point]]:
    return list(zip(outline, [*outline[1:], outline[0]], strict=True))


def _overlap(a: tuple[Point, Point], b: tuple[Point, Point]) -> bool:
    """Whether two segments lie on one line and overlap over a positive length."""
    (ax, ay), (bx, by) = a
    dx, dy = bx - ax, by - ay
    for px, py in b:
        if dx * (py - ay) - dy * (px - ax) != 0:
            return False
    length = dx * dx + dy * dy
    along = sorted(dx * (px - ax) + dy * (py - ay) for px, py in b)
    return max(0, along[0]) < min(length, along[1])


def share_border(one: Sequence[Point], other: Sequence[Point]) -> bool:
    """Whether two outlines have a stretch of border in common (not just a corner)."""
    return any(_overlap(a, b) for a in _edges(one) for b in _edges(other))


def check_map(
    layout: MapLayout,
    land: Mapping[str, frozenset[str] | set[str] | tuple[str, ...]],
    seas: Sequence[str],
    icon_zone: Mapping[str, str],
    bad: Report,
) -> None:
    """Report every zone, sea zone or icon without a position, every point outside the box
    or its zone, and every pair of outlines whose shared border disagrees with ``land``."""
    for group, wanted, given in (
        ("zones", set(land), set(layout.zones)),
        ("seas", set(seas), set(layout.seas)),
        ("icons", set(icon_zone), set(layout.icons)),
    ):
        for missing in sorted(wanted - given):
            bad(f"map.{group}", missing, "has no position on the map")
        for unknown in sorted(given - wanted):
            bad(f"map.{group}.{unknown}", unknown, "names nothing on the board")

    def point(key: str, where: Point) -> None:
        if not (0 <= where[0] <= layout.width and 0 <= where[1] <= layout.height):
            bad(key, list(where), f"lies outside the {layout.width} x {layout.height} map")

    for zone, shape in layout.zones.items():
        for corner in shape.outline:
            point(f"map.zones.{zone}.outline", corner)
        for name in ("label", "nobles"):
            where = getattr(shape, name)
            point(f"map.zones.{zone}.{name}", where)
            if not inside(where, shape.outline):
                bad(f"map.zones.{zone}.{name}", list(where), f"lies outside {zone}'s outline")
    for sea, where in layout.seas.items():
        point(f"map.seas.{sea}", where)
        ashore = [zone for zone, shape in layout.zones.items() if inside(where, shape.outline)]
        if ashore:
            bad(f"map.seas.{sea}", list(where), f"lies on land, in {ashore[0]}")
    for icon, where in layout.icons.items():
        point(f"map.icons.{icon}", where)
        home = icon_zone.get(icon)
        if home in layout.zones and not inside(where, layout.zones[home].outline):
            bad(f"map.icons.{icon}", list(where), f"lies outside its zone {home}")
    for one, other in combinations(sorted(set(layout.zones) & set(land)), 2):
        bordering = share_border(layout.zones[one].outline, layout.zones[other].outline)
        adjacent = other in land[one]
        if bordering and not adjacent:
            bad(f"map.zones.{one}.outline", other, f"shares a border with {other}, "
                "which is not adjacent by land (WR-5: they may meet at a corner only)")  # fmt: skip
        elif adjacent and not bordering:
            bad(f"map.zones.{one}.outline", other, f"shares no border with {other}, "
                "which is adjacent by land")  # fmt: skip
