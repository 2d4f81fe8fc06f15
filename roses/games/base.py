"""The seam between the server and the games: the one interface every game implements.

The server stores a game as its deal (``setup``) and an append-only log of ``(seat,
action)``; it rebuilds the state once with ``restore`` and ``apply``, keeps it in the game's
writer, and asks the game for everything else: who acts, what each seat sees, the outcome,
the record. It never looks inside a state, an action or a view. An action is parsed once
(``parse_action``), where it enters (a request, a bot's answer, the stored log), and flows
parsed to ``apply``. A subclass of ``GameModule`` listed in ``roses.games`` is playable in
the browser, with replays and records, without any change to the server; ``HasBots``,
``Analysable`` and ``PositionAnalysable`` add bots, analysis and set-up positions analysed.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

# A JSON-ready value: dict, list, str, int, float, bool or None. Kept ``Any``: the exact
# recursive union makes every nested literal a type error (dict and list are invariant,
# so {"targets": dict[str, str | None]} is no dict[str, JSON]); tried, it cost 32 errors
# in 5 files, 3 of them the server's. The actions, the parsed side, are typed instead.
JSON = Any

State = TypeVar("State")
Action = TypeVar("Action")


def N_(text: str) -> str:
    """Marks a text people read that a game sends as data (its title, a seat's name) for
    the catalogues in roses/locale; the pages translate it where they show it."""
    return text


class GameError(Exception):
    """A player's input the game refuses; nothing was changed. ``message`` is a sentence.

    ``template`` is the English message with ``{name}`` placeholders and ``params`` their
    values: the server translates the template (the games never import the server)."""

    def __init__(self, template: str, **params: JSON) -> None:
        message = template.format(**params) if params else template
        super().__init__(message)
        self.message = message
        self.template = template
        self.params = params


class InvalidInput(GameError):
    """Input that is not an action or an option at all (the server answers 422)."""


class IllegalAction(GameError):
    """A well-formed action that the rules do not allow now (the server answers 409)."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: ``ranks[seat]`` is 0 for the winners, equal ranks tie."""

    ranks: tuple[int, ...]
    summary: dict[str, JSON]  # the game's own account (scores, termination, ...)


class TimeoutRule(StrEnum):
    """What happens when a seat's time runs out (``GameModule.timeout_rule``)."""

    LOSS = "loss"  # it loses at once (its team with it), like a flag falling in chess
    CLAIM = "claim"  # its opponents may claim the win, or go on waiting for its move
    STAND_IN = "stand-in"  # its decision is made for it (``GameModule.stand_in``)


class TableTalk(StrEnum):
    """What the players may say at the table while a game is played
    (``GameModule.table_talk``); once the game is over the talk is free."""

    FREE = "free"  # anything they like
    COURTESY = "courtesy"  # only the server's courtesy phrases (hello, good luck, ...)
    CLOSED = "closed"  # nothing


@dataclass(frozen=True)
class StandIn:
    """The decision made for an absent seat whose time ran out: this bot's (searched
    through the bot processes, from the seat's view only), or ``action`` (parsed) as it is."""

    bot: str | None = None
    action: Any = None


@dataclass(frozen=True)
class BotWords:
    """A bot as the new-game form names it: ``label`` says what it is, ``level`` how well
    it plays (from the strength measurements in benchmarks/results)."""

    bot: str
    label: str
    level: str


@dataclass(frozen=True)
class OptionField:
    """One option of the new-game form, described for the lobby (and the API docs)."""

    name: str
    label: str  # what the option does, in words (no rule numbers: see ``rule``)
    default: bool
    players: tuple[int, ...]  # the player counts it applies to
    rule: str = ""  # the rule it follows, e.g. "RK-19" (for the API docs, not for players)
    short: str = ""  # a word or two for a game's row in the lists (mark it with N_)

    def to_json(self) -> dict[str, JSON]:
        return {
            "name": self.name,
            "label": self.label,
            "short": self.short or self.label,
            "default": self.default,
            "players": list(self.players),
            "rule": self.rule,
        }


@dataclass(frozen=True)
class TutorialAnswer:
    """A tutorial's judgement of a learner's move: ``accepted`` only for the move asked for.
    ``reason`` names the hint the game's texts give, ``values`` fill its placeholders, and
    ``view`` is the position after an accepted move (None: the position is unchanged)."""

    accepted: bool
    reason: str
    values: dict[str, JSON]
    view: dict[str, JSON] | None


class Tutorial(Protocol):
    """An interactive tutorial: real positions, each asking the learner for a move that the
    game's rules check. Its texts live with the game's web client, keyed by step."""

    def steps(self) -> tuple[str, ...]:
        """Each step's key, in order."""
        ...

    def view(self, step: int) -> dict[str, JSON]:
        """The step's position as the learner's seat sees it (shaped like ``view``)."""
        ...

    def answer(self, step: int, action: JSON) -> TutorialAnswer:
        """The learner's raw ``action`` judged; ``InvalidInput`` if it is no action at all."""
        ...


@runtime_checkable
class TutorialPreview(Protocol):
    """Optional: a tutorial whose steps preview a draft (a plan being made) the way the
    game's ``DraftPreview`` does in a game, from the learner's view of the step."""

    def preview(self, step: int, draft: JSON) -> JSON:
        """``draft`` reckoned in step ``step``'s position; None when there is nothing to
        preview there."""
        ...


def tutorial_preview(tutorial: Tutorial, step: int, draft: JSON) -> JSON:
    """The tutorial's preview of ``draft`` in ``step``, or None if it previews nothing."""
    return tutorial.preview(step, draft) if isinstance(tutorial, TutorialPreview) else None


class Forfeit(StrEnum):
    """Why a seat gives the game up (``GameModule.forfeit``)."""

    RESIGNATION = "resignation"
    TIME = "time"  # its time ran out where that loses the game (``TimeoutRule.LOSS``)


@dataclass(frozen=True)
class Playthrough(Generic[State, Action]):
    """A game as far as it has been played: how it began, every action in order (parsed)
    and the state they led to. What a replay or a record is made from."""

    players: int
    options: Mapping[str, JSON]
    deal: JSON
    actions: Sequence[tuple[int, Action]]
    state: State


class GameModule(ABC, Generic[State, Action]):
    """A game as the server sees it. Every method is pure with respect to the server: it
    reads or changes only the ``state`` it is given.

    A game implements the abstract core (the deal, the state, its actions, views and the
    outcome) and overrides a default only where its rules differ. Bots (``HasBots``) and
    analysis (``Analysable``) are optional protocols on top."""

    name: str  # the key stored with each game and used in URLs: "roseking", "wotr"
    title: str  # what people call it: "The Rose King"
    player_counts: tuple[int, ...]
    option_fields: tuple[OptionField, ...] = ()
    # Dotted paths of a view that hold the viewer's own secrets (a hand, a sealed plan):
    # None for a spectator and never shown to another seat (tests/games/test_every_game.py).
    private_fields: tuple[str, ...] = ()
    # Each bot in words for people, weakest first: what it is and how strong it plays
    # ("Search", "strongest"), each marked with N_. A bot left out is shown by its name.
    bot_words: tuple[BotWords, ...] = ()
    # Whether players seated together in a game in progress may write each other private
    # messages away from the table (the server's people pages); False where the rules forbid
    # table talk, which a private word would get round.
    private_talk: bool = True

    # -- the core ---------------------------------------------------------------------------

    @abstractmethod
    def setup(self, seed: int, players: int, options: Mapping[str, JSON]) -> JSON:
        """The deal: everything chance decides, fixed from ``seed`` (secret while it runs)."""

    @abstractmethod
    def restore(self, deal: JSON, players: int, options: Mapping[str, JSON]) -> State:
        """The start state of a game with this deal."""

    @abstractmethod
    def to_act(self, state: State) -> tuple[int, ...]:
        """The seats whose decision the game waits for: one, several at once, or none."""

    @abstractmethod
    def parse_action(self, raw: JSON) -> Action:
        """``raw`` (sent, stored or a bot's answer) as this game's action, or ``InvalidInput``.
        The only place an action is parsed: ``apply`` takes what this returns."""

    @abstractmethod
    def action_json(self, action: Action) -> JSON:
        """The action's one JSON form, as it is stored (``parse_action`` reads it back)."""

    @abstractmethod
    def apply(self, state: State, seat: int, action: Action) -> None:
        """Make ``seat``'s ``action``; ``IllegalAction`` and no change if not allowed."""

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        """Everything ``seat`` (None: a spectator) may see, legal actions included. The only
        producer of game content the server sends; its keys must not clash with the
        server's own (``roses.server.play.views.ENVELOPE_KEYS``)."""

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None:
        """None while the game runs."""

    # -- defaults ---------------------------------------------------------------------------

    def parse_options(self, players: int, raw: Mapping[str, JSON]) -> dict[str, JSON]:
        """The options of a new game, checked and completed with defaults (``InvalidInput``):
        each of ``option_fields`` is true or false and offered for some player counts."""
        if players not in self.player_counts:
            raise InvalidInput(
                "{game} cannot be played by this number of players ({n}); choose {counts}",
                game=self.title,
                n=players,
                counts=", ".join(map(str, self.player_counts)),
            )
        options: dict[str, JSON] = {}
        for option in self.option_fields:
            value = raw.get(option.name, option.default)
            if not isinstance(value, bool):
                raise InvalidInput("the option '{name}' is true or false", name=option.name)
            if value and players not in option.players:
                raise InvalidInput(
                    "the option '{name}' is not offered for this number of players ({n})",
                    name=option.name,
                    n=players,
                )
            options[option.name] = value
        unknown = sorted(set(raw) - set(options))
        if unknown:
            raise InvalidInput("{game} has no option '{name}'", game=self.title, name=unknown[0])
        return options

    def seat_labels(self, players: int, options: Mapping[str, JSON]) -> list[str]:
        """A name per seat in seat order, e.g. ``["Red", "White"]``."""
        return [f"Seat {seat + 1}" for seat in range(players)]

    def teams(self, players: int) -> tuple[int, ...]:
        """The team of each seat (by default each seat its own): ratings rate each player
        against each opponent, never against a partner."""
        return tuple(range(players))

    def materials(self, players: int, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """The public components a client draws with (a map, card texts): fetched once."""
        return {}

    def may_act(self, state: State, seat: int) -> bool:
        """Whether ``seat`` may act now: by default a seat the game waits for (a game may
        also let a seat take back a decision it made, e.g. a sealed plan)."""
        return seat in self.to_act(state)

    def forfeit(self, state: State, players: int, seat: int, reason: Forfeit) -> Outcome:
        """The outcome when ``seat`` resigns or loses on time: its team ranks last, every
        other seat shares first place."""
        teams = self.teams(players)
        ranks = tuple(int(teams[other] == teams[seat]) for other in range(players))
        return Outcome(ranks, {"termination": reason.value, "forfeited": seat})

    def table_talk(self, state: State) -> TableTalk:
        """What the players may say at the table now, while the game is played: by default
        anything (a game whose rules forbid talk says so by phase: courtesy phrases only,
        or nothing). The server asks only during the game: after it the talk is free."""
        return TableTalk.FREE

    def timeout_rule(self, players: int, live: bool) -> TimeoutRule:
        """What happens when a seat's time runs out, on a live clock or a correspondence
        deadline (``roses/server/clocks/timeouts.py`` carries it out). By default: with two
        seats the opponent wins (at once live, on a claim by correspondence); with more the
        others play on, a bot deciding for the absent seat, if the game has bots."""
        if players > 2 and isinstance(self, HasBots):
            return TimeoutRule.STAND_IN
        return TimeoutRule.LOSS if live else TimeoutRule.CLAIM

    def stand_in(self, state: State, seat: int) -> StandIn:
        """The decision made for ``seat``, absent when its time ran out (``STAND_IN``): by
        default the game's first bot's."""
        if not isinstance(self, HasBots):
            raise TypeError(f"{self.name} has no bots: it must say how a seat is stood in for")
        return StandIn(bot=next(iter(self.bots())))

    def record(self, played: Playthrough[State, Action], names: Sequence[str]) -> dict[str, JSON]:
        """The full record with the deal (god's view: the server sends it once it is over);
        by default everything ``restore`` and ``parse_action`` need to play it again."""
        return {
            "game": self.name,
            "names": list(names),
            "players": played.players,
            "options": dict(played.options),
            "deal": played.deal,
            "actions": [[seat, self.action_json(action)] for seat, action in played.actions],
        }

    def replay(self, played: Playthrough[State, Action], seat: int | None) -> list[dict[str, JSON]]:
        """The game's states from the start, one per action, each as ``seat`` may see it."""
        state = self.restore(played.deal, played.players, played.options)
        frames = [self.view(state, seat)]
        for actor, action in played.actions:
            self.apply(state, actor, action)
            frames.append(self.view(state, seat))
        return frames

    def tutorial(self) -> Tutorial | None:
        """The game's interactive tutorial, if it has one (served at /tutorial/<name>)."""
        return None


@runtime_checkable
class HasBots(Protocol):
    """Optional: a game with bots, which can take a seat or stand in for an absent player.
    A bot decides in a bot process from ``bot_input`` alone (the seat's knowledge)."""

    def bots(self) -> dict[str, tuple[str, ...]]:
        """The bots a seat can be given, each with its strengths (none: it does not search)."""
        ...

    def prepare_bot(self, bot: str) -> None:
        """Get ``bot`` ready to answer within its time (e.g. compile its search): called once
        per bot process before its first move, outside that move's time."""
        ...

    def bot_input(self, state: Any, seat: int) -> Any:
        """What a bot in ``seat`` may know, picklable: it travels to a bot process."""
        ...

    def bot_action(self, bot: str, bot_input: Any, seconds: float, seed: int) -> JSON:
        """The bot's action in JSON (runs in a bot process, within ``seconds``); the server
        parses it like a player's."""
        ...

    def fallback_action(self, bot_input: Any, rng: random.Random) -> Any:
        """A legal action (parsed) chosen at random, for a bot that failed or overran."""
        ...


def with_bots(module: object) -> HasBots | None:
    """``module`` as a ``HasBots`` if it has bots, else None."""
    return module if isinstance(module, HasBots) else None


def bots_offered(module: object) -> dict[str, tuple[str, ...]]:
    """The bots ``module`` offers with their strengths; none if it has no bots."""
    players = with_bots(module)
    return {} if players is None else players.bots()


def bots_described(module: GameModule[Any, Any]) -> list[dict[str, JSON]]:
    """The bots ``module`` offers, weakest first, each with its words and strengths."""
    offered = bots_offered(module)
    words = {w.bot: w for w in module.bot_words if w.bot in offered}
    order = [*words, *sorted(set(offered) - set(words))]
    return [
        {
            "name": bot,
            "label": words[bot].label if bot in words else bot,
            "level": words[bot].level if bot in words else "",
            "strengths": list(offered[bot]),
        }
        for bot in order
    ]


def bot_player(module: GameModule[Any, Any]) -> HasBots:
    """``module``'s bots, for a seat that a bot holds (only an offered bot takes a seat)."""
    players = with_bots(module)
    if players is None:
        raise TypeError(f"{module.name} has no bots, yet a bot was asked to play it")
    return players


@runtime_checkable
class Analysable(Protocol):
    """Optional: a game whose decisions can be analysed for people after they are made
    (each decision's value before and after, the best one, a judgement). A module without
    these methods has no analysis; the server says so.

    The work runs in the bot worker processes, one decision per job, within a hard time
    limit. Each decision is judged from what its seat knew when making it, never from the
    deal, so an analysis of a game still running reveals no more than its moves did."""

    # Whether a game may be analysed while it runs (never while a rated one does): False
    # when a decision's judgement rests on what its seat alone knew then (Wars of the
    # Roses: its money behind the screen), so the game is analysed only once it is over.
    analyses_running_games: bool

    def analysis_inputs(self, state: Any) -> list[Any]:
        """One picklable input per decision made so far, in order: the deciding seat's
        knowledge then (a bot's input) and the decision made."""
        ...

    def prepare_analysis(self) -> None:
        """Get the analysis ready to answer within its time (once per worker process)."""
        ...

    def analyse(self, analysis_input: Any, seconds: float) -> dict[str, JSON]:
        """One decision judged within ``seconds`` (runs in a worker process)."""
        ...


@runtime_checkable
class PositionAnalysable(Analysable, Protocol):
    """Optional on top of ``Analysable``: a position a player sets up, analysed at once."""

    def position_input(self, raw: JSON) -> Any:
        """A position a player set up, in the game's own JSON, checked and made what
        ``analyse_position`` takes (picklable); ``InvalidInput`` naming what is wrong."""
        ...

    def analyse_position(self, position_input: Any, seconds: float) -> dict[str, JSON]:
        """Every decision open in that position valued within ``seconds`` (a worker)."""
        ...


def analysable(module: object) -> Analysable | None:
    """``module`` as an ``Analysable`` if it offers analysis, else None."""
    return module if isinstance(module, Analysable) else None


def position_analysable(module: object) -> PositionAnalysable | None:
    """``module`` as a ``PositionAnalysable`` if it analyses set-up positions, else None."""
    return module if isinstance(module, PositionAnalysable) else None


@runtime_checkable
class DraftPreview(Protocol):
    """Optional: a game whose private drafts (a plan being made) the server reckons for their
    seat as they are saved, so that the page shows the engine's own account of the draft
    (e.g. its cost) instead of reckoning it again. A module without it previews nothing."""

    def preview(self, state: Any, seat: int, draft: JSON) -> JSON:
        """``draft`` as ``seat`` would see it carried out, from that seat's own view only
        (nothing another seat may not know); a malformed draft gets a preview saying what
        is wrong, never an exception; None when there is nothing to preview now."""
        ...


def draft_preview(module: object, state: Any, seat: int, draft: JSON) -> JSON:
    """The module's preview of ``seat``'s ``draft``, or None if it previews no drafts."""
    return module.preview(state, seat, draft) if isinstance(module, DraftPreview) else None
