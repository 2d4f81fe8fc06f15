"""The Rose King plugged into the server: the one place outside the engine and the bots
that knows its rules, moves and views.

Actions are RK-22 move strings (``N2``, ``N2h``, ``draw``) and, in Light games (RK-19),
``undo`` and ``end-turn``. Passes (RK-11, RK-17) are made here, right after the action
that forces them, so the log holds only what players chose.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import cast

from roses.roseking import (
    Board,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Variant,
    card_name,
    parse_move,
    square_name,
)
from roses.roseking.geometry import TARGET
from roses.roseking.moves import DRAW, PASS, PASS_MOVE
from roses.roseking.readable import end_account, log_entry
from roses.roseking.record import record_of, root
from roses.roseking.tutorial import STEPS as TUTORIAL_STEPS
from roses.roseking.tutorial import Reason, judge
from roses.roseking.variants import seat_name
from roses.roseking.view import PlayerView

from .base import (
    JSON,
    N_,
    BotWords,
    Forfeit,
    GameModule,
    IllegalAction,
    InvalidInput,
    OptionField,
    Outcome,
    Playthrough,
    StandIn,
    TutorialAnswer,
)
from .roseking_log import seat_label


class LightStep(StrEnum):
    """RK-19 Light: a play is shown to its player first, then ended or taken back."""

    UNDO = "undo"
    END_TURN = "end-turn"


UNDO, END_TURN = LightStep.UNDO, LightStep.END_TURN
RoseKingAction = Move | LightStep
STRENGTHS = ("quick", "normal", "strong")  # thinking time per move: the server's settings


@dataclass
class RoseKingState:
    board: Board
    options: Mapping[str, JSON]
    # RK-19 Light: a play shown to its player, part of the game only once the turn ends.
    pending: Move | None = None
    # The moves on the board told for people (move_entry), passes included.
    entries: list[dict[str, JSON]] = field(default_factory=list)
    # What every seat sees alike of the position now (``RoseKing.view``), with its key.
    shared_view: tuple[tuple[object, ...], dict[str, JSON]] | None = field(
        default=None, repr=False, compare=False
    )

    def position_key(self) -> tuple[object, ...]:
        """Equal keys, the same position and log, however the board was changed."""
        board = self.board
        return (len(board.move_stack), board.red, board.white, board.crown, board.turn,
                board.hands, board.heroes, len(board.draw_pile), len(self.entries))  # fmt: skip


def move_entry(ply: int, before: Board, move: Move, after: Board) -> dict[str, JSON]:
    """The engine's log entry (``readable.log_entry``) with the seat's name (RK-16)."""
    return {**log_entry(ply, before, move, after), "seat": seat_label(before.turn, before.seats)}


def _variant(players: int, options: Mapping[str, JSON]) -> Variant:
    if players == 4:
        return Variant.FOUR_PLAYER
    return Variant.RANDOM_START if options.get("random_start") else Variant.CLASSIC


def _targets(board: Board) -> dict[str, str | None]:
    """Where each card of the seat to move would take the crown (None: off the board, RK-8)."""
    if board.is_over():
        return {}
    return {
        card_name(card): square_name(TARGET[card][board.crown]) if TARGET[card][board.crown] >= 0
        else None
        for card in board.hands[board.turn]
    }  # fmt: skip


def _summary(board: Board, text: str, winner: str, termination: str) -> dict[str, JSON]:
    """A finished game's account: the scores with their tie-breaks as they stand (RK-14)."""
    red, white = board.team_scores()
    return {
        "text": f"{text} · Red {red} · White {white}",
        "winner": winner,
        "termination": termination,
        "red": str(red),
        "white": str(white),
    }


class RoseKing(GameModule[RoseKingState, RoseKingAction]):
    name = "roseking"
    title = N_("The Rose King")
    player_counts: tuple[int, ...] = (2, 4)
    option_fields: tuple[OptionField, ...] = (
        OptionField("random_start", "The first player is drawn at random (otherwise Red starts)",
                    False, (2,), "RK-7", N_("random start")),
        OptionField("light", "A play can be taken back until the player ends the turn",
                    False, (2, 4), "RK-19", N_("Light game")),
        OptionField("show_draw_pile", "Everyone may see which cards are left in the draw pile",
                    False, (2, 4), "RK-20", N_("open draw pile")),
    )  # fmt: skip
    private_fields = ("pending",)  # RK-19 Light: a play its player has not ended yet
    # Weakest first, as benchmarks/results/strength.md measured them: greedy beats random,
    # mcts beats greedy every game, search beats mcts and alphabeta about four games in five.
    bot_words = (
        BotWords("random", N_("Random"), N_("easiest")),
        BotWords("greedy", N_("Greedy"), N_("beginner")),
        BotWords("mcts", N_("Monte Carlo"), N_("strong")),
        BotWords("expectimax", N_("Expectimax"), N_("strong")),
        BotWords("alphabeta", N_("Alpha-beta"), N_("strong")),
        BotWords("search", N_("Search"), N_("strongest")),
    )

    def teams(self, players: int) -> tuple[int, ...]:
        return tuple(seat & 1 for seat in range(players))  # Red and White (RK-16)

    def parse_options(self, players: int, raw: Mapping[str, JSON]) -> dict[str, JSON]:
        if players not in self.player_counts:
            raise InvalidInput("The Rose King is for 2 players or 4 in two teams (RK-16)")
        return super().parse_options(players, raw)

    def seat_labels(self, players: int, options: Mapping[str, JSON]) -> list[str]:
        return [seat_label(seat, players) for seat in range(players)]

    def setup(self, seed: int, players: int, options: Mapping[str, JSON]) -> JSON:
        return {"position": Board(_variant(players, options), seed=seed).position(), "seed": seed}

    def restore(self, deal: JSON, players: int, options: Mapping[str, JSON]) -> RoseKingState:
        # Later reshuffles (RK-9) follow from the seed.
        board = Board.from_position(
            deal["position"], seed=deal["seed"], variant=_variant(players, options)
        )
        return RoseKingState(board, options)

    def to_act(self, state: RoseKingState) -> tuple[int, ...]:
        return () if state.board.is_over() else (state.board.turn,)

    def parse_action(self, raw: JSON) -> RoseKingAction:
        if not isinstance(raw, str) or len(raw) > 8:
            raise InvalidInput("a move is a card like N2, a hero play like N2h, or draw (RK-22)")
        if raw in (UNDO, END_TURN):
            return LightStep(raw)
        try:
            return parse_move(raw)
        except InvalidMoveError as error:
            raise InvalidInput(error.template, **error.params) from None

    def action_json(self, action: RoseKingAction) -> JSON:
        return str(action)  # RK-22 notation, or the Light step's name

    def apply(self, state: RoseKingState, seat: int, action: RoseKingAction) -> None:
        board = state.board
        if seat != board.turn:
            raise IllegalAction(
                "it is {waiting}'s turn; you play {seat}",
                waiting=seat_label(board.turn, board.seats),
                seat=seat_label(seat, board.seats),
            )
        if action is LightStep.UNDO:
            if state.pending is None:
                raise IllegalAction("there is no move to undo (a draw can never be undone, RK-19)")
            state.pending = None
            return
        if action is LightStep.END_TURN:
            if state.pending is None:
                raise IllegalAction("there is no move waiting: choose a card first")
            move, state.pending = state.pending, None
            self._make(state, move)
            return
        if state.pending is not None:
            raise IllegalAction(
                "{move} is waiting: end the turn or undo it first (RK-19)", move=str(state.pending)
            )
        move = action
        if move.kind == PASS:
            raise IllegalAction(
                "passes are made by the server when no other action is possible (RK-11)"
            )
        if not board.is_legal(move):
            try:
                board.copy().push(move)
            except IllegalMoveError as error:  # the engine's reason, e.g. "... (RK-8)"
                raise IllegalAction(error.template, **error.params) from None
        if state.options.get("light") and move.kind != DRAW:
            state.pending = move  # RK-19: a draw is final at once
        else:
            self._make(state, move)

    def _make(self, state: RoseKingState, move: Move) -> None:
        """``move`` and the passes that follow it (RK-11, RK-17)."""
        board = state.board
        before = board.copy(stack=False)
        board.push(move)
        state.entries.append(move_entry(len(state.entries), before, move, board))
        while board.legal_moves() == (PASS_MOVE,):
            state.entries.append(move_entry(len(state.entries), board, PASS_MOVE, board))
            board.push(PASS_MOVE)

    def view(self, state: RoseKingState, seat: int | None) -> dict[str, JSON]:
        board = state.board
        if state.pending is not None and seat == board.turn:
            # RK-19 Light: the player sees their play made; the others once the turn ends.
            shown = board.copy()
            shown.push(state.pending)
            return {
                "pending": str(state.pending),
                "state": self._state(shown, seat, state.options),
                "log": list(state.entries),
                "last_move": move_entry(len(state.entries), board, state.pending, shown),
                "targets": _targets(shown),
                "end": end_account(board, seat),
            }
        # Every seat sees the same position but for whose view it is (RK-5: all is public
        # but the pile's order): built once for all seats, the viewer's own fields added.
        key = state.position_key()
        if state.shared_view is None or state.shared_view[0] != key:
            state.shared_view = (key, {
                "pending": None,
                "state": self._state(board, None, state.options),
                "log": list(state.entries),
                "last_move": state.entries[-1] if state.entries else None,  # squares to mark
                "targets": _targets(board),
            })  # fmt: skip
        shared = state.shared_view[1]
        own_state = dict(cast(dict[str, JSON], shared["state"]))
        own_state["viewer"] = None if seat is None else seat_name(seat, board.seats)
        return {
            **shared,
            "state": own_state,
            "end": end_account(board, seat),  # RK-12..RK-15 once over
        }

    def _state(self, board: Board, seat: int | None, options: Mapping[str, JSON]) -> JSON:
        state = board.view(seat).to_dict()
        if not options.get("show_draw_pile"):
            del state["draw_pile_cards"]  # RK-20 off: the count only
        return state

    def outcome(self, state: RoseKingState) -> Outcome | None:
        outcome = state.board.outcome()
        if outcome is None:
            return None
        winner = outcome.winner
        ranks = tuple(
            0 if winner is None or seat & 1 == winner else 1 for seat in range(state.board.seats)
        )
        winner_text = "a draw" if winner is None else f"{winner.label.capitalize()} wins"
        termination = outcome.termination.value
        return Outcome(ranks, _summary(state.board, winner_text, outcome.result(), termination))

    def forfeit(self, state: RoseKingState, players: int, seat: int, reason: Forfeit) -> Outcome:
        # In the team game the team loses with its player (RK-16): both its seats lose.
        # (By the default timeout rule, a bot plays an absent team player's turn instead.)
        loser = seat & 1
        ranks = tuple(int(other & 1 == loser) for other in range(players))
        winner = ("red", "white")[1 - loser]
        how = "resigns" if reason is Forfeit.RESIGNATION else "runs out of time"
        text = f"{('Red', 'White')[loser]} {how} · {winner.capitalize()} wins"
        return Outcome(ranks, _summary(state.board, text, winner, reason.value))

    def stand_in(self, state: RoseKingState, seat: int) -> StandIn:
        if state.pending is not None:  # RK-19 Light: the play the player chose stands
            return StandIn(action=END_TURN)
        return StandIn(bot="greedy")

    def record(
        self, played: Playthrough[RoseKingState, RoseKingAction], names: Sequence[str]
    ) -> dict[str, JSON]:
        return record_of(played.state.board, names)  # RK-23

    def replay(
        self, played: Playthrough[RoseKingState, RoseKingAction], seat: int | None
    ) -> list[dict[str, JSON]]:
        """One frame per move on the board (passes too; a Light play taken back is none)."""
        state = played.state
        board = root(state.board)
        frames = [self._state(board, seat, state.options)]
        for entry, move in zip(state.entries, state.board.move_stack, strict=True):
            board.push(move)
            frames.append({**self._state(board, seat, state.options), "last_move": entry})
        if board.is_over():  # the replay ends on the territories and the result
            frames[-1]["end"] = end_account(board, seat)
        return frames

    def bots(self) -> dict[str, tuple[str, ...]]:
        from roses.bots.roseking import INSTANT, available_bots

        return {name: () if name in INSTANT else STRENGTHS for name in available_bots()}

    def prepare_bot(self, bot: str) -> None:
        from roses.bots.roseking import prepare

        prepare(bot)

    def bot_input(self, state: RoseKingState, seat: int) -> PlayerView | None:
        # None: the bot's own Light play waits (RK-19), and a bot never takes a play back.
        return None if state.pending is not None else state.board.view(seat)

    def bot_action(self, bot: str, bot_input: PlayerView | None, seconds: float, seed: int) -> JSON:
        from roses.bots.roseking import make_bot

        if bot_input is None:
            return END_TURN
        return str(make_bot(bot, seed=seed, time_limit=seconds).choose(bot_input))

    def fallback_action(self, bot_input: PlayerView | None, rng: random.Random) -> RoseKingAction:
        return END_TURN if bot_input is None else rng.choice(bot_input.legal_moves)

    # Hands are public (RK-5): a running casual game may be analysed (never a rated one).
    analyses_running_games = True

    def analysis_inputs(self, state: RoseKingState) -> list[tuple[int, PlayerView, str]]:
        """Each move made so far (passes too) with the view its seat had then: hands are
        public (RK-5) and the pile enters as a set of cards (RK-20), never its order."""
        board = root(state.board)
        inputs = []
        for ply, move in enumerate(state.board.move_stack):
            inputs.append((ply, board.view(board.turn), str(move)))
            board.push(move)
        return inputs

    def prepare_analysis(self) -> None:
        from roses.bots.roseking.search import warm_up

        warm_up()

    def analyse(self, analysis_input: tuple[int, PlayerView, str], seconds: float) -> JSON:
        from roses.bots.roseking.analysis import analyse_move

        ply, view, move = analysis_input
        return analyse_move(view, parse_move(move), ply, time_limit=seconds).to_dict()

    def position_input(self, raw: JSON) -> PlayerView:
        """An RK-23 position or a JSON view: the view of its seat to move (RK-20)."""
        from roses.bots.roseking.positions import position_view

        try:
            return position_view(raw)
        except ValueError as error:
            raise InvalidInput(str(error)) from None

    def analyse_position(self, position_input: PlayerView, seconds: float) -> JSON:
        from roses.bots.roseking.analysis import analyse_position

        return analyse_position(position_input, time_limit=seconds).to_dict()

    def tutorial(self) -> RoseKingTutorial:
        return RoseKingTutorial(self)


class RoseKingTutorial:
    """The tutorial's real positions (``roses.roseking.tutorial``) shown as Red sees them in
    a game, and the learner's moves judged by the engine."""

    def __init__(self, game: RoseKing) -> None:
        self.game = game

    def steps(self) -> tuple[str, ...]:
        return tuple(step.key for step in TUTORIAL_STEPS)

    def _view(self, board: Board) -> dict[str, JSON]:
        state = RoseKingState(board, {})
        replayed = root(board)
        for move in board.move_stack:
            before = replayed.copy(stack=False)
            replayed.push(move)
            state.entries.append(move_entry(len(state.entries), before, move, replayed))
        return self.game.view(state, 0)

    def view(self, step: int) -> dict[str, JSON]:
        return self._view(TUTORIAL_STEPS[step].board())

    def answer(self, step: int, action: JSON) -> TutorialAnswer:
        move = self.game.parse_action(action)
        if isinstance(move, LightStep):
            raise InvalidInput("a tutorial step asks for a card like N2, N2h, draw or pass")
        lesson, text = TUTORIAL_STEPS[step], str(move)
        board = lesson.board()
        reason = judge(board, lesson, move)
        target = TARGET[move.card][board.crown] if move.card is not None else -1
        values: dict[str, JSON] = {
            "move": text,
            "card": None if move.card is None else card_name(move.card),
            "target": square_name(target) if target >= 0 else None,
        }
        if not board.is_legal(move):
            return TutorialAnswer(False, reason.value, values, None)
        board.push(move)
        outcome = board.outcome()
        if outcome is not None:  # what the move would score (RK-14, RK-21)
            values |= {"red": str(outcome.red), "white": str(outcome.white)}
        accepted = reason is Reason.EXPECTED
        after = self._view(board) if accepted else None
        return TutorialAnswer(accepted, reason.value, values, after)


ROSE_KING = RoseKing()
