"""``roses wotr match``: bot A in one rotating seat against bot B in the others, each
game logged as it finishes, resumable, with the Wilson interval and seconds per decision."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from roses.bots.matches import wilson_interval
from roses.bots.wotr.matches import WotrMatchConfig, game_seed, play_game
from roses.cli import main


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def log_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_tiny_match_prints_its_figures_and_logs_every_game(tmp_path: Path, capsys: Any) -> None:
    log = tmp_path / "match.jsonl"
    args = ["wotr", "match", "heuristic", "random", "--players", "3", "--games", "3",
            "--seed", "4", "--log", str(log)]  # fmt: skip
    code, out, _ = run(args, capsys)
    assert code == 0, out
    header, *games = log_lines(log)
    assert header["match"] == {"bot_a": "heuristic", "bot_b": "random", "players": 3,
                               "games": 3, "seed": 4, "time_limit": None,
                               "time_limit_b": None}  # fmt: skip
    assert sorted(g["game"] for g in games) == [0, 1, 2]
    assert sorted(g["a_seat"] for g in games) == [0, 1, 2]  # bot A in each seat once
    wins = sum(g["points_a"] for g in games)
    low, high = wilson_interval(wins, 3)
    assert f"wins {wins:g} of 3" in out
    assert f"win share {wins / 3:.3f}  95% CI [{low:.3f}, {high:.3f}]" in out
    assert "(fair share 0.333)" in out
    assert "seconds per decision: heuristic 0.0" in out and ", random 0.0" in out


def test_the_same_command_resumes_the_match(tmp_path: Path, capsys: Any) -> None:
    log = tmp_path / "match.jsonl"
    args = ["wotr", "match", "random", "heuristic", "--games", "2", "--log", str(log)]
    assert run(args, capsys)[0] == 0
    first = log_lines(log)
    # A longer match with the same command plays only the new games...
    code, out, err = run([*args[:4], "--games", "4", *args[6:]], capsys)
    assert code == 0
    assert "2 games played before" in err and "4 games" in out
    again = log_lines(log)
    assert again[:3] == first and sorted(g["game"] for g in again[1:]) == [0, 1, 2, 3]
    # ...and the finished match plays nothing more.
    code, out, _ = run([*args[:4], "--games", "4", *args[6:]], capsys)
    assert code == 0 and log_lines(log) == again


def test_the_default_log_is_named_after_the_match(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["wotr", "match", "search", "random", "--games", "1", "--time", "0.02", "--jobs", "2"]
    assert run(args, capsys)[0] == 0
    path = tmp_path / "wotr-matches" / "search-vs-random-2p-seed0-0.02s.jsonl"
    assert [g.get("game") for g in log_lines(path)] == [None, 0]


def test_a_log_of_another_match_is_refused(tmp_path: Path, capsys: Any) -> None:
    log = tmp_path / "match.jsonl"
    assert run(["wotr", "match", "random", "random", "--games", "1", "--log", str(log)],
               capsys)[0] == 0  # fmt: skip
    code, _, err = run(["wotr", "match", "random", "random", "--games", "1", "--seed", "9",
                        "--log", str(log)], capsys)  # fmt: skip
    assert code != 0 and "holds another match" in err
    log.write_text("not json\n", encoding="utf-8")
    code, _, err = run(["wotr", "match", "random", "random", "--log", str(log)], capsys)
    assert code != 0 and "is not a match log" in err


def test_bad_names_and_player_counts_are_refused(capsys: Any) -> None:
    code, _, err = run(["wotr", "match", "clever", "random"], capsys)
    assert code != 0 and "unknown bot 'clever'" in err
    code, _, err = run(["wotr", "match", "random", "random", "--players", "5"], capsys)
    assert code != 0 and "2, 3 or 4" in err


def test_each_deal_is_played_from_every_seat() -> None:
    config = WotrMatchConfig("heuristic", "random", players=4, games=8, seed=3)
    results = [play_game(config, index) for index in range(4)]
    assert [r.a_seat for r in results] == [0, 1, 2, 3]
    assert len({game_seed(3, index, 4) for index in range(4)}) == 1
    assert game_seed(3, 4, 4) != game_seed(3, 3, 4)
    for result in results:
        assert result.decisions[0] > 0 and result.decisions[1] > result.decisions[0]
        assert 0 <= result.points_a <= 1


def test_time_odds_give_bot_b_its_own_seconds(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["wotr", "match", "search", "search", "--games", "1", "--time", "0.05",
            "--time-b", "0.02"]  # fmt: skip
    code, out, _ = run(args, capsys)
    assert code == 0 and "0.05 s/decision vs 0.02 s/decision" in out
    path = tmp_path / "wotr-matches" / "search-vs-search-2p-seed0-0.05s-vs-0.02s.jsonl"
    assert log_lines(path)[0]["match"]["time_limit_b"] == 0.02
