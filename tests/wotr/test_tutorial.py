"""The Wars of the Roses tutorial: every step's position is reached by legal decisions from
a real deal, and the engine judges the learner's decision: the right one is accepted with
the game after it; a wrong one gets the reason its hint explains, and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roses.wotr import Phase, action_from_json, record_of
from roses.wotr.tutorial import LEARNER, STEPS, Reason, Step, judge

STEP = {step.key: step for step in STEPS}
PHASES = {
    "draft": Phase.DRAW,
    "french-aid": Phase.INCOME,
    **dict.fromkeys(("troops", "shortfall", "combat", "bribes", "king", "awards"), Phase.PLANNING),
}


def orders(**parts: Any) -> Any:
    return action_from_json({"orders": parts})


def verdict(key: str, action: Any) -> tuple[Reason, dict[str, Any]]:
    """The judgement, checking that judging left the step's position as it was."""
    step = STEP[key]
    before = json.dumps(record_of(step.game()), sort_keys=True)
    reason, values, after = judge(
        step, action_from_json(action) if isinstance(action, dict) else action
    )
    assert json.dumps(record_of(step.game()), sort_keys=True) == before
    assert (after is None) == (reason in REFUSED)
    return reason, values


REFUSED = {Reason.NOT_NOW, Reason.NOT_LAID_OUT, Reason.NOT_PRESENT, Reason.NOT_ADJACENT,
           Reason.NEUTRAL, Reason.WRONG_CUBE, Reason.ILLEGAL}  # fmt: skip


@pytest.mark.parametrize("step", STEPS, ids=[step.key for step in STEPS])
def test_each_position_is_reached_by_legal_decisions_and_waits_for_red(step: Step) -> None:
    game = step.game()  # Game.apply refuses any illegal decision
    assert game.phase is PHASES[step.key]
    assert LEARNER in game.awaiting()
    # Where Red plans, every other seat has sealed: Red's seal reveals the turn (WR-10, WR-11).
    if game.phase is Phase.PLANNING:
        assert game.awaiting() == (LEARNER,)
    assert all(rule.startswith("WR-") for rule in step.rules)


def test_draft_takes_the_card_asked_for_wr7_wr8() -> None:
    assert verdict("draft", {"pick": "newcastle"})[0] is Reason.EXPECTED
    assert verdict("draft", {"pick": "percy"}) == (
        Reason.NOT_ASKED, {"card": "Percy", "wanted": "Newcastle"})  # fmt: skip
    assert verdict("draft", {"pick": "london"}) == (Reason.NOT_LAID_OUT, {"card": "London"})
    assert verdict("draft", {"orders": {}})[0] is Reason.NOT_NOW
    _, _, after = judge(STEP["draft"], action_from_json({"pick": "newcastle"}))
    assert after is not None and after.state.owner["newcastle"] == LEARNER
    assert after.awaiting() == (1,), "snake order: Yellow takes the next two cards (WR-7)"


def test_french_aid_is_the_leaders_score_minus_reds_wr9_wr6() -> None:
    game = STEP["french-aid"].game()
    vp = [player.vp for player in game.state.players]
    assert vp[1] > vp[0] and game.state.order == [0, 1], "lowest score first (WR-6)"
    assert game.french_aid_offer(LEARNER) == vp[1] - vp[0] == 5
    assert verdict("french-aid", {"french_aid": False}) == (Reason.DECLINED, {"offer": 5})
    reason, _, after = judge(STEP["french-aid"], action_from_json({"french_aid": True}))
    assert reason is Reason.EXPECTED and after is not None
    assert after.state.players[LEARNER].money == game.state.players[LEARNER].money + 5
    assert after.state.players[LEARNER].french_aid_used


def test_troops_need_presence_wr10() -> None:
    """Ships never give presence: Red's Ship of Kingston does not open Northern England."""
    assert verdict("troops", {"orders": {"troops": {"lincoln": 3}}}) == (
        Reason.NOT_PRESENT, {"zone": "Northern England", "place": "Lincoln"})  # fmt: skip
    assert verdict("troops", {"orders": {"noble_moves": {"percy": "MI"}}})[0] is Reason.NOT_ADJACENT
    assert verdict("troops", {"orders": {}})[0] is Reason.NOT_ASKED
    moved = {"noble_moves": {"percy": "NE"}}
    assert verdict("troops", {"orders": {**moved, "troops": {"lincoln": 3}}}) == (
        Reason.EXPECTED, {"place": "Lincoln", "attackers": 3, "defenders": 2})  # fmt: skip


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 5))
def test_an_attack_takes_a_location_only_with_more_than_its_defenders_wr13(count: int) -> None:
    """Lincoln's garrison of 2, undefended: 3 or more take it, 2 make it neutral."""
    reason, values, after = judge(STEP["troops"], orders(noble_moves={"percy": "NE"},
                                                        troops={"lincoln": count}))  # fmt: skip
    assert after is not None and values["attackers"] == count and values["defenders"] == 2
    expected = Reason.EXPECTED if count > 2 else Reason.STANDOFF if count == 2 else Reason.REPULSED
    assert reason is expected
    assert after.state.owner["lincoln"] == {Reason.EXPECTED: LEARNER, Reason.STANDOFF: None,
                                            Reason.REPULSED: 1}[reason]  # fmt: skip


def test_a_shortfall_cancels_the_troops_paid_last_wr11() -> None:
    """15 pounds for 18 of troops: Bamburgh (a castle) is paid first, a Newcastle troop is
    cancelled, and Yellow's 4 attackers meet 2 + 2 defenders: Newcastle falls neutral."""
    reason, values = verdict("shortfall", {"orders": {"troops": {"newcastle": 3, "bamburgh": 3}}})
    assert reason is Reason.SHORT
    assert values == {"place": "Newcastle", "cost": 18, "money": 15, "cancelled": 1,
                      "attackers": 4, "defenders": 4}  # fmt: skip
    assert verdict("shortfall", {"orders": {"troops": {"newcastle": 2}}})[0] is Reason.LOST
    reason, _, after = judge(STEP["shortfall"], orders(troops={"newcastle": 3}))
    assert reason is Reason.EXPECTED and after is not None
    assert after.state.troops_placed["newcastle"] == {LEARNER: 3, 1: 4}
    assert after.state.owner["newcastle"] == LEARNER


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 5), st.integers(0, 3))
def test_mercenaries_are_free_and_fight_like_troops_wr8_wr13(troops: int, hired: int) -> None:
    """Yellow defends Lincoln with 2 troops: 4 defenders. Red has 13 pounds (4 troops at
    most are paid, WR-11) and 3 mercenaries."""
    plan: dict[str, Any] = {"noble_moves": {"percy": "NE"}}
    if troops:
        plan["troops"] = {"lincoln": troops}
    if hired:
        plan["mercenaries"] = {"lincoln": hired}
    if not troops and not hired:
        assert verdict("combat", {"orders": plan})[0] is Reason.NOT_ASKED
        return
    reason, values = verdict("combat", {"orders": plan})
    attackers = min(troops, 4) + hired
    assert values["attackers"] == attackers and values["defenders"] == 4
    assert reason is (Reason.EXPECTED if attackers > 4 else
                      Reason.STANDOFF if attackers == 4 else Reason.REPULSED)  # fmt: skip


def test_a_white_cube_guards_and_a_black_cube_takes_wr12() -> None:
    both = {"ship-of-kingston": "white", "clifford": "black"}
    assert verdict("bribes", {"orders": {"bribes": both}})[0] is Reason.EXPECTED
    assert verdict("bribes", {"orders": {"bribes": {"clifford": "black"}}})[0] is Reason.BRIBED_AWAY
    guard = {"ship-of-kingston": "white"}
    assert verdict("bribes", {"orders": {"bribes": guard}})[0] is Reason.NOT_BRIBED
    wrong = {"clifford": "white"}
    assert verdict("bribes", {"orders": {"bribes": wrong}}) == (
        Reason.WRONG_CUBE,
        {"place": "Clifford"},
    )
    _, _, after = judge(STEP["bribes"], orders(bribes=both))
    assert after is not None and after.state.owner["ship-of-kingston"] == LEARNER
    assert after.state.owner["clifford"] == LEARNER


def test_a_noble_moved_swings_a_zone_and_crowns_lancaster_wr14_wr15() -> None:
    game = STEP["king"].game()
    assert game.state.players[LEARNER].house == "Lancaster" and game.players == 4
    assert verdict("king", {"orders": {}}) == (Reason.NOT_CROWNED, {"lancaster": 18, "york": 21})
    reason, values, after = judge(STEP["king"], orders(noble_moves={"percy": "NE"}))
    assert (reason, values) == (Reason.EXPECTED, {"lancaster": 27, "york": 12})
    assert after is not None and after.state.crowned == ["Lancaster"]
    # The first VP of Northern England (Percy's 9 CP against York's 7), of the Northern
    # Marches (Bamburgh) and of the Midlands (Kenilworth's 6 CP against Green's 4) go to Red
    # (WR-14), and the King's 5 VP to both Lancastrians (WR-15).
    sources = after.state.players[LEARNER].vp_by_source
    assert sources["king"] == 5 and after.state.players[2].vp_by_source["king"] == 5
    assert sources["zones"] == 9 + 4 + 8


def test_two_ships_make_the_lord_high_admiral_wr16() -> None:
    assert verdict("awards", {"orders": {}})[0] is Reason.NO_AWARD
    assert verdict("awards", {"orders": {"bribes": {"clifford": "black"}}})[0] is Reason.NO_AWARD
    _, _, after = judge(STEP["awards"], orders(bribes={"ship-of-berwick": "black"}))
    assert after is not None
    assert after.state.award_holder["lord-high-admiral"] == LEARNER
    assert after.state.players[LEARNER].vp_by_source["awards"] == 4


def test_any_other_fault_is_illegal_and_changes_nothing() -> None:
    assert verdict("troops", {"orders": {"troops": {"percy": 1}}})[0] is Reason.ILLEGAL
    assert verdict("king", {"unseal": True})[0] is Reason.ILLEGAL
    assert verdict("troops", {"orders": {"troops": {"newcastle": 21}}})[0] is Reason.ILLEGAL
    assert verdict("french-aid", {"pick": "percy"})[0] is Reason.NOT_NOW
    assert verdict("draft", {"french_aid": True})[0] is Reason.NOT_NOW
