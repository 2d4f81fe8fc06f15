"""The state machine (WR-6..WR-17): 5 turns of 8 phases, decisions only where the rules
ask for them, and illegal actions that change nothing."""

from __future__ import annotations

import pytest

from roses.bots.wotr import make_wotr_bot
from roses.bots.wotr.match import bot_game
from roses.wotr import FrenchAid, Game, IllegalActionError, Orders, Phase, Pick
from roses.wotr.data import default_board
from roses.wotr.game import Setup

PHASES = list(Phase)


def test_each_turn_runs_the_8_phases_in_order() -> None:
    game = bot_game([make_wotr_bot("random", seed=s) for s in range(4)], seed=8)
    assert game.phase is Phase.OVER and game.turn == 5
    seen = [(event.turn, PHASES.index(event.phase)) for event in game.state.log]
    assert seen == sorted(seen)  # never back to an earlier phase within a turn
    for turn in range(1, 6):
        phases = {phase for t, phase in seen if t == turn}
        wanted = {Phase.TURN_ORDER, Phase.DRAW, Phase.INCOME, Phase.PLANNING, Phase.PARLIAMENT}
        assert {PHASES.index(p) for p in wanted} <= phases


def test_decisions_are_asked_only_in_draw_income_and_planning() -> None:
    game = Game(3, seed=2)
    asked = set()
    bots = [make_wotr_bot("random", seed=s) for s in range(3)]
    while not game.is_over():
        asked.add(game.phase)
        seat = game.awaiting()[0]
        game.apply(seat, bots[seat].act(game.view(seat)))
    assert asked <= {Phase.DRAW, Phase.INCOME, Phase.PLANNING}
    assert game.awaiting() == ()
    with pytest.raises(IllegalActionError, match="game over"):
        game.apply(0, Orders())


def test_wrong_action_for_the_phase_changes_nothing() -> None:
    game = Game(2, seed=1)
    seat = game.awaiting()[0]
    before = (list(game.state.layout), game.state.pick_index, len(game.history))
    with pytest.raises(IllegalActionError, match=r"^orders: no orders are given in draw cards"):
        game.apply(seat, Orders())
    with pytest.raises(IllegalActionError, match=r"^french_aid: not offered"):
        game.apply(seat, FrenchAid(True))
    assert (list(game.state.layout), game.state.pick_index, len(game.history)) == before
    game.apply(seat, Pick(game.state.layout[0]))
    assert len(game.history) == 1


def test_bad_setups_and_player_counts_are_refused() -> None:
    board = default_board()
    with pytest.raises(IllegalActionError, match=r"^players: 5"):
        Game(5)
    with pytest.raises(IllegalActionError, match=r"^deck:"):
        Game(2, setup=Setup(board.deck[1:], (0, 1), None))
    with pytest.raises(IllegalActionError, match=r"^houses:"):
        Game(4, setup=Setup(board.deck, (0, 1, 2, 3), None))


def test_the_engine_imports_nothing_from_bots_cli_server_or_web() -> None:
    """web -> server -> engines <- bots: the engine stands alone."""
    import ast
    from pathlib import Path

    import roses.wotr

    root = Path(roses.wotr.__file__).parent
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                assert not node.module.startswith(
                    ("roses.bots", "roses.cli", "roses.server", "roses.web")
                ), (path, node.module)
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("roses.") and "wotr" not in a.name
                               for a in node.names), path  # fmt: skip
