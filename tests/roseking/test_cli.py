"""``roses rk``: exact output formats, batch mode, and one-line errors with status 2."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from roses.cli import main
from roses.roseking import Board
from roses.roseking.record import dump, record_of

START = Board(seed=7).position()


def run(args: list[str], capsys: pytest.CaptureFixture[str], stdin: str | None = None):
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        code = main(args)
    finally:
        sys.stdin = sys.__stdin__
    out, err = capsys.readouterr()
    return code, out, err


def test_new_prints_a_start_position(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rk", "new", "--seed", "7"], capsys)
    assert code == 0 and out == START + "\n"
    code, out, _ = run(["rk", "new", "--variant", "four-player", "--seed", "1"], capsys)
    assert out.split()[2] == "r1" and out.count("|") == 6


def test_legal_prints_one_move_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rk", "legal", START], capsys)
    assert code == 0
    expected = sorted(Board.from_position(START).legal_moves(), key=lambda m: m.action_id)
    assert out.splitlines() == [str(m) for m in expected]


def test_apply_prints_the_position_after_the_moves(capsys: pytest.CaptureFixture[str]) -> None:
    board = Board.from_position(START)
    first = board.legal_moves()[0]
    board.push(first)
    second = board.legal_moves()[0]
    board.push(second)
    code, out, _ = run(["rk", "apply", START, str(first), str(second)], capsys)
    assert code == 0 and out.strip() == board.position()


def test_score_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rk", "score", START], capsys)
    assert code == 0
    assert json.loads(out) == {
        "over": False,
        "winner": None,
        "red": {"score": 0, "largest": 0, "stones": 0},
        "white": {"score": 0, "largest": 0, "stones": 0},
    }


def test_batch_mode_writes_one_line_per_input_line(capsys: pytest.CaptureFixture[str]) -> None:
    positions = [Board(seed=s).position() for s in range(5)]
    code, out, _ = run(["rk", "legal"], capsys, "\n".join(positions) + "\n")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 5
    assert lines[0].split() == [m for m in run(["rk", "legal", positions[0]], capsys)[1].split()]
    code, out, _ = run(["rk", "score"], capsys, "\n".join(positions) + "\n")
    assert [json.loads(line)["over"] for line in out.splitlines()] == [False] * 5


def test_batch_apply_applies_the_moves_to_every_line(capsys: pytest.CaptureFixture[str]) -> None:
    positions = [Board(seed=s).position() for s in range(3)]
    code, out, err = run(["rk", "apply", "draw"], capsys, "\n".join(positions) + "\n")
    assert len(out.splitlines()) == 3
    assert all(line.startswith("error: ") for line in out.splitlines())  # full hands
    assert code == 2 and err.count("\n") == 1 and "line 1" in err


def test_batch_mode_keeps_going_past_a_bad_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["rk", "legal"], capsys, f"{START}\nnonsense\n{START}\n")
    lines = out.splitlines()
    assert len(lines) == 3 and lines[1].startswith("error: ") and lines[0] == lines[2]
    assert code == 2 and err.startswith("error: line 2:")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rk", "legal", "9/9 e5"], "bad position"),
        (["rk", "apply", START, "N9"], "not a move"),
        (["rk", "apply", START, "pass"], "move 1 (pass)"),
        (["rk", "new", "--variant", "chess"], "unknown variant"),
        (["rk", "score", "--bogus"], "No such option"),
        (["rk", "replay", "/no/such/file.json"], "cannot read"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(args, capsys)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err


def test_replay_prints_the_final_position_and_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = Board(seed=3)
    while not board.is_over():
        board.push(board.legal_moves()[-1])
    dump(record_of(board), tmp_path / "game.json")
    code, out, _ = run(["rk", "replay", str(tmp_path / "game.json")], capsys)
    assert code == 0
    position, result = out.splitlines()
    assert position == board.position()
    assert json.loads(result)["over"] is True


def test_bench_prints_the_speed_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rk", "bench", "--games", "20"], capsys)
    assert code == 0
    figures = json.loads(out)
    assert set(figures) == {"games", "seconds", "games_per_s", "plies_per_s"}
    assert figures["games"] == 20 and figures["games_per_s"] > 0


def test_the_installed_command_runs_without_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "roses", "rk", "legal", "garbage"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and "Traceback" not in done.stderr
