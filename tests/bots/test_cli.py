"""``roses rk match``, ``analyse``, ``play --vs`` and ``bench --kernel``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from roses.bots.roseking import make_bot
from roses.cli import main
from roses.cli.roseking.hotseat import play_hotseat
from roses.roseking import Board, Variant
from roses.roseking.record import load, record_of, replay

START = "9/9/9/9/9/9/9/9/9 e5 r N1,E2,S3,SW1,NW2|NE1,NE3,W1,S1,E3 4|4 N2,N3,NE2,E1,SE1,SE2,SE3,S2,SW2,SW3,W2,W3,NW1,NW3/-"  # noqa: E501


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_match_prints_the_summary_and_saves_records_and_plot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plot = tmp_path / "rate.png"
    code, out, err = run(
        capsys, "rk", "match", "greedy", "random", "--games", "4", "--seed", "3",
        "--records", str(tmp_path / "games"), "--plot", str(plot),
    )  # fmt: skip
    assert code == 0, err
    lines = out.strip().splitlines()
    assert lines[0] == "greedy vs random: 4 games (classic, default budget)"
    wins, draws, losses = (int(lines[1].split()[i]) for i in (1, 3, 5))
    assert wins + draws + losses == 4
    assert lines[2].startswith("win rate ") and "95% CI [" in lines[2]
    assert lines[3].startswith("Elo difference ")
    records = sorted((tmp_path / "games").iterdir())
    assert [p.name for p in records] == [f"game-000{i}.json" for i in range(1, 5)]
    for path in records:
        assert replay(load(path)).is_over()
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_match_with_search_bots_and_iterations(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "rk", "match", "mcts", "random", "--games", "2", "--iterations", "10",
        "--variant", "four-player",
    )  # fmt: skip
    assert code == 0, err
    assert out.startswith("mcts vs random: 2 games (four-player, 10 iterations/move)")


def test_match_with_time_odds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "rk", "match", "mcts", "mcts", "--games", "2", "--iterations", "20",
        "--iterations-b", "5",
    )  # fmt: skip
    assert code == 0, err
    assert out.startswith("mcts vs mcts: 2 games (classic, 20 iterations/move vs 5 iterations")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["match", "nobot", "random"], "unknown bot 'nobot'"),
        (["match", "random", "greedy", "--time", "1", "--iterations", "3"], "not both"),
        (["match", "random", "greedy", "--plot", "out.jpg"], ".png"),
        (["match", "mcts", "mcts", "--time-b", "1", "--iterations-b", "3"], "--time-b or"),
        (["match", "random", "greedy", "--variant", "five"], "unknown variant"),
        (["analyse", "not a position"], "bad position"),
        (["play", "--vs", "nobot"], "unknown bot 'nobot'"),
        (["play", "--vs", "random", "--team", "blue"], "unknown team 'blue'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, "rk", *argv)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err


def test_analyse_ranks_every_legal_move(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rk", "analyse", START, "--iterations", "3000")
    assert code == 0, err
    header, *rows, footer = out.strip().splitlines()
    assert header.split() == ["move", "win"]
    assert {row.split()[0] for row in rows} == {"N1", "E2", "S3", "SW1", "NW2"}
    wins = [float(row.split()[1]) for row in rows]
    assert wins == sorted(wins, reverse=True)
    assert footer.startswith("# depth ") and footer.endswith(", estimate")


def test_analyse_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rk", "analyse", START, "--iterations", "400", "--json")
    assert code == 0
    data = json.loads(out)
    assert {item["move"] for item in data["moves"]} == {"N1", "E2", "S3", "SW1", "NW2"}
    assert all(0 <= item["win"] <= 1 for item in data["moves"])
    assert data["team"] == "red" and data["exact"] is False and data["depth"] >= 1


def test_analyse_game_judges_every_move(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = Board(seed=2)
    while moves := board.legal_moves():
        board.push(moves[-1])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of(board)), encoding="utf-8")
    code, out, err = run(capsys, "rk", "analyse-game", str(path), "--iterations", "300")
    assert code == 0, err
    header, *rows = out.strip().splitlines()
    assert header.split() == ["ply", "team", "move", "judgement", "before", "after", "best",
                              "exact"]  # fmt: skip
    assert len(rows) == len(board.move_stack)
    code, out, _ = run(capsys, "rk", "analyse-game", str(path), "--iterations", "300", "--json")
    assert code == 0 and len(json.loads(out)["plies"]) == len(board.move_stack)


def test_analyse_game_reports_a_bad_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "nonsense"}', encoding="utf-8")
    code, _, err = run(capsys, "rk", "analyse-game", str(path))
    assert code == 2 and "format" in err


def test_analyse_refuses_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    board = Board(seed=1)
    while moves := board.legal_moves():
        board.push(moves[0])
    code, _, err = run(capsys, "rk", "analyse", board.position())
    assert code == 2 and "game is over" in err


def test_bench_kernel_prints_the_bench_object(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rk", "bench", "--kernel", "--games", "500")
    assert code == 0
    assert set(json.loads(out)) == {"games", "seconds", "games_per_s", "plies_per_s"}


class Script:
    """A person at the keyboard who plays the first legal move the prompt offers."""

    def __init__(self, *commands: str) -> None:
        self.commands = list(commands)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.commands:
            return self.commands.pop(0)
        return prompt.split("(")[1].split()[0].rstrip("):")


@pytest.mark.parametrize("variant", [Variant.CLASSIC, Variant.FOUR_PLAYER])
def test_person_plays_a_whole_game_against_a_bot(variant: Variant) -> None:
    board = Board(variant, seed=4)
    bots = {seat: make_bot("greedy", seed=seat) for seat in range(board.seats) if seat & 1}
    output: list[str] = []
    read = Script("help", "X9")
    play_hotseat(board, read, output.append, bots=bots)
    assert board.is_over()
    assert all(p.startswith("Red") for p in read.prompts)  # the person is asked only for Red
    assert any("(greedy) plays" in line for line in output)
    assert any(line.startswith("not a move: 'X9'") for line in output)
    assert output[-1].startswith("Game over: ")


def test_undo_takes_back_the_persons_move_and_the_bots_reply() -> None:
    board = Board.from_position(START, seed=1)
    bots = {1: make_bot("greedy", seed=0)}
    output: list[str] = []
    play_hotseat(board, Script("N1", "undo", "quit"), output.append, bots=bots)
    assert board.move_stack == []
    assert any(line.startswith("Took back N1 ") for line in output)


def test_undo_refuses_after_a_draw() -> None:
    four_cards = START.replace("N1,E2,S3,SW1,NW2", "N1,E2,S3,SW1").replace("/-", "/NW2")
    board = Board.from_position(four_cards, seed=1)
    bots = {1: make_bot("greedy", seed=0)}
    output: list[str] = []
    play_hotseat(board, Script("draw", "undo", "quit"), output.append, bots=bots)
    assert "A drawn card cannot be taken back (RK-19)." in output
    assert str(board.move_stack[0]) == "draw"


def test_play_vs_from_the_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, out, err = run(capsys, "rk", "play", "--vs", "greedy", "--team", "white", "--seed", "2")
    assert code == 0, err
    assert "(greedy) plays" in out and "Game left unfinished." in out


def test_analyse_with_a_time_budget(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rk", "analyse", START, "--time", "0.1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert len(data["moves"]) == 5 and data["depth"] >= 2
