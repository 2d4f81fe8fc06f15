"""``roses wotr``: board check and show, simulate, replay, and hot-seat play in which no
player sees another's plan (WR-20)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from roses.bots.wotr import make_wotr_bot
from roses.cli import main
from roses.cli.wotr.hotseat import PRIVATE, PUBLIC, edit_orders, play_hotseat
from roses.cli.wotr.render import describe_orders, draw_table
from roses.wotr.actions import Orders, Pick
from roses.wotr.data import default_board, default_board_json
from roses.wotr.game import Game
from roses.wotr.record import load
from roses.wotr.state import Phase

from .helpers import RED, game_at, give


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
    board = default_board()
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
        orders = edit_orders(board, orders, command)
    assert orders == Orders(4, "SE", {"stafford": "WC"}, {"ship-of-sandwich": "MI-sea"},
                            {"windsor": 2}, {"windsor": 1},
                            {"stafford": "white", "neville": "black"})  # fmt: skip
    for command in ("troops windsor 0", "unbribe neville", "unmove stafford", "bid 0 SE"):
        orders = edit_orders(board, orders, command)
    assert orders.troops == {} and orders.noble_moves == {} and orders.calais_bid == 0
    with pytest.raises(ValueError, match="unknown command"):
        edit_orders(board, orders, "attack london")
    with pytest.raises(ValueError, match="not a whole number"):
        edit_orders(board, orders, "troops windsor many")


def test_ids_are_not_case_sensitive_and_sea_zones_are_listed() -> None:
    """WR-5, WR-10 at the terminal: card, zone and sea-zone ids in any case; a wrong sea
    zone is answered with the list of sea zones, which the table also shows."""
    board = default_board()
    orders = Orders()
    for command in ("MOVE Stafford wc", "sail SHIP-OF-SANDWICH mi-SEA", "Troops WINDSOR 2",
                    "BLACK Neville", "bid 3 mi"):  # fmt: skip
        orders = edit_orders(board, orders, command)
    assert orders == Orders(3, "MI", {"stafford": "WC"}, {"ship-of-sandwich": "MI-sea"},
                            {"windsor": 2}, {}, {"neville": "black"})  # fmt: skip
    seas = "NM-west, NE-west, WA-sea, WC-sea, SE-sea, MI-sea, NE-east, NM-east"
    with pytest.raises(ValueError, match=f"no sea zone 'north-sea' \\(sea zones: {seas}\\)"):
        edit_orders(board, orders, "sail ship-of-sandwich north-sea")
    with pytest.raises(ValueError, match="no card 'camelot' on the board"):
        edit_orders(board, orders, "troops camelot 1")
    assert f"Sea zones (WR-5, a chain; ships sail up to 2): {seas}" in draw_table(
        Game(2, seed=1).view(0)
    )


def test_the_terminal_previews_what_a_shortfall_cancels() -> None:
    """WR-11 at the terminal: cost, money left and what deployment would cancel: castles
    by votes, Kenilworth (MI, 8) before Windsor (SE, 7)."""
    game = game_at(money=7)
    give(game.state, RED, "windsor", "kenilworth")
    text = describe_orders(game.view(RED), Orders(troops={"windsor": 2, "kenilworth": 1}))
    assert text.splitlines() == [
        "2 troops on Windsor; 1 troop on Kenilworth.",
        "Cost 9 pounds of your 7; 1 left after deployment.",
        "Short by 2: deployment would cancel 1 troop on Windsor (WR-11).",
    ]


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
        commands = ["troops london 1", "troops bishop-of-durham 1", "show", "done"]
        return commands[(self.plans - 1) % 4]

    def write(self, text: str) -> None:
        self.output.append(text)


def test_hot_seat_plans_only_on_the_alternate_screen() -> None:
    """WR-20 at one terminal: each plan is made on the alternate screen, entered after the
    hand-over and left when the orders are sealed, so nothing of a plan (commands, the
    plan, its cost, the planner's money) is written to the normal screen or its scrollback."""
    script = Script()
    game = play_hotseat(Game(2, seed=4), [None, None], script.read, script.write)
    assert game.is_over()
    assert script.output[-1].startswith("Game over:")
    assert "is not a Location" in "\n".join(script.output)  # bad orders are refused
    private, sections = False, 0
    for index, line in enumerate(script.output):
        if line == PRIVATE:
            assert not private and "Hand the keyboard" in script.output[index - 1]
            private, sections = True, sections + 1
        elif line == PUBLIC:
            assert private and script.output[index + 1].endswith("orders are sealed.")
            private = False
        elif not private:
            for secret in ("plans>", "Cost ", "troop on", "left after deployment", "Orders (WR"):
                assert secret not in line, line
    assert not private and sections == 10  # 2 players x 5 turns


def test_leaving_during_planning_leaves_the_alternate_screen() -> None:
    answers = iter(["1"] * 12 + ["", "troops windsor 1", "quit"])
    output: list[str] = []
    game = play_hotseat(Game(2, seed=4), [None, None], lambda _: next(answers), output.append)
    assert game.phase is Phase.PLANNING
    assert output[-2:] == [PUBLIC, "Game left unfinished."]
    assert output.count(PRIVATE) == output.count(PUBLIC) == 1


def test_hot_seat_with_a_bot_and_quitting() -> None:
    answers = iter(["2", "quit"])
    output: list[str] = []
    bot = make_wotr_bot("random", seed=1)
    game = play_hotseat(Game(2, seed=9), [None, bot], lambda _: next(answers), output.append)
    assert not game.is_over() and output[-1] == "Game left unfinished."
    assert any("Cards laid out:" in line for line in output)


def test_a_card_is_picked_by_its_id_in_any_case() -> None:
    """WR-7 at the terminal: 'WINDSOR' picks windsor."""
    game = Game(2, seed=9)
    seat, card = game.awaiting()[0], game.state.layout[3]
    answers = iter([card.upper(), "quit"])
    play_hotseat(game, [None, None], lambda _: next(answers), lambda _: None)
    assert game.history[0] == (seat, Pick(card))
