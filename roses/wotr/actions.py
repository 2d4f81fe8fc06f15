"""The decisions players make: a card pick (WR-7), French Aid (WR-9) and sealed orders
(WR-10). Each is a small frozen value with a JSON form, for records and clients."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import IllegalActionError

Cube = Literal["white", "black"]


@dataclass(frozen=True)
class Pick:
    card: str

    def to_json(self) -> dict[str, Any]:
        return {"pick": self.card}


@dataclass(frozen=True)
class FrenchAid:
    take: bool

    def to_json(self) -> dict[str, Any]:
        return {"french_aid": self.take}


@dataclass(frozen=True)
class Orders:
    """One player's plan for the turn (WR-10); empty by default.

    ``troops`` and ``mercenaries`` map a Location to a number of tokens: on one's own
    Location they defend, on an opponent's they attack. ``bribes`` maps a Personality to
    the colour of the cube placed on it.
    """

    calais_bid: int = 0
    calais_zone: str | None = None
    noble_moves: Mapping[str, str] = field(default_factory=dict)
    ship_moves: Mapping[str, str] = field(default_factory=dict)
    troops: Mapping[str, int] = field(default_factory=dict)
    mercenaries: Mapping[str, int] = field(default_factory=dict)
    bribes: Mapping[str, Cube] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.calais_bid:
            data["calais"] = {"bid": self.calais_bid, "zone": self.calais_zone}
        for name in ("noble_moves", "ship_moves", "troops", "mercenaries", "bribes"):
            value = getattr(self, name)
            if value:
                data[name] = dict(sorted(value.items()))
        return {"orders": data}

    @classmethod
    def from_json(cls, data: object) -> Orders:
        """Parse the JSON form; raises ``IllegalActionError`` naming the bad field."""
        if not isinstance(data, dict):
            raise IllegalActionError("orders", "must be a JSON object")
        unknown = set(data) - {"calais", "noble_moves", "ship_moves", "troops", "mercenaries",
                               "bribes"}  # fmt: skip
        if unknown:
            raise IllegalActionError(f"orders.{sorted(unknown)[0]}", "unknown key")
        bid, zone = 0, None
        if "calais" in data:
            calais = data["calais"]
            if not isinstance(calais, dict) or set(calais) - {"bid", "zone"}:
                raise IllegalActionError("orders.calais", 'must be {"bid": N, "zone": Z}')
            bid = _int(calais.get("bid", 0), "orders.calais.bid")
            zone = calais.get("zone")
            if zone is not None and not isinstance(zone, str):
                raise IllegalActionError("orders.calais.zone", "must be a zone id")

        def mapping(name: str, kind: type) -> dict[str, Any]:
            value = data.get(name, {})
            if not isinstance(value, dict):
                raise IllegalActionError(f"orders.{name}", "must be a JSON object")
            for key, item in value.items():
                if kind is int:
                    _int(item, f"orders.{name}.{key}")
                elif not isinstance(item, str):
                    raise IllegalActionError(f"orders.{name}.{key}", "must be a string")
            return dict(value)

        bribes = mapping("bribes", str)
        for key, colour in bribes.items():
            if colour not in ("white", "black"):
                raise IllegalActionError(f"orders.bribes.{key}", "must be white or black")
        return cls(
            calais_bid=bid,
            calais_zone=zone,
            noble_moves=mapping("noble_moves", str),
            ship_moves=mapping("ship_moves", str),
            troops=mapping("troops", int),
            mercenaries=mapping("mercenaries", int),
            bribes=bribes,
        )


def _int(value: object, field_name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalActionError(field_name, "must be a whole number")
    return value


Action = Pick | FrenchAid | Orders


def action_from_json(data: object) -> Action:
    if isinstance(data, dict) and len(data) == 1:
        ((key, value),) = data.items()
        if key == "pick" and isinstance(value, str):
            return Pick(value)
        if key == "french_aid" and isinstance(value, bool):
            return FrenchAid(value)
        if key == "orders":
            return Orders.from_json(value)
    raise IllegalActionError(
        "action", 'must be {"pick": CARD}, {"french_aid": true|false} or {"orders": {...}}'
    )
