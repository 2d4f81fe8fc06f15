"""The planning form's running preview (roses/web/wotr/plan.js, run by Node) says what the
engine's preview says for the same plan: the cost, the money left and, per WR-11, what a
shortfall cancels."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from roses.games.wotr import WOTR
from roses.wotr import Game, Orders, Phase

WEB = Path(__file__).resolve().parents[2] / "roses" / "web" / "wotr"
NODE = shutil.which("node")

RUN = """
import { readFileSync } from "node:fs";
import { payment, planFromJson } from "./plan.js";
const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const results = cases.map(([orders, planning]) => payment(planFromJson(orders), planning));
console.log(JSON.stringify(results));
"""


def plans(game: Game, seat: int, rng: random.Random) -> list[tuple[Any, Any, Any]]:
    """Random plans of ``seat`` now, the form's inputs for each and the engine's preview."""
    view = WOTR.view(game, seat)
    state = view["state"]
    planning = {  # as play.js builds it
        **state["planning_options"],
        "money": state["money"][seat],
        "mercenaries": state["mercenaries"][seat],
        "pay_order": view["pay_order"],
    }
    found = []
    for _ in range(15):
        plan = WOTR.fallback_action(WOTR.bot_input(game, seat), rng)
        orders = WOTR.action_json(plan)["orders"]
        # Short of money on purpose, often: more troops than the purse allows.
        for location in list(orders.get("troops", {}))[:2]:
            orders["troops"][location] += rng.randint(0, 6)
        found.append((orders, planning, game.view(seat).preview(Orders.from_json(orders))))
    return found


def cases(rng: random.Random) -> list[tuple[Any, Any, Any]]:
    found = []
    for players, seed in [(2, 1), (3, 2), (4, 3)]:
        game = WOTR.restore(WOTR.setup(seed, players, {}), players, {})
        while not game.is_over():
            if game.phase is Phase.PLANNING and game.turn in (2, 4):
                for seat in WOTR.to_act(game):
                    found += plans(game, seat, rng)
            seat = rng.choice(WOTR.to_act(game))
            WOTR.apply(game, seat, WOTR.fallback_action(WOTR.bot_input(game, seat), rng))
    return found


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_forms_preview_is_the_engines(tmp_path: Path) -> None:
    # The scripts keep their places: dom.js imports ../js/i18n.js (English outside a page).
    (tmp_path / "wotr").mkdir()
    (tmp_path / "js").mkdir()
    for name in ("plan.js", "dom.js"):
        shutil.copy(WEB / name, tmp_path / "wotr" / name)
    shutil.copy(WEB.parent / "js" / "i18n.js", tmp_path / "js" / "i18n.js")
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "wotr" / "run.js").write_text(RUN)
    checked = cases(random.Random(5))
    (tmp_path / "cases.json").write_text(json.dumps([[o, p] for o, p, _ in checked]))
    done = subprocess.run(
        [str(NODE), "wotr/run.js", "cases.json"], cwd=tmp_path, capture_output=True, text=True,
        check=True, timeout=60,
    )  # fmt: skip
    results = json.loads(done.stdout)
    short = 0
    for (orders, _, preview), result in zip(checked, results, strict=True):
        assert result["cost"] == preview.cost, orders
        assert result["left"] == preview.left, orders
        assert result["short"] == max(0, preview.cost - preview.money)
        assert result["cancelled"] == [charge.text for charge in preview.cancelled], orders
        short += bool(preview.cancelled)
    assert short >= 20  # the shortfall order itself was exercised
