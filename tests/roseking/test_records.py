"""JSON game records: complete, replayable without our RNG, precise about bad input."""

import json
import random
from pathlib import Path
from typing import Any

import pytest

from roses.roseking import Board, InvalidRecordError, Variant
from roses.roseking.record import dump, load, record_of, replay


def finished_game(seed: int = 2, variant: Variant = Variant.CLASSIC) -> Board:
    board = Board(variant, seed=seed)
    rng = random.Random(seed)
    while not board.is_over():
        board.push(rng.choice(board.legal_moves()))
    return board


def reshuffled_game() -> Board:
    for seed in range(100):
        board = finished_game(seed)
        if board.reshuffles:
            return board
    raise AssertionError("no game with a reshuffle")


def test_record_holds_the_deal_the_shuffles_the_moves_and_the_result() -> None:
    board = reshuffled_game()
    record = record_of(board, ["ann", "bob"])
    assert record["variant"] == "classic"
    assert record["players"] == ["ann", "bob"]
    start = Board.from_position(record["start"])
    assert record["deck"] == [*start.position().split()[3].replace("|", ",").split(","),
                              *start.position().split()[5].split("/")[0].split(",")]  # fmt: skip
    assert len(record["shuffles"]) == len(board.reshuffles) >= 1
    assert record["moves"] == [str(m) for m in board.move_stack]
    assert record["result"]["winner"] in ("red", "white", "draw")


def test_replay_needs_no_random_number_generator() -> None:
    board = reshuffled_game()
    record = record_of(board)
    replayed = replay(json.loads(json.dumps(record)))
    assert replayed.position() == board.position()
    # The replay takes reshuffles from the record, not from any seed.
    record["shuffles"][0] = list(reversed(record["shuffles"][0]))
    try:
        other = replay(record)
    except InvalidRecordError as error:  # a changed pile may make a later move illegal
        assert error.move_index is not None
    else:
        assert other.reshuffles[0] == tuple(reversed(board.reshuffles[0]))


def test_unfinished_games_have_no_result_and_replay() -> None:
    board = Board(Variant.FOUR_PLAYER, seed=1)
    for _ in range(10):
        board.push(board.legal_moves()[0])
    record = record_of(board)
    assert record["result"] is None
    assert replay(record).position() == board.position()


def _bad(record: dict[str, Any]) -> InvalidRecordError:
    with pytest.raises(InvalidRecordError) as caught:
        replay(record)
    return caught.value


def test_the_first_illegal_move_is_reported_by_index_and_reason() -> None:
    record = record_of(finished_game())
    record["moves"][7] = "pass"
    error = _bad(record)
    assert error.move_index == 7
    assert "can still move" in str(error)
    record["moves"][3] = "N9"
    assert _bad(record).move_index == 3


def test_a_reshuffle_that_is_not_the_discard_pile_is_rejected() -> None:
    record = record_of(reshuffled_game())
    record["shuffles"][0] = record["shuffles"][0][1:]
    error = _bad(record)
    assert error.move_index is not None and "not an order of the discard pile" in str(error)


def test_missing_or_extra_reshuffles_are_rejected() -> None:
    record = record_of(reshuffled_game())
    record["shuffles"].append(record["shuffles"][0])
    assert _bad(record).key == "shuffles"
    record["shuffles"] = []
    assert "only 0 are recorded" in str(_bad(record))


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda r: r.pop("start"), "start"),
        (lambda r: r.update(variant="chess"), "variant"),
        (lambda r: r.update(moves="N1"), "moves"),
        (lambda r: r.update(start="9/9 e5"), "start"),
        (lambda r: r["result"].update(winner="nobody"), "result"),
        (lambda r: r.update(deck=list(reversed(r["deck"]))), "deck"),
        (lambda r: r.update(format="other/1"), "format"),
    ],
)
def test_bad_records_name_the_key(change: Any, key: str) -> None:
    record = record_of(finished_game())
    change(record)
    error = _bad(record)
    assert error.key == key
    assert str(error).startswith(key)


def test_load_and_dump(tmp_path: Path) -> None:
    board = finished_game(4)
    path = tmp_path / "game.json"
    dump(record_of(board), path)
    assert replay(load(path)).position() == board.position()
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(InvalidRecordError, match="not JSON"):
        load(tmp_path / "bad.json")
    with pytest.raises(InvalidRecordError, match="cannot read"):
        load(tmp_path / "missing.json")
