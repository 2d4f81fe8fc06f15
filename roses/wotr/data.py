"""Component data: the board, cards and charts, loaded from one JSON file and checked.

The rulebook's board and charts were pictures its text lost, so every component datum
lives in ``data/board.json``; values not known from the rules are listed in each object's
``provisional`` key (docs/wotr-board-data.md says how they were chosen). A user with the
physical game loads their own file with ``load_board(path)``. Structure is checked by
pydantic, meaning (cross references, pairings, symmetry) by ``_check_meaning``; both
report every fault as a ``Problem`` naming the key, the value and why.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import BoardDataError, Problem
from .maplayout import MapLayout, check_map
from .text import Phrase, phrase

FORMAT: Final = "roses/wotr-board/1"
TURNS: Final = 5

IconKind = Literal["castle", "large_town", "bishop", "town", "port", "ship"]
LocationKind = Literal["castle", "large_town", "town", "port"]
ICON_KINDS: Final[tuple[IconKind, ...]] = (
    "castle",
    "large_town",
    "bishop",
    "town",
    "port",
    "ship",
)
LOCATION_KINDS: Final = frozenset({"castle", "large_town", "town", "port"})
PERSONALITY_KINDS: Final = frozenset({"noble", "bishop", "ship"})
INCOME_KINDS: Final = frozenset({"large_town", "town", "bishop", "port", "ship"})
# WR-3: the control-point chart, left to right; nobles (and Calais) rank above all icons.
CHART_ORDER: Final[tuple[str, ...]] = ("noble", *ICON_KINDS)

NonNegative = Field(ge=0)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    provisional: tuple[str, ...] = ()


class ZoneModel(_Model):
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    votes: int = NonNegative
    vp: tuple[int, int]
    land: tuple[str, ...]


class SeaModel(_Model):
    id: str = Field(min_length=1)
    zone: str


class IconModel(_Model):
    id: str = Field(min_length=1)
    kind: IconKind
    name: str = Field(min_length=1)
    zone: str
    income: int = Field(default=0, ge=0)
    cathedral: bool = False
    see: str | None = None  # a bishop's cathedral town
    sea: str | None = None  # a port's home sea zone
    port: str | None = None  # a ship's home port


class NobleModel(_Model):
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    cp: int = Field(ge=1)
    home: str


class TroopsModel(_Model):
    cost: int = Field(ge=1)
    per_player: int = Field(ge=0)
    mercenary_tokens: int = Field(ge=0)
    mercenary_cards: int = Field(ge=0)
    mercenaries_per_card: tuple[int, int, int, int, int]


class CalaisModel(_Model):
    name: str = Field(min_length=1)
    cp: int = Field(ge=1)
    vp: int = Field(ge=0)
    zones: tuple[str, ...] = Field(min_length=1)


class AwardModel(_Model):
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    counts: Literal["castle", "bishop", "port", "ship"]
    vp: int = Field(ge=0)


class BoardModel(_Model):
    format: Literal["roses/wotr-board/1"]
    title: str
    control_points: dict[IconKind, int]
    garrisons: dict[LocationKind, int]
    zones: tuple[ZoneModel, ...] = Field(min_length=1)
    seas: tuple[SeaModel, ...] = Field(min_length=1)
    icons: tuple[IconModel, ...]
    nobles: tuple[NobleModel, ...]
    troops: TroopsModel
    calais: CalaisModel
    awards: tuple[AwardModel, ...]
    map: MapLayout | None = None  # None: the project's map, if it fits this board


def _key(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(file)"


def _lookup(raw: Any, loc: tuple[int | str, ...]) -> object:
    value = raw
    for part in loc:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    return value


@dataclass(frozen=True)
class Icon:
    """A board icon with its card: a Location (castle, towns, port) or a bishop or ship."""

    id: str
    kind: IconKind
    name: str
    zone: str
    cp: int
    income: int
    garrison: int  # 0 for personalities
    cathedral: bool
    see: str | None
    sea: str | None
    port: str | None

    @property
    def is_location(self) -> bool:
        return self.kind in LOCATION_KINDS


@dataclass(frozen=True)
class Noble:
    id: str
    name: str
    cp: int
    home: str


@dataclass(frozen=True)
class Zone:
    id: str
    name: str
    votes: int
    vp_first: int
    vp_second: int
    land: frozenset[str]
    seas: tuple[str, ...]


@dataclass(frozen=True)
class Award:
    id: str
    name: str
    counts: str  # the icon kind it counts
    vp: int


@dataclass(frozen=True)
class BoardData:
    """The validated component data with the lookup tables the engine needs."""

    model: BoardModel
    zones: tuple[Zone, ...]
    icons: dict[str, Icon]
    nobles: dict[str, Noble]
    sea_order: tuple[str, ...]  # WR-5: the open chain of sea zones
    sea_zone: dict[str, str]  # sea zone -> the land zone it counts for
    awards: tuple[Award, ...]
    mercenary_cards: tuple[str, ...]
    map_layout: MapLayout  # where to draw each zone, sea zone and icon (``maplayout``)
    provisional: tuple[str, ...] = field(default=())  # dotted keys of provisional values

    @property
    def title(self) -> str:
        return self.model.title

    @cached_property
    def zone(self) -> dict[str, Zone]:
        return {zone.id: zone for zone in self.zones}

    @cached_property
    def deck(self) -> tuple[str, ...]:
        """Every card: the icons' and nobles' cards, then the mercenary cards (WR-4)."""
        return (*self.icons, *self.nobles, *self.mercenary_cards)

    @cached_property
    def sea_index(self) -> dict[str, int]:
        return {sea: index for index, sea in enumerate(self.sea_order)}

    def sea_distance(self, a: str, b: str) -> int:
        return abs(self.sea_index[a] - self.sea_index[b])

    def icons_of(self, kind: str) -> tuple[Icon, ...]:
        return tuple(icon for icon in self.icons.values() if icon.kind == kind)

    def zone_icon(self, zone: str, kind: str) -> Icon:
        return next(i for i in self.icons.values() if i.zone == zone and i.kind == kind)

    def is_personality(self, card: str) -> bool:
        return card in self.nobles or (card in self.icons and not self.icons[card].is_location)

    def card_name(self, card: str) -> str:
        if card in self.icons:
            return self.icons[card].name
        if card in self.nobles:
            return self.nobles[card].name
        return "Mercenaries"

    def sea_name(self, sea: str) -> Phrase:
        """A sea zone in words: "the sea off Wales"; a zone with two seas has a west one and
        an east one, the chain (WR-5) running from the north-west round to the north-east."""
        zone = self.zone[self.sea_zone[sea]]
        if len(zone.seas) == 1:
            return phrase("the sea off {zone}", zone=zone.name)
        if zone.seas.index(sea) == 0:
            return phrase("the west sea off {zone}", zone=zone.name)
        return phrase("the east sea off {zone}", zone=zone.name)

    def card_kind(self, card: str) -> str:
        if card in self.icons:
            return self.icons[card].kind
        return "noble" if card in self.nobles else "mercenary"

    def mercenaries_for_turn(self, turn: int) -> int:
        return self.model.troops.mercenaries_per_card[turn - 1]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = self.model.model_dump(mode="json", exclude_defaults=True)
        data["format"] = FORMAT
        data["map"] = self.map_layout.to_json()
        return data


def _duplicates(ids: list[str]) -> Iterator[str]:
    seen: set[str] = set()
    for item in ids:
        if item in seen:
            yield item
        seen.add(item)


def _check_meaning(model: BoardModel, layout: MapLayout) -> list[Problem]:
    """Cross references and pairings that a schema cannot say."""
    problems: list[Problem] = []

    def bad(key: str, value: object, why: str) -> None:
        problems.append(Problem(key, value, why))

    zone_ids = [zone.id for zone in model.zones]
    sea_ids = [sea.id for sea in model.seas]
    all_ids = [*[i.id for i in model.icons], *[n.id for n in model.nobles]]
    for duplicate in _duplicates(zone_ids):
        bad("zones", duplicate, "zone id used twice")
    for duplicate in _duplicates(sea_ids):
        bad("seas", duplicate, "sea zone id used twice")
    for duplicate in _duplicates(all_ids):
        bad("icons/nobles", duplicate, "card id used twice")
    for kind in ICON_KINDS:
        if kind not in model.control_points:
            bad("control_points", kind, "missing the CP of this icon kind")
    for location_kind in sorted(LOCATION_KINDS):
        if location_kind not in model.garrisons:
            bad("garrisons", location_kind, "missing the garrison of this location kind")

    _check_provisional(model, bad)
    zones = set(zone_ids)
    icons = {icon.id: icon for icon in model.icons}
    for z, zone in enumerate(model.zones):
        if zone.vp[0] < zone.vp[1]:
            bad(f"zones[{z}].vp", list(zone.vp), "the first's VP must not be below the second's")
        for other in zone.land:
            if other not in zones:
                bad(f"zones[{z}].land", other, "no such zone")
            elif other == zone.id:
                bad(f"zones[{z}].land", other, "a zone is not adjacent to itself")
            elif zone.id not in next(o.land for o in model.zones if o.id == other):
                bad(f"zones[{z}].land", other, f"{other} does not list {zone.id} back")
        kinds = [icon.kind for icon in model.icons if icon.zone == zone.id]
        for kind in ICON_KINDS:
            if kinds.count(kind) != 1:
                bad(f"zones[{z}]", zone.id, f"has {kinds.count(kind)} icons of kind {kind}, not 1")
        if not any(sea.zone == zone.id for sea in model.seas):
            bad(f"zones[{z}]", zone.id, "has no sea zone (WR-5: every zone touches the sea)")
    for s, sea in enumerate(model.seas):
        if sea.zone not in zones:
            bad(f"seas[{s}].zone", sea.zone, "no such zone")
    for i, icon in enumerate(model.icons):
        key = f"icons[{i}]"
        if icon.zone not in zones:
            bad(f"{key}.zone", icon.zone, "no such zone")
        if icon.kind == "castle" and icon.income:
            bad(f"{key}.income", icon.income, "royal castles give no income (WR-9)")
        if icon.cathedral and icon.kind not in ("town", "large_town"):
            bad(f"{key}.cathedral", True, "only towns and large towns are cathedral towns")
        _check_link(icon, "see", "bishop", icons, f"{key}.see", bad)
        _check_link(icon, "sea", "port", None, f"{key}.sea", bad)
        _check_link(icon, "port", "ship", icons, f"{key}.port", bad)
        if icon.kind == "bishop" and icon.see in icons:
            see = icons[icon.see]
            if not see.cathedral:
                bad(f"{key}.see", icon.see, "is not marked as a cathedral town")
            if see.zone != icon.zone:
                bad(
                    f"{key}.see",
                    icon.see,
                    f"lies in {see.zone}, not beside the bishop in {icon.zone}",
                )
        if icon.kind == "port" and icon.sea is not None:
            owner = next((sea.zone for sea in model.seas if sea.id == icon.sea), None)
            if owner is None:
                bad(f"{key}.sea", icon.sea, "no such sea zone")
            elif owner != icon.zone:
                bad(f"{key}.sea", icon.sea, f"is off {owner}, not off the port's zone {icon.zone}")
        if icon.kind == "ship" and icon.port in icons and icons[icon.port].zone != icon.zone:
            bad(f"{key}.zone", icon.zone, f"differs from its port's zone {icons[icon.port].zone}")
    for i, icon in enumerate(model.icons):
        if icon.cathedral and not any(b.see == icon.id for b in model.icons if b.kind == "bishop"):
            bad(f"icons[{i}].cathedral", True, "no bishop names this town as its see")
    for n, noble in enumerate(model.nobles):
        if noble.home not in zones:
            bad(f"nobles[{n}].home", noble.home, "no such zone")
    for zone_id in model.calais.zones:
        if zone_id not in zones:
            bad("calais.zones", zone_id, "no such zone")
    for duplicate in _duplicates([award.id for award in model.awards]):
        bad("awards", duplicate, "award id used twice")
    land = {zone.id: zone.land for zone in model.zones}
    check_map(layout, land, sea_ids, {icon.id: icon.zone for icon in model.icons}, bad)
    draws = 12 + 8 * (TURNS - 1)  # WR-7: the most cards any player count lays out
    deck = len(model.icons) + len(model.nobles) + model.troops.mercenary_cards
    if deck < max(draws, 9 * TURNS):
        bad("icons/nobles/troops.mercenary_cards", deck, f"a deck of {deck} cards is too small")
    return problems


def _check_link(
    icon: IconModel,
    attribute: str,
    kind: str,
    icons: dict[str, IconModel] | None,
    key: str,
    bad: Any,
) -> None:
    """``attribute`` is required on icons of ``kind`` (and must name an icon) and nowhere else."""
    value = getattr(icon, attribute)
    if icon.kind != kind:
        if value is not None:
            bad(key, value, f"only a {kind} has '{attribute}'")
        return
    if value is None:
        bad(key, None, f"a {kind} must name its {attribute}")
    elif icons is not None and value not in icons:
        bad(key, value, "no such icon")
    elif icons is not None:
        wanted = {"see": "town", "port": "port"}[attribute]
        if icons[value].kind not in (wanted, "large_town" if wanted == "town" else wanted):
            bad(key, value, f"is a {icons[value].kind}, not a {wanted}")


def _check_provisional(model: BoardModel, bad: Any) -> None:
    def check(obj: _Model, key: str) -> None:
        for name in obj.provisional:
            if name == "provisional" or name not in type(obj).model_fields:
                bad(f"{key}.provisional", name, "names no key of this object")

    check(model, "(file)")
    check(model.troops, "troops")
    check(model.calais, "calais")
    for group in ("zones", "seas", "icons", "nobles", "awards"):
        for index, obj in enumerate(getattr(model, group)):
            check(obj, f"{group}[{index}]")


def _provisional_keys(model: BoardModel) -> tuple[str, ...]:
    keys = [f"troops.{name}" for name in model.troops.provisional]
    keys += [f"calais.{name}" for name in model.calais.provisional]
    for group in ("zones", "seas", "icons", "nobles", "awards"):
        for obj in getattr(model, group):
            keys += [f"{group}.{obj.id}.{name}" for name in obj.provisional]
    return tuple(keys)


def _build(model: BoardModel, layout: MapLayout) -> BoardData:
    zones = tuple(
        Zone(
            id=zone.id,
            name=zone.name,
            votes=zone.votes,
            vp_first=zone.vp[0],
            vp_second=zone.vp[1],
            land=frozenset(zone.land),
            seas=tuple(sea.id for sea in model.seas if sea.zone == zone.id),
        )
        for zone in model.zones
    )
    garrisons: dict[str, int] = {kind: n for kind, n in model.garrisons.items()}
    icons = {
        icon.id: Icon(
            id=icon.id,
            kind=icon.kind,
            name=icon.name,
            zone=icon.zone,
            cp=model.control_points[icon.kind],
            income=icon.income,
            garrison=garrisons.get(icon.kind, 0),
            cathedral=icon.cathedral,
            see=icon.see,
            sea=icon.sea,
            port=icon.port,
        )
        for icon in model.icons
    }
    return BoardData(
        model=model,
        zones=zones,
        icons=icons,
        nobles={n.id: Noble(n.id, n.name, n.cp, n.home) for n in model.nobles},
        sea_order=tuple(sea.id for sea in model.seas),
        sea_zone={sea.id: sea.zone for sea in model.seas},
        awards=tuple(Award(a.id, a.name, a.counts, a.vp) for a in model.awards),
        mercenary_cards=tuple(f"mercenary-{n}" for n in range(1, model.troops.mercenary_cards + 1)),
        map_layout=layout,
        provisional=_provisional_keys(model),
    )


def parse_board(raw: Any) -> BoardData:
    """Validate decoded JSON; raises ``BoardDataError`` listing every problem found."""
    try:
        # JSON mode keeps strictness (no "3" for 3) while arrays still fill tuples.
        model = BoardModel.model_validate_json(json.dumps(raw))
    except ValidationError as error:
        raise BoardDataError(
            [
                Problem(_key(tuple(e["loc"])), _lookup(raw, tuple(e["loc"])), e["msg"])
                for e in error.errors()
            ]
        ) from None
    # A file without a map (written before maps) gets the project's, if it fits the board.
    layout = model.map or default_board().map_layout
    problems = _check_meaning(model, layout)
    if problems:
        raise BoardDataError(problems)
    return _build(model, layout)


def load_board(path: str | Path | None = None) -> BoardData:
    """The board in ``path``, or the project's default board when ``path`` is None."""
    if path is None:
        return default_board()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        problem = Problem("(file)", str(path), f"cannot read: {error.strerror}")
        raise BoardDataError([problem]) from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise BoardDataError(
            [Problem(f"line {error.lineno} column {error.colno}", str(path), error.msg)]
        ) from None
    return parse_board(raw)


_DEFAULT: list[BoardData] = []


def default_board() -> BoardData:
    """The project's default board (``roses/wotr/data/board.json``), loaded once."""
    if not _DEFAULT:
        text = resources.files("roses.wotr").joinpath("data/board.json").read_text("utf-8")
        _DEFAULT.append(parse_board(json.loads(text)))
    return _DEFAULT[0]


def default_board_json() -> dict[str, Any]:
    """A fresh copy of the default board's JSON, for callers that derive their own board."""
    text = resources.files("roses.wotr").joinpath("data/board.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data
