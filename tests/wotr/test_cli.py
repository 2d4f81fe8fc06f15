"""``roses wotr``: board check and show, simulate, replay, and hot-seat play in which no
player sees another's plan (WR-20)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from roses.bots.wotr import make_wotr_bot
from roses.cli import main
from roses.cli.wotr.hotseat import CLEAR, edit_orders, play_hotseat
from roses.wotr.actions import Orders
from roses.wotr.data import default_board_json
from roses.wotr.game import Game
from roses.wotr.record import load


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_board_check_accepts_the_default_board(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(default_board_json()), encoding="utf-8")
    code, out, _ = run(["wotr", "board", "check", str(path)], capsys)
    assert code == 0 and out.startswith(f"{path}: ok (") and "provisional values)" in out


def test_board_check_lists_every_problem(tmp_path: Path, capsys: Any) -> None:
    data = default_board_json()
    data["zones"][2]["votes"] = "eight"
    data["nobles"][0]["home"] = "Scotland"
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(["wotr", "board", "check", str(path)], capsys)
    assert code == 2
    assert "zones[2].votes: 'eight': Input should be a valid integer" in out
    assert err.strip() == f"error: {path}: 1 problem"
    data["zones"][2]["votes"] = 8
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(["wotr", "board", "check", str(path)], capsys)
    assert out.strip() == "nobles[0].home: 'Scotland': no such zone"


def test_board_show_marks_provisional_values(capsys: Any) -> None:
    code, out, _ = run(["wotr", "board", "show"], capsys)
    assert code == 0
    assert "* = provisional" in out
    assert "Newcastle*" in out and "Pontefract*" not in out
    code, out, _ = run(["wotr", "board", "show", "--json"], capsys)
    assert json.loads(out)["format"] == "roses/wotr-board/1"


def test_board_show_reads_a_users_file(tmp_path: Path, capsys: Any) -> None:
    data = default_board_json()
    data["zones"][0]["name"] = "The Borders"
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = run(["wotr", "board", "show", "--board", str(path)], capsys)
    assert code == 0 and "The Borders" in out


def test_simulate_prints_win_rates_and_vp_sources(tmp_path: Path, capsys: Any) -> None:
    args = ["wotr", "simulate", "--players", "4", "--bots", "heuristic,heuristic,random,random",
            "--games", "3", "--seed", "1", "--records", str(tmp_path)]  # fmt: skip
    code, out, _ = run(args, capsys)
    assert code == 0
    assert "3 games, 4 players" in out and "win rate" in out and "church" in out
    assert out.count("heuristic") == 2 and out.count("random") == 2
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 3
    code, out, _ = run(["wotr", "replay", str(records[0])], capsys)
    assert code == 0 and json.loads(out)["result"] == load(records[0])["result"]
    again = tmp_path / "again"
    run([*args[:-1], str(again)], capsys)
    assert load(again / records[0].name) == load(records[0])  # the seed fixes the games


def test_simulate_rejects_bad_options(capsys: Any) -> None:
    code, _, err = run(["wotr", "simulate", "--players", "5"], capsys)
    assert code == 2 and "2, 3 or 4" in err
    code, _, err = run(["wotr", "simulate", "--bots", "random,smart"], capsys)
    assert code == 2 and "--bots names 2 players" in err
    code, _, err = run(["wotr", "simulate", "--players", "2", "--bots", "random,smart"], capsys)
    assert code == 2 and "unknown bot 'smart'" in err


def test_planning_commands_build_orders() -> None:
    orders = Orders()
    commands = [
        "bid 4 se",
        "move stafford wc",
        "sail ship-of-sandwich MI-sea",
        "troops windsor 2",
        "mercs windsor 1",
        "white stafford",
        "black neville",
    ]
    for command in commands:
        orders = edit_orders(orders, command)
    assert orders == Orders(4, "SE", {"stafford": "WC"}, {"ship-of-sandwich": "MI-sea"},
                            {"windsor": 2}, {"windsor": 1},
                            {"stafford": "white", "neville": "black"})  # fmt: skip
    for command in ("troops windsor 0", "unbribe neville", "unmove stafford", "bid 0 SE"):
        orders = edit_orders(orders, command)
    assert orders.troops == {} and orders.noble_moves == {} and orders.calais_bid == 0
    with pytest.raises(ValueError, match="unknown command"):
        edit_orders(orders, "attack london")
    with pytest.raises(ValueError, match="not a whole number"):
        edit_orders(orders, "troops windsor many")


class Script:
    """Answers the hot-seat prompts: the first card, no French Aid, simple plans."""

    def __init__(self) -> None:
        self.output: list[str] = []
        self.plans = 0

    def read(self, prompt: str) -> str:
        self.output.append(prompt)
        if "pick a card" in prompt:
            return "1"
        if "French Aid" in prompt:
            return "n"
        if "Hand the keyboard" in prompt:
            return ""
        self.plans += 1
        return ["troops london 1", "troops nowhere 1", "show", "done"][(self.plans - 1) % 4]

    def write(self, text: str) -> None:
        self.output.append(text)


def test_hot_seat_plays_a_whole_game_with_hidden_planning() -> None:
    script = Script()
    game = play_hotseat(Game(2, seed=4), [None, None], script.read, script.write)
    assert game.is_over()
    assert script.output[-1].startswith("Game over:")
    text = "\n".join(script.output)
    assert "is not a Location" in text  # a bad order is refused with the reason
    # Each player's planning starts on a cleared screen after the hand-over, and the
    # screen is cleared again when their orders are sealed.
    for index, line in enumerate(script.output):
        if "Hand the keyboard" in line:
            assert script.output[index - 1] == CLEAR
        if line.endswith("orders are sealed."):
            assert script.output[index - 1] == CLEAR


def test_hot_seat_with_a_bot_and_quitting() -> None:
    answers = iter(["2", "quit"])
    output: list[str] = []
    bot = make_wotr_bot("random", seed=1)
    game = play_hotseat(Game(2, seed=9), [None, bot], lambda _: next(answers), output.append)
    assert not game.is_over() and output[-1] == "Game left unfinished."
    assert any("Cards laid out:" in line for line in output)
