"""Component data (WR-1..WR-5, the rules page's "Known data"): the default board file,
its provisional marks, and precise errors for a user's own board file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from roses.wotr.data import default_board, default_board_json, load_board, parse_board
from roses.wotr.errors import BoardDataError
from roses.wotr.maplayout import inside, share_border

from .helpers import board_with


def problems_of(change: Any) -> list[str]:
    with pytest.raises(BoardDataError) as caught:
        board_with(change)
    return [str(problem) for problem in caught.value.problems]


def test_six_zones_in_parliament_order_with_known_votes() -> None:
    """WR-1 and Known data: the zones, their order and their votes."""
    board = default_board()
    assert [z.id for z in board.zones] == ["NM", "NE", "MI", "SE", "WC", "WA"]
    assert {z.id: z.votes for z in board.zones} == {
        "NM": 4, "NE": 9, "MI": 8, "SE": 7, "WC": 6, "WA": 5
    }  # fmt: skip
    assert (board.zone["NE"].vp_first, board.zone["NE"].vp_second) == (9, 6)
    assert (board.zone["SE"].vp_first, board.zone["SE"].vp_second) == (7, 4)


def test_each_zone_has_one_icon_of_each_kind_with_chart_cp_and_garrison() -> None:
    """WR-2: castle 6 CP garrison 3, large town 4/2, bishop 3, town 3/2, port 2/1, ship 2."""
    board = default_board()
    expected = {"castle": (6, 3), "large_town": (4, 2), "bishop": (3, 0), "town": (3, 2),
                "port": (2, 1), "ship": (2, 0)}  # fmt: skip
    for zone in board.zones:
        kinds = sorted(i.kind for i in board.icons.values() if i.zone == zone.id)
        assert kinds == sorted(expected)
    for icon in board.icons.values():
        assert (icon.cp, icon.garrison) == expected[icon.kind]


def test_known_names_sit_in_their_zones() -> None:
    """Known data: the castles, towns and ports the rulebook names."""
    board = default_board()
    where = {icon.name: (icon.zone, icon.kind) for icon in board.icons.values()}
    assert where["Pontefract"] == ("NE", "castle")
    assert where["York"] == ("NE", "large_town")
    assert where["Lincoln"] == ("NE", "town")
    assert where["Kingston"] == ("NE", "port")
    assert where["Windsor"] == ("SE", "castle")
    assert where["London"] == ("SE", "large_town")
    assert where["Winchester"] == ("SE", "town")
    assert where["Sandwich"] == ("SE", "port")
    assert where["Kenilworth"] == ("MI", "castle")
    assert where["King's Lynn"] == ("MI", "port")
    assert where["Carisbrooke"] == ("WC", "castle")
    assert where["Plymouth"] == ("WC", "port")
    assert where["Berwick"] == ("NM", "port")
    assert where["Bamburgh"] == ("NM", "castle")
    assert where["Harlech"] == ("WA", "castle")
    assert where["Ship of Berwick"] == ("NM", "ship")
    assert board.icons["york"].cathedral and board.icons["winchester"].cathedral
    assert board.icons["archbishop-of-york"].see == "york"
    assert board.icons["bishop-of-winchester"].see == "winchester"


def test_nobles_known_ranks_and_deck_of_54() -> None:
    """WR-4 and Known data: 12 nobles, Percy = Plantagenet = 9, Stafford 6 of SE, Herbert 4."""
    board = default_board()
    assert len(board.nobles) == 12
    assert len(board.deck) == 54
    assert board.nobles["percy"].cp == board.nobles["plantagenet"].cp == 9
    assert (board.nobles["stafford"].cp, board.nobles["stafford"].home) == (6, "SE")
    assert board.nobles["herbert"].cp == 4
    assert board.nobles["neville"].cp == 8  # two of three examples; see docs
    assert {"mowbray", "beaufort"} <= set(board.nobles)
    homes = [n.home for n in board.nobles.values()]
    assert all(homes.count(zone.id) == 2 for zone in board.zones)  # WR-2: two per zone


def test_sea_chain_and_land_adjacency() -> None:
    """WR-5: eight sea zones in one open chain; WA and SE not adjacent, WC and SE are.
    Moves are orthogonal only, so MI and WC, the other diagonal pair around the corner
    where WA and SE meet, are not adjacent either (docs/wotr-board-data.md)."""
    board = default_board()
    assert [board.sea_zone[s] for s in board.sea_order] == [
        "NM", "NE", "WA", "WC", "SE", "MI", "NE", "NM"
    ]  # fmt: skip
    assert "SE" not in board.zone["WA"].land and "WA" not in board.zone["SE"].land
    assert "SE" in board.zone["WC"].land
    assert "WC" not in board.zone["MI"].land and "MI" not in board.zone["WC"].land
    pairs = {frozenset((zone.id, other)) for zone in board.zones for other in zone.land}
    assert pairs == {frozenset(p.split("-")) for p in
                     ("NM-NE", "NE-MI", "NE-WA", "MI-WA", "MI-SE", "WA-WC", "WC-SE")}  # fmt: skip
    for zone in board.zones:
        for other in zone.land:
            assert zone.id in board.zone[other].land


def test_the_map_places_every_zone_sea_zone_and_icon() -> None:
    """WR-1, WR-5: a drawable position for each of the six zones, the eight sea zones and
    every icon; each icon inside its zone; each sea anchor at sea."""
    board = default_board()
    layout = board.map_layout
    assert (layout.width, layout.height) == (1000, 1400)
    assert set(layout.zones) == {zone.id for zone in board.zones}
    assert list(layout.seas) == list(board.sea_order)
    assert set(layout.icons) == set(board.icons)
    for icon in board.icons.values():
        assert inside(layout.icons[icon.id], layout.zones[icon.zone].outline), icon.id
    for shape in layout.zones.values():
        assert inside(shape.label, shape.outline) and inside(shape.nobles, shape.outline)
        assert all(0 <= x <= 1000 and 0 <= y <= 1400 for x, y in shape.outline)
    for sea, where in layout.seas.items():
        assert not any(inside(where, shape.outline) for shape in layout.zones.values()), sea
    json.dumps(layout.to_json())  # JSON-ready, and part of the board file
    assert board.to_json()["map"] == layout.to_json()


def test_the_map_looks_like_england_and_wales() -> None:
    """NM on top, WA west of MI, SE south-east; the sea chain (WR-5) runs down the west
    coast, along the south coast and up the east coast."""
    layout = default_board().map_layout
    label = {zone: shape.label for zone, shape in layout.zones.items()}
    assert label["NM"][1] < label["NE"][1] < label["MI"][1] < label["SE"][1]
    assert label["WA"][0] < label["MI"][0] and label["WC"][0] < label["SE"][0]
    assert label["WA"][1] < label["WC"][1] and label["MI"][1] < label["SE"][1]
    anchors = list(layout.seas.values())
    down, up = anchors[:5], anchors[4:]
    assert [y for _, y in down] == sorted(y for _, y in down)
    assert [y for _, y in up] == sorted((y for _, y in up), reverse=True)
    assert all(x < 500 for x, _ in anchors[:4]) and all(x > 500 for x, _ in anchors[5:])


def test_adjacent_zones_share_a_border_and_others_meet_at_most_at_a_corner() -> None:
    """WR-5: outlines of zones adjacent by land share a border; WA-SE and MI-WC, not
    adjacent, touch only at the corner where the four meet (orthogonal moves)."""
    board = default_board()
    shapes = board.map_layout.zones
    for one in board.zones:
        for other in board.zones:
            if one.id != other.id:
                shared = share_border(shapes[one.id].outline, shapes[other.id].outline)
                assert shared == (other.id in one.land), (one.id, other.id)
    corners = [set(shapes[zone].outline) for zone in ("WA", "SE", "MI", "WC")]
    assert len(set.intersection(*corners)) == 1


def test_share_border_is_a_stretch_not_a_corner() -> None:
    square = [(0, 0), (10, 0), (10, 10), (0, 10)]
    assert share_border(square, [(10, 2), (20, 2), (20, 8), (10, 8)])  # part of an edge
    assert not share_border(square, [(10, 10), (20, 10), (20, 20)])  # a corner only
    assert not share_border(square, [(11, 0), (20, 0), (20, 10)])  # a gap


def test_map_faults_are_named() -> None:
    def change(data: dict[str, Any]) -> None:
        layout = data["map"]
        del layout["icons"]["windsor"]
        layout["icons"]["london"] = [100, 100]
        layout["seas"]["SE-sea"] = [700, 1100]
        layout["zones"]["NM"]["label"] = [1200, 10]
        for zone, other in (("MI", "WC"), ("WC", "MI")):
            next(z for z in data["zones"] if z["id"] == zone)["land"].append(other)

    found = problems_of(change)
    assert "map.icons: 'windsor': has no position on the map" in found
    assert "map.icons.london: [100, 100]: lies outside its zone SE" in found
    assert "map.seas.SE-sea: [700, 1100]: lies on land, in SE" in found
    assert "map.zones.NM.label: [1200, 10]: lies outside the 1000 x 1400 map" in found
    assert "map.zones.MI.outline: 'WC': shares no border with WC, which is adjacent by land" in (
        found
    )


def test_provisional_values_are_marked_and_known_ones_are_not() -> None:
    board = default_board()
    marked = set(board.provisional)
    assert "troops.mercenaries_per_card" in marked
    assert "icons.london.income" in marked
    assert "nobles.neville.cp" in marked
    assert "zones.MI.vp" in marked
    assert "zones.NE.vp" not in marked and "zones.SE.vp" not in marked
    assert "nobles.percy.cp" not in marked and "nobles.stafford.home" not in marked


def test_board_json_round_trips() -> None:
    board = default_board()
    assert parse_board(board.to_json()).to_json() == board.to_json()


def test_schema_errors_name_key_value_and_reason() -> None:
    def change(data: dict[str, Any]) -> None:
        data["zones"][1]["votes"] = -2
        data["nobles"][0]["cp"] = "9"
        data["icons"][0]["kind"] = "palace"

    found = problems_of(change)
    assert any(p.startswith("zones[1].votes: -2: ") and "greater than or equal" in p
               for p in found)  # fmt: skip
    assert any(p.startswith("nobles[0].cp: '9': ") for p in found)
    assert any(p.startswith("icons[0].kind: 'palace': ") for p in found)


def test_meaning_errors_are_precise() -> None:
    def change(data: dict[str, Any]) -> None:
        data["zones"][0]["land"].append("SE")  # SE does not list NM back
        data["icons"][0]["income"] = 3  # a castle with income
        data["nobles"][2]["home"] = "XX"
        data["troops"]["provisional"] = ["speed"]

    found = problems_of(change)
    assert "zones[0].land: 'SE': SE does not list NM back" in found
    assert "icons[0].income: 3: royal castles give no income (WR-9)" in found
    assert "nobles[2].home: 'XX': no such zone" in found
    assert "troops.provisional: 'speed': names no key of this object" in found


def test_pairings_are_checked() -> None:
    def change(data: dict[str, Any]) -> None:
        bishop = next(i for i in data["icons"] if i["id"] == "bishop-of-winchester")
        bishop["see"] = "london"  # not a cathedral town
        ship = next(i for i in data["icons"] if i["id"] == "ship-of-sandwich")
        del ship["port"]

    found = problems_of(change)
    assert any("see: 'london': is not marked as a cathedral town" in p for p in found)
    assert any("port: None: a ship must name its port" in p for p in found)
    assert any("cathedral: True: no bishop names this town as its see" in p for p in found)


def test_load_board_reports_unreadable_and_bad_json(tmp_path: Path) -> None:
    with pytest.raises(BoardDataError, match="cannot read"):
        load_board(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"zones": [', encoding="utf-8")
    with pytest.raises(BoardDataError, match="line 1 column"):
        load_board(bad)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(default_board_json()), encoding="utf-8")
    assert load_board(good).to_json() == default_board().to_json()


def test_a_board_file_without_a_map_gets_the_projects_map_if_it_fits() -> None:
    """Files written before maps still load; the project's map must fit their zones."""
    board = board_with(lambda data: data.pop("map"))
    assert board.map_layout == default_board().map_layout
    assert board.to_json()["map"] == default_board().to_json()["map"]

    def renamed(data: dict[str, Any]) -> None:
        data.pop("map")
        data["seas"][0]["id"] = "Irish-sea"

    found = problems_of(renamed)
    assert "map.seas: 'Irish-sea': has no position on the map" in found
    assert "map.seas.NM-west: 'NM-west': names nothing on the board" in found
