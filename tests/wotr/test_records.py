"""Game records: JSON that replays to the same game, and precise errors for bad ones."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from roses.bots.wotr import make_wotr_bot
from roses.bots.wotr.match import bot_game
from roses.wotr.errors import InvalidRecordError
from roses.wotr.record import FORMAT, dump, load, record_of, replay

from .helpers import neville_ten


def finished_record(board: Any = None) -> dict[str, Any]:
    bots = [make_wotr_bot("random", seed=seat) for seat in range(3)]
    return record_of(bot_game(bots, seed=21, board=board))


def test_record_round_trips_through_a_file(tmp_path: Path) -> None:
    record = finished_record()
    assert record["format"] == FORMAT and record["result"] is not None
    path = tmp_path / "game.json"
    dump(record, path)
    game = replay(load(path))
    assert record_of(game) == record


def test_a_record_carries_its_own_board() -> None:
    record = finished_record(neville_ten())
    assert next(n for n in record["board"]["nobles"] if n["id"] == "neville")["cp"] == 10
    assert replay(record).board.nobles["neville"].cp == 10


def test_a_bad_action_is_named_by_its_index() -> None:
    record = finished_record()
    broken = copy.deepcopy(record)
    broken["actions"][3] = {"seat": broken["actions"][3]["seat"], "pick": "atlantis"}
    with pytest.raises(InvalidRecordError, match=r"^action 3: pick: 'atlantis' is not laid out"):
        replay(broken)


def test_a_wrong_result_is_reported() -> None:
    record = finished_record()
    record["result"]["vp"][0] += 1
    with pytest.raises(InvalidRecordError, match=r"^result: says"):
        replay(record)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(format="x"), "^format: unknown format 'x'"),
        (lambda r: r.pop("actions"), "^actions: missing"),
        (lambda r: r["setup"].update(first_order=[0, 0, 1]), "^setup: first_order"),
        (lambda r: r["setup"]["deck"].pop(), "^setup: deck: is not an order"),
        (lambda r: r["board"]["zones"][0].update(votes=-1), r"^board: zones\[0\].votes"),
        (lambda r: r.update(players="three"), "^players: has the wrong type str"),
    ],
)
def test_malformed_records_name_the_key(change: Any, message: str) -> None:
    record = finished_record()
    change(record)
    with pytest.raises(InvalidRecordError, match=message):
        replay(record)


def test_load_reports_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(InvalidRecordError, match="cannot read"):
        load(tmp_path / "none.json")
    (tmp_path / "bad.json").write_text("[1, 2", encoding="utf-8")
    with pytest.raises(InvalidRecordError, match="is not JSON"):
        load(tmp_path / "bad.json")
