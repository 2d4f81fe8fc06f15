"""Wars of the Roses: Lancaster vs York plugged into the server: the one place outside the
engine and the bots that knows its actions and views.

The state is the engine's ``Game``; the deal is its ``Setup`` (the deck's order, turn 1's
order and the house tiles, WR-4, WR-6). Actions are the engine's JSON forms: ``{"pick":
CARD}`` (WR-7), ``{"french_aid": true|false}`` (WR-9), ``{"orders": {...}}`` and
``{"unseal": true}`` (WR-10). A view is the engine's ``PlayerView`` JSON (WR-20: others'
money, mercenaries and plans stay hidden while they plan); a planner's saved draft is
previewed by the engine (WR-10, WR-11) for the planning form.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from roses.wotr import Game, IllegalActionError, Orders, Phase, PlayerView, Setup, default_board
from roses.wotr.actions import Action, action_from_json
from roses.wotr.phases.planning import presence
from roses.wotr.record import record_of
from roses.wotr.state import SEAT_NAMES
from roses.wotr.tutorial import STEPS as TUTORIAL_STEPS
from roses.wotr.tutorial import judge

from .base import (
    JSON,
    N_,
    BotWords,
    Forfeit,
    GameModule,
    IllegalAction,
    InvalidInput,
    Outcome,
    Playthrough,
    StandIn,
    TableTalk,
    TutorialAnswer,
)

STRENGTHS = ("quick", "normal", "strong")  # thinking time per decision: the server's settings

# The seats' names for the catalogues (the pages translate them where they show them).
SEAT_WORDS = (N_("Red"), N_("Yellow"), N_("Green"), N_("Blue"))
assert SEAT_WORDS == SEAT_NAMES, "the engine renamed its seats: rename them here too"
# The board's names that are game terms rather than places, for the catalogues: the awards
# (WR-16), the bishops and the ships. The pages translate them in the log and on the map;
# places and nobles keep their names (tests/games/test_wotr_module.py checks the list).
BOARD_WORDS = (
    N_("Lord High Admiral"),
    N_("Warden of the Cinque Ports"),
    N_("Archbishop of Canterbury"),
    N_("Constable of the Tower"),
    N_("Bishop of Durham"),
    N_("Archbishop of York"),
    N_("Bishop of Coventry"),
    N_("Bishop of Winchester"),
    N_("Bishop of Exeter"),
    N_("Bishop of St Davids"),
    N_("Ship of Berwick"),
    N_("Ship of Kingston"),
    N_("Ship of King's Lynn"),
    N_("Ship of Sandwich"),
    N_("Ship of Plymouth"),
    N_("Ship of Milford Haven"),
)


class Wotr(GameModule[Game, Action]):
    """No options; no teams for winning (WR-18), even with the houses of 4 players."""

    name = "wotr"
    title = N_("Wars of the Roses")
    player_counts: tuple[int, ...] = (2, 3, 4)
    # WR-20: while plans are made, a seat's money and sealed plan are its own.
    private_fields = ("state.my_orders", "pay_order")
    bot_words = (  # weakest first
        BotWords("random", N_("Random"), N_("easiest")),
        BotWords("heuristic", N_("Rules of thumb"), N_("beginner")),
        BotWords("search", N_("Search"), N_("strongest")),
    )
    # WR-20 forbids table talk about plans: no private word between players of a game in
    # progress, whose every turn has its planning.
    private_talk = False

    def seat_labels(self, players: int, options: Mapping[str, JSON]) -> list[str]:
        return list(SEAT_WORDS[:players])

    def setup(self, seed: int, players: int, options: Mapping[str, JSON]) -> JSON:
        deal = Setup.shuffled(default_board(), players, random.Random(seed))
        return {
            "deck": list(deal.deck),
            "first_order": list(deal.first_order),
            "houses": None if deal.houses is None else list(deal.houses),
        }

    def restore(self, deal: JSON, players: int, options: Mapping[str, JSON]) -> Game:
        houses = None if deal["houses"] is None else tuple(deal["houses"])
        return Game(players, setup=Setup(tuple(deal["deck"]), tuple(deal["first_order"]), houses))

    def materials(self, players: int, options: Mapping[str, JSON]) -> dict[str, JSON]:
        return {"board": default_board().to_json(), "seats": list(SEAT_NAMES[:players])}

    def to_act(self, state: Game) -> tuple[int, ...]:
        return state.awaiting()

    def may_act(self, state: Game, seat: int) -> bool:
        # A sealed plan may be taken back until the last seal (WR-10).
        return seat in state.awaiting() or (
            state.phase is Phase.PLANNING and seat in state.state.orders
        )

    def parse_action(self, raw: JSON) -> Action:
        try:
            return action_from_json(raw)
        except IllegalActionError as error:  # for programs: the field path says where
            raise InvalidInput(str(error)) from None

    def action_json(self, action: Action) -> JSON:
        return action.to_json()

    def apply(self, state: Game, seat: int, action: Action) -> None:
        try:
            state.apply(seat, action)
        except IllegalActionError as error:
            refusal = IllegalAction(error.template, **error.params_json())
            refusal.message = error.message  # the English, with a sea in words
            raise refusal from None

    def view(self, state: Game, seat: int | None) -> dict[str, JSON]:
        return {"state": state.view(seat).to_json()}

    def preview(self, state: Game, seat: int, draft: JSON) -> JSON:
        """The planning form's running account of a draft plan, from the seat's own view
        (WR-20): its cost, the money left after deployment pays for it and what a shortfall
        cancels (WR-11), the zones where the seat is present to attack with its nobles'
        moves (WR-10) and the faults the game would refuse it for. None outside the seat's
        planning or for another turn's draft; a malformed plan gets ``problem``."""
        view = state.view(seat)
        if view.phase is not Phase.PLANNING or view.my_orders is not None:
            return None
        if not isinstance(draft, dict):
            return {
                "problem": {"field": "draft", "message": 'must be {"turn": N, "orders": {...}}'}
            }
        if draft.get("turn", view.turn) != view.turn:
            return None  # a plan for a turn that is over
        try:
            orders = Orders.from_json(draft.get("orders", {}))
        except IllegalActionError as error:
            return {"problem": {"field": error.field, "message": error.message}}
        present = sorted(presence(view, seat, orders))
        return {**view.preview(orders).to_json(), "present": present}

    def outcome(self, state: Game) -> Outcome | None:
        outcome = state.outcome()
        if outcome is None:
            return None
        # WR-18: the engine's keys (VP, crowns, the chart); only equal keys share a place.
        ranks = tuple(sum(other > key for other in outcome.keys) for key in outcome.keys)
        summary: dict[str, JSON] = {
            "vp": list(outcome.vp),
            "ranking": [SEAT_NAMES[seat] for seat in outcome.ranking],
            "winners": [SEAT_NAMES[seat] for seat in outcome.winners],
        }
        return Outcome(ranks, summary)

    def forfeit(self, state: Game, players: int, seat: int, reason: Forfeit) -> Outcome:
        """The seat that gives up ranks last, the others by their VP now; with 4 players the
        houses are not teams for winning (WR-18), so nobody shares its defeat."""
        why = "resigned" if reason is Forfeit.RESIGNATION else "timed_out"
        vp = [player.vp for player in state.state.players]
        keys = [(other != seat, points) for other, points in enumerate(vp)]
        ranks = tuple(sum(other > key for other in keys) for key in keys)
        ranking = sorted(range(len(keys)), key=lambda other: ranks[other])
        summary: dict[str, JSON] = {
            "vp": vp,
            "ranking": [SEAT_NAMES[other] for other in ranking],
            "winners": [SEAT_NAMES[other] for other in ranking if ranks[other] == 0],
            why: SEAT_NAMES[seat],
        }
        return Outcome(ranks, summary)

    def stand_in(self, state: Game, seat: int) -> StandIn:
        if state.phase is Phase.PLANNING:
            # WR-10: every part of a plan is optional; the empty plan bids nothing, moves
            # nothing, places nothing and bribes nobody, so it costs nothing (WR-11).
            return StandIn(action=Orders())
        return StandIn(bot="heuristic")  # a pick (WR-7) or French Aid (WR-9)

    def table_talk(self, state: Game) -> TableTalk:
        # WR-20: no strategic or tactical discussion between the players at any time, not
        # only while planning; a courtesy phrase carries nothing of a plan.
        return TableTalk.COURTESY

    def record(self, played: Playthrough[Game, Action], names: Sequence[str]) -> dict[str, JSON]:
        return {**record_of(played.state), "names": list(names)}

    def replay(self, played: Playthrough[Game, Action], seat: int | None) -> list[dict[str, JSON]]:
        """Each frame is the view after one more action; its log holds only the events that
        action set off (the whole log would repeat itself in every frame)."""
        state = played.state
        game = Game(state.players, board=state.board, setup=state.setup)
        frames = [self._frame(game, seat, 0)]
        for actor, action in state.history:
            seen = len(game.state.log)
            game.apply(actor, action)
            frames.append(self._frame(game, seat, seen))
        return frames

    def _frame(self, game: Game, seat: int | None, seen: int) -> dict[str, JSON]:
        frame = self.view(game, seat)
        frame["state"]["log"] = frame["state"]["log"][seen:]
        return frame

    def bots(self) -> dict[str, tuple[str, ...]]:
        # The search thinks for the server's seconds of each strength (quick 0.2 s, normal
        # 1 s, strong 3 s by default); the others answer at once and have none.
        return {"random": (), "heuristic": (), "search": STRENGTHS}

    def prepare_bot(self, bot: str) -> None:
        pass  # its bots need nothing compiled

    def bot_input(self, state: Game, seat: int) -> PlayerView:
        return state.view(seat)

    def bot_action(self, bot: str, bot_input: PlayerView, seconds: float, seed: int) -> JSON:
        from roses.bots.wotr import make_wotr_bot

        time_limit = seconds if seconds > 0 else None  # none: a bot without strengths
        return make_wotr_bot(bot, seed=seed, time_limit=time_limit).act(bot_input).to_json()

    def fallback_action(self, bot_input: PlayerView, rng: random.Random) -> Action:
        from roses.bots.wotr import make_wotr_bot

        return make_wotr_bot("random", seed=rng.randrange(2**32)).act(bot_input)

    # -- the turn review (``Analysable``) -------------------------------------------------

    # A plan's review is searched from its seat's view, its own money and mercenaries
    # included: behind the screen while a game runs (WR-20), so a game is reviewed once over.
    analyses_running_games = False

    def analysis_inputs(self, state: Game) -> list[tuple[int, PlayerView, Orders]]:
        """Each seat's plan of each turn whose plans were revealed (WR-10, WR-11), turn by
        turn, seat by seat, with the view its seat had when it sealed that plan last (a plan
        taken back is not the plan made). A turn whose planning never ended (a game given
        up while planning) has plans nobody saw: none of them is reviewed."""
        game = Game(state.players, board=state.board, setup=state.setup)
        inputs: list[tuple[int, PlayerView, Orders]] = []
        sealed: dict[int, tuple[PlayerView, Orders]] = {}
        for seat, action in state.history:
            if isinstance(action, Orders):
                sealed[seat] = (game.view(seat), action)
            game.apply(seat, action)
            if sealed and game.phase is not Phase.PLANNING:  # the last seal: all revealed
                for plan_seat in sorted(sealed):
                    view, orders = sealed[plan_seat]
                    inputs.append((len(inputs), view, orders))
                sealed = {}
        return inputs

    def prepare_analysis(self) -> None:
        pass  # the search needs nothing compiled

    def analyse(self, analysis_input: tuple[int, PlayerView, Orders], seconds: float) -> JSON:
        from roses.bots.wotr.review import review_plan

        number, view, made = analysis_input
        return review_plan(view, made, seed=number, seconds=seconds).to_json()

    def tutorial(self) -> WotrTutorial:
        return WotrTutorial(self)


class WotrTutorial:
    """The tutorial's real positions (``roses.wotr.tutorial``) as Red sees them in a game,
    with the board to draw them, and Red's decisions judged by the engine."""

    def __init__(self, game: Wotr) -> None:
        self.game = game

    def steps(self) -> tuple[str, ...]:
        return tuple(step.key for step in TUTORIAL_STEPS)

    def _view(self, state: Game) -> dict[str, JSON]:
        return {**self.game.view(state, 0), "materials": self.game.materials(state.players, {})}

    def view(self, step: int) -> dict[str, JSON]:
        return self._view(TUTORIAL_STEPS[step].game())

    def preview(self, step: int, draft: JSON) -> JSON:
        """The planning chart's running account of a draft plan (``Wotr.preview``)."""
        return self.game.preview(TUTORIAL_STEPS[step].game(), 0, draft)

    def answer(self, step: int, action: JSON) -> TutorialAnswer:
        decision = self.game.parse_action(action)
        reason, values, after = judge(TUTORIAL_STEPS[step], decision)
        accepted = after is not None and reason.value == "expected"
        return TutorialAnswer(
            accepted, reason.value, values, self._view(after) if accepted and after else None
        )


WOTR = Wotr()
