"""The interactive tutorial's real positions and the judge of a learner's decision.

Every position comes from a real game: a deal (``Setup``: the deck's top cards chosen, the
rest in the board's order) and the decisions played from it, each checked by ``Game``, so
the position is reachable and the engine decides what is legal. The learner is Red. Where
Red plans (WR-10), the other players have sealed their plans already, so Red's seal
reveals the turn and the engine resolves it to the end of Parliament (WR-11..WR-17); the
step is judged on what the engine made of it (a Location taken, a noble kept, the King
crowned). A refused decision changes nothing. The texts live with the web client, one file
per language, keyed by ``Step.key`` and the reasons.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .actions import Action, FrenchAid, Orders, Pick, action_from_json
from .data import default_board
from .errors import IllegalActionError
from .game import Game, Setup
from .payment import payment
from .phases.draft import pick_sequence
from .state import LANCASTER, YORK, Phase

LEARNER: Final = 0  # Red


class Reason(enum.Enum):
    """Why the tutorial took or refused a decision; each names a hint in the texts."""

    EXPECTED = "expected"
    NOT_ASKED = "not-asked"  # legal, but not what the step asks for
    NOT_NOW = "not-now"  # WR-6: not a decision of this phase
    NOT_LAID_OUT = "not-laid-out"  # WR-7: only a laid-out card is taken
    DECLINED = "declined"  # WR-9: French Aid declined
    NOT_PRESENT = "not-present"  # WR-10: an attack needs presence in its zone
    NOT_ADJACENT = "not-adjacent"  # WR-5: a noble moves one adjacent zone
    NEUTRAL = "neutral"  # WR-10: a neutral Location cannot be attacked
    WRONG_CUBE = "wrong-cube"  # WR-10: white on one's own, black on an opponent's
    ILLEGAL = "illegal"  # any other fault the engine finds in a plan (WR-10)
    SHORT = "short"  # WR-11: the shortfall cancelled what was needed
    LOST = "lost"  # WR-13: too few defenders
    REPULSED = "repulsed"  # WR-13: too few attackers
    STANDOFF = "standoff"  # WR-13: as many attackers as defenders: the Location is neutral
    BRIBED_AWAY = "bribed-away"  # WR-12: an unguarded Personality taken by a black cube
    NOT_BRIBED = "not-bribed"  # WR-12: the Personality asked for was not taken
    NOT_CROWNED = "not-crowned"  # WR-15: the other house won more votes
    NO_AWARD = "no-award"  # WR-16: the award asked for went elsewhere


Values = dict[str, Any]
Verdict = tuple[Reason, Values]
# How a step judges a legal decision: the game before it, the game after it (resolved by
# the engine to the next decision) and the decision.
Check = Callable[[Game, Game, Action], Verdict]


@dataclass(frozen=True)
class Step:
    key: str  # names the step's texts
    rules: tuple[str, ...]  # what it teaches
    players: int
    top: tuple[str, ...]  # the deck's top cards; the rest follow in the board's order
    script: tuple[Mapping[str, Any], ...]  # (seat, action) pairs, actions in JSON form
    check: Check
    houses: tuple[str, ...] | None = None  # 4 players: each seat's house tile (WR-4)

    def game(self) -> Game:
        """The step's position, replayed from its deal (``Game.apply`` checks every
        decision)."""
        board = default_board()
        rest = [card for card in board.deck if card not in self.top]
        order = tuple(range(self.players))  # turn 1: Red first (WR-6)
        game = Game(self.players, board=board, setup=Setup((*self.top, *rest), order, self.houses))
        for entry in self.script:
            game.apply(entry["seat"], action_from_json(entry["action"]))
        return game


def drafted(players: int, hands: Mapping[int, tuple[str, ...]]) -> tuple[dict[str, Any], ...]:
    """Turn 1's draft (WR-7, snake order, seats in order) in which each seat takes its
    ``hands``' cards, in that order."""
    left = {seat: list(cards) for seat, cards in hands.items()}
    count = sum(len(cards) for cards in hands.values())
    return tuple(
        {"seat": seat, "action": {"pick": left[seat].pop(0)}}
        for seat in pick_sequence(list(range(players)), count, snake=True)
    )


def sealed(seat: int, orders: Mapping[str, Any] | None = None) -> dict[str, Any]:
    return {"seat": seat, "action": {"orders": dict(orders or {})}}


# -- the judges ------------------------------------------------------------------------------


def _name(game: Game, card: str) -> str:
    return game.board.card_name(card)


def take_card(wanted: str) -> Check:
    """WR-7, WR-8: the card asked for."""

    def check(before: Game, after: Game, action: Action) -> Verdict:
        if not isinstance(action, Pick):
            return Reason.NOT_ASKED, {}
        values = {"card": _name(before, action.card), "wanted": _name(before, wanted)}
        return (Reason.EXPECTED if action.card == wanted else Reason.NOT_ASKED), values

    return check


def take_french_aid(before: Game, after: Game, action: Action) -> Verdict:
    """WR-9: the trailing player takes the leader's score minus their own."""
    offer = before.french_aid_offer(LEARNER)
    if not isinstance(action, FrenchAid):
        return Reason.NOT_ASKED, {"offer": offer}
    return (Reason.EXPECTED if action.take else Reason.DECLINED), {"offer": offer}


def _fight(after: Game, location: str) -> Values:
    """The attack on ``location`` as the log tells it (WR-13): attackers and defenders."""
    for event in reversed(after.state.log):
        params = event.phrase.params
        if event.phase is Phase.COMBAT and params.get("name") == _name(after, location):
            return {"attackers": params["attackers"], "defenders": params["defenders"]}
    return {}


def take_location(location: str) -> Check:
    """WR-10, WR-13: the attack on ``location`` wins it."""

    def check(before: Game, after: Game, action: Action) -> Verdict:
        if not isinstance(action, Orders) or location not in {*action.troops, *action.mercenaries}:
            return Reason.NOT_ASKED, {"place": _name(before, location)}
        fight = {"place": _name(before, location), **_fight(after, location)}
        holder = after.state.owner[location]
        if holder == LEARNER:
            return Reason.EXPECTED, fight
        return (Reason.STANDOFF if holder is None else Reason.REPULSED), fight

    return check


def hold_location(location: str) -> Check:
    """WR-11, WR-13: ``location`` is still the learner's after the battles; if not, the hint
    says what the shortfall cancelled."""

    def check(before: Game, after: Game, action: Action) -> Verdict:
        if not isinstance(action, Orders):
            return Reason.NOT_ASKED, {}
        view = before.view(LEARNER)
        bill = payment(view, view.my_money, action)
        values: Values = {
            "place": _name(before, location),
            "cost": bill.cost,
            "money": bill.money,
            "cancelled": sum(c.count for c in bill.cancelled if c.kind == "troops"),
            **_fight(after, location),
        }
        if after.state.owner[location] == LEARNER:
            return Reason.EXPECTED, values
        return (Reason.SHORT if bill.cancelled else Reason.LOST), values

    return check


def bribe(keep: str, take: str) -> Check:
    """WR-12: the learner keeps ``keep`` (a white cube beats a black one) and takes ``take``
    (an unguarded Personality goes to the black cube)."""

    def check(before: Game, after: Game, action: Action) -> Verdict:
        if not isinstance(action, Orders):
            return Reason.NOT_ASKED, {}
        values = {"keep": _name(before, keep), "take": _name(before, take)}
        if after.state.owner[keep] != LEARNER:
            return Reason.BRIBED_AWAY, values
        if after.state.owner[take] != LEARNER:
            return Reason.NOT_BRIBED, values
        return Reason.EXPECTED, values

    return check


def crown(before: Game, after: Game, action: Action) -> Verdict:
    """WR-14, WR-15: the learner's house wins more zones' votes and is crowned."""
    votes: Values = {}
    for event in after.state.log:
        if event.phrase.template.startswith("Votes:"):
            votes = {
                house: event.phrase.params.get(house.lower(), 0) for house in (LANCASTER, YORK)
            }
    house = after.state.players[LEARNER].house
    values = {"lancaster": votes.get(LANCASTER, 0), "york": votes.get(YORK, 0)}
    if after.state.crowned and after.state.crowned[-1] == house:
        return Reason.EXPECTED, values
    return Reason.NOT_CROWNED, values


def award(award_id: str) -> Check:
    """WR-16: the award asked for is the learner's at the end of Parliament."""

    def check(before: Game, after: Game, action: Action) -> Verdict:
        if not isinstance(action, Orders):
            return Reason.NOT_ASKED, {}
        if after.state.award_holder.get(award_id) == LEARNER:
            return Reason.EXPECTED, {}
        return Reason.NO_AWARD, {}

    return check


# -- the positions ---------------------------------------------------------------------------

# Two players, turn 1: Red in the Northern Marches with a ship off Northern England, Yellow
# in Northern England and the Midlands with a noble and a ship in the Northern Marches.
RED: Final = ("percy", "bamburgh", "newcastle", "ship-of-kingston", "durham", "bishop-of-durham")
YELLOW: Final = ("lincoln", "york", "clifford", "ship-of-berwick", "hastings", "norwich")
TABLE: Final = (*RED, *YELLOW)
# The same with a Mercenary card for Red instead of the Bishop of Durham (WR-8).
RED_MERCENARIES: Final = (*RED[:5], "mercenary-1")

# Four players, turn 1 (WR-15): Red and Green are Lancaster, Yellow and Blue York.
KING_HANDS: Final = {
    0: ("percy", "bamburgh", "kenilworth"),
    1: ("lincoln", "york", "london"),
    2: ("coventry", "bristol", "exeter"),
    3: ("harlech", "windsor", "norwich"),
}
HOUSES: Final = (LANCASTER, YORK, LANCASTER, YORK)

TURN_1: Final = drafted(2, {0: RED, 1: YELLOW})
# Turn 1 with empty plans, then turn 2's draft (WR-7: straight order, Red first, being
# behind, WR-6): Yellow leads, so Red is offered French Aid at income (WR-9).
TURN_2: Final = (
    *TURN_1,
    sealed(1),
    sealed(0),
    *(
        {"seat": seat, "action": {"pick": card}}
        for seat, card in zip(
            (0, 1, 0, 1, 0, 1, 0, 1),
            ("pontefract", "kenilworth", "berwick", "coventry", "kingston", "archbishop-of-york",
             "kings-lynn", "bishop-of-coventry"),
            strict=True,
        )
    ),
)  # fmt: skip

STEPS: tuple[Step, ...] = (
    Step("draft", ("WR-7", "WR-8"), 2, TABLE, (), take_card("newcastle")),
    Step("french-aid", ("WR-9", "WR-6"), 2, TABLE, TURN_2, take_french_aid),
    Step("troops", ("WR-10", "WR-5"), 2, TABLE, (*TURN_1, sealed(1)), take_location("lincoln")),
    Step(
        "shortfall",
        ("WR-11",),
        2,
        TABLE,
        (*TURN_1, sealed(1, {"troops": {"newcastle": 4}})),
        hold_location("newcastle"),
    ),
    Step(
        "combat",
        ("WR-13", "WR-8"),
        2,
        (*RED_MERCENARIES, *YELLOW),
        (*drafted(2, {0: RED_MERCENARIES, 1: YELLOW}), sealed(1, {"troops": {"lincoln": 2}})),
        take_location("lincoln"),
    ),
    Step(
        "bribes",
        ("WR-12", "WR-10"),
        2,
        TABLE,
        (*TURN_1, sealed(1, {"bribes": {"ship-of-kingston": "black"}})),
        bribe("ship-of-kingston", "clifford"),
    ),
    Step(
        "king",
        ("WR-14", "WR-15"),
        4,
        tuple(card for hand in KING_HANDS.values() for card in hand),
        (*drafted(4, KING_HANDS), sealed(1), sealed(2), sealed(3)),
        crown,
        houses=HOUSES,
    ),
    Step("awards", ("WR-16", "WR-17"), 2, TABLE, (*TURN_1, sealed(1)), award("lord-high-admiral")),
)


def refusal(error: IllegalActionError) -> Reason:
    """The hint for a decision the engine refuses, from the part of it at fault."""
    part, _, _ = error.field.partition(".")
    if part == "seat" or "{phase}" in error.template:  # not a decision of this phase
        return Reason.NOT_NOW
    if part == "pick":
        return Reason.NOT_LAID_OUT
    if part in ("troops", "mercenaries") and "present" in error.template:
        return Reason.NOT_PRESENT
    if part in ("troops", "mercenaries") and "neutral" in error.template:
        return Reason.NEUTRAL
    if part == "noble_moves" and "adjacent" in error.template:
        return Reason.NOT_ADJACENT
    if part == "bribes" and "cube goes only" in error.template:
        return Reason.WRONG_CUBE
    return Reason.ILLEGAL


def refusal_values(game: Game, error: IllegalActionError) -> Values:
    """The refused decision's values for its hint: names for people, not ids."""
    board = game.board
    values: Values = {}
    for name, value in error.params.items():
        if name == "zone" and isinstance(value, str) and value in board.zone:
            values[name] = board.zone[value].name
        elif name == "card" and isinstance(value, str) and value in board.deck:
            values[name] = board.card_name(value)
        else:
            values[name] = value
    _, _, card = error.field.partition(".")
    if card in board.deck:
        values["place"] = board.card_name(card)
    return values


def judge(step: Step, action: Action) -> tuple[Reason, Values, Game | None]:
    """``action`` made by Red in ``step``'s position: why it is taken or refused, the hint's
    values and the game after it (None when the engine refuses it: nothing changed)."""
    before = step.game()
    after = step.game()
    try:
        after.apply(LEARNER, action)
    except IllegalActionError as error:
        return refusal(error), refusal_values(before, error), None
    reason, values = step.check(before, after, action)
    return reason, values, after
