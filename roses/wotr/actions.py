"""The decisions players make: a card pick (WR-7), French Aid (WR-9), sealed orders and
taking them back (WR-10). Each is a small frozen value with a JSON form, for records and
clients."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from .errors import IllegalActionError

Cube = Literal["white", "black"]
CUBES: Final = ("white", "black")


@dataclass(frozen=True)
class Pick:
    """WR-7: take a card from the layout."""

    card: str

    def to_json(self) -> dict[str, Any]:
        return {"pick": self.card}


@dataclass(frozen=True)
class FrenchAid:
    """WR-9: take (or decline) the French Aid offered."""

    take: bool

    def to_json(self) -> dict[str, Any]:
        return {"french_aid": self.take}


@dataclass(frozen=True)
class Unseal:
    """WR-10: take back one's sealed orders to plan again, while another player still plans."""

    def to_json(self) -> dict[str, Any]:
        return {"unseal": True}


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
        parts = ", ".join(_PARTS)
        if not isinstance(data, dict):
            raise IllegalActionError("orders", f"must be a JSON object with any of {parts}")
        unknown = sorted(set(data) - set(_PARTS))
        if unknown:
            raise IllegalActionError(f"orders.{unknown[0]}", f"is not part of a plan ({parts})")
        bid, zone = 0, None
        if "calais" in data:
            calais = data["calais"]
            if not isinstance(calais, dict) or set(calais) - {"bid", "zone"}:
                raise IllegalActionError("orders.calais", 'must be {"bid": N, "zone": ZONE}')
            bid = _int(calais.get("bid", 0), "orders.calais.bid")
            zone = calais.get("zone")
            if zone is not None and not isinstance(zone, str):
                raise IllegalActionError(
                    "orders.calais.zone", f"must be a zone id, not {_shown(zone)}"
                )

        def mapping(name: str) -> dict[str, Any]:
            value = data.get(name, {})
            what, each = _PARTS[name]
            if not isinstance(value, dict):
                raise IllegalActionError(f"orders.{name}", f"must map {what}, not {_shown(value)}")
            for key, item in value.items():
                if each == "a whole number":
                    _int(item, f"orders.{name}.{key}")
                elif not isinstance(item, str) or (name == "bribes" and item not in CUBES):
                    raise IllegalActionError(
                        f"orders.{name}.{key}", f"must be {each}, not {_shown(item)}"
                    )
            return dict(value)

        return cls(
            calais_bid=bid,
            calais_zone=zone,
            noble_moves=mapping("noble_moves"),
            ship_moves=mapping("ship_moves"),
            troops=mapping("troops"),
            mercenaries=mapping("mercenaries"),
            bribes=mapping("bribes"),
        )


# Each part of a plan's JSON form: what it maps, and what each value must be.
_PARTS: Final = {
    "calais": ("", ""),
    "noble_moves": ("nobles to zones", "a zone id"),
    "ship_moves": ("ships to sea zones", "a sea zone id"),
    "troops": ("Locations to numbers of troops", "a whole number"),
    "mercenaries": ("Locations to numbers of mercenaries", "a whole number"),
    "bribes": ("Personalities to cube colours", '"white" or "black"'),
}


def _shown(value: object) -> str:
    return json.dumps(value, default=repr)


def _int(value: object, field_name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalActionError(field_name, f"must be a whole number, not {_shown(value)}")
    return value


Action = Pick | FrenchAid | Unseal | Orders

ACTION_FORMS: Final = (
    '{"pick": CARD}, {"french_aid": true|false}, {"unseal": true} or {"orders": {...}}'
)


def action_from_json(data: object) -> Action:
    """The one parser of actions, for records, terminals and clients. Raises
    ``IllegalActionError`` naming the field at fault; it only reads ``data``."""
    if not isinstance(data, dict):
        raise IllegalActionError("action", f"must be a JSON object: {ACTION_FORMS}")
    if len(data) != 1:
        names = ", ".join(sorted(map(str, data))) or "nothing"
        raise IllegalActionError("action", f"must hold exactly one action, not {names}: "
                                 f"{ACTION_FORMS}")  # fmt: skip
    ((key, value),) = data.items()
    if key == "pick":
        if not isinstance(value, str):
            raise IllegalActionError("pick", f"must be a card id, not {_shown(value)}")
        return Pick(value)
    if key == "french_aid":
        if not isinstance(value, bool):
            raise IllegalActionError("french_aid", f"must be true or false, not {_shown(value)}")
        return FrenchAid(value)
    if key == "unseal":
        if value is not True:
            raise IllegalActionError("unseal", f"must be true, not {_shown(value)}")
        return Unseal()
    if key == "orders":
        return Orders.from_json(value)
    raise IllegalActionError("action", f"unknown action {key!r}: {ACTION_FORMS}")
