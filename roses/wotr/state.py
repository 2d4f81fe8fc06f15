"""The whole game state: what is on the table, behind each screen and in the deck.

``GameState`` is plain mutable data; the phase modules (``phases/``) change it and
``Game`` drives them as a state machine. Players are seats 0..n-1 (Red, Yellow, Green,
Blue); ``order`` lists them in this turn's turn order (WR-6).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Protocol

from .actions import Orders
from .data import BoardData
from .text import Phrase, Value, phrase

SEAT_NAMES: Final = ("Red", "Yellow", "Green", "Blue")
LANCASTER: Final = "Lancaster"
YORK: Final = "York"
START_MONEY: Final = 6  # WR-4
BRIBE_CUBES: Final = 6  # WR-4: of each colour, per player
VP_SOURCES: Final = ("zones", "king", "awards", "calais", "trade", "church")


class Phase(enum.Enum):
    """WR-6..WR-14: the 8 phases of a turn, and the end of the game."""

    TURN_ORDER = "turn order"
    DRAW = "draw cards"
    INCOME = "income"
    PLANNING = "planning"
    DEPLOYMENT = "deployment"
    BRIBERY = "bribery"
    COMBAT = "combat"
    PARLIAMENT = "parliament"
    OVER = "game over"


@dataclass
class PlayerState:
    money: int = START_MONEY
    vp: int = 0
    mercenaries: int = 0  # tokens held behind the screen, not yet placed
    french_aid_used: bool = False
    house: str | None = None  # 4 players only (WR-15, WR-19)
    vp_by_source: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VP_SOURCES, 0))


@dataclass(frozen=True)
class Event:
    """One line of the public game log: a ``Phrase``, so that each reader can have it in
    their language (``text`` is the English)."""

    turn: int
    phase: Phase
    phrase: Phrase
    scored: tuple[int, int] | None = None  # (seat, VP) when the event gives VP

    @property
    def text(self) -> str:
        return str(self.phrase)

    def to_json(self) -> dict[str, Any]:
        found = {"turn": self.turn, "phase": self.phase.value, **self.phrase.to_json()}
        if self.scored is not None:
            found["scored"] = {"seat": SEAT_NAMES[self.scored[0]], "vp": self.scored[1]}
        return found


class Table(Protocol):
    """What is public on the table: enough to check a player's orders (WR-10) and to count
    control points (WR-14). ``GameState`` and ``PlayerView`` both provide it."""

    @property
    def board(self) -> BoardData: ...
    @property
    def owner(self) -> Mapping[str, int | None]: ...
    @property
    def noble_zone(self) -> Mapping[str, str]: ...
    @property
    def ship_sea(self) -> Mapping[str, str]: ...
    @property
    def order(self) -> Sequence[int]: ...
    @property
    def calais(self) -> tuple[int, str] | None: ...
    @property
    def player_count(self) -> int: ...


@dataclass
class GameState:
    board: BoardData
    players: list[PlayerState]
    order: list[int]
    deck: list[str]  # face down, top first
    turn: int = 1
    phase: Phase = Phase.TURN_ORDER
    owner: dict[str, int | None] = field(default_factory=dict)  # icons' and nobles' cards
    noble_zone: dict[str, str] = field(default_factory=dict)  # nobles on the board
    ship_sea: dict[str, str] = field(default_factory=dict)  # every ship's sea zone
    returned: list[str] = field(default_factory=list)  # face up on the deck (WR-7, WR-13)
    layout: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)  # back in the box
    picks: list[int] = field(default_factory=list)  # this draft's pick sequence
    pick_index: int = 0
    french_aid_queue: list[int] = field(default_factory=list)
    orders: dict[int, Orders] = field(default_factory=dict)  # sealed until all are in
    revealed: dict[int, Orders] = field(default_factory=dict)  # this turn's, once revealed
    calais: tuple[int, str] | None = None  # (holder, zone) for this turn (WR-11)
    # The last turn's Calais: shown with that turn's revealed plans until the next reveal.
    revealed_calais: tuple[int, str] | None = None
    award_holder: dict[str, int | None] = field(default_factory=dict)
    crowned: list[str | None] = field(default_factory=list)  # per turn (WR-15)
    mercenary_supply: int = 0
    # Set by deployment, used by bribery and combat, cleared at the end of the turn.
    defence: dict[str, int] = field(default_factory=dict)  # Location -> its owner's troops
    attacks: dict[str, dict[int, int]] = field(default_factory=dict)  # Location -> seat -> troops
    white_cubes: set[str] = field(default_factory=set)
    black_cubes: dict[int, list[str]] = field(default_factory=dict)
    mercenaries_placed: int = 0
    # The last reveal's troops, public until the next one: Location -> seat -> troops and
    # mercenaries placed after shortfalls and cancellations (WR-11), and standing once
    # every battle is over (WR-13).
    troops_placed: dict[str, dict[int, int]] = field(default_factory=dict)
    troops_after_combat: dict[str, dict[int, int]] = field(default_factory=dict)
    log: list[Event] = field(default_factory=list)
    # A search's copy: resolves exactly as the game does but keeps no log (``clone``).
    quiet: bool = False

    @property
    def player_count(self) -> int:
        return len(self.players)

    def note(self, template: str, **params: Value) -> None:
        """Log an event: ``template`` in English with ``{name}`` placeholders, and their
        values (``text.Phrase``). A quiet copy logs nothing."""
        if self.quiet:
            return
        self.log.append(Event(self.turn, self.phase, phrase(template, **params)))

    def score(self, seat: int, source: str, vp: int, template: str, **params: Value) -> None:
        """``seat`` gains ``vp`` from ``source`` (one of ``VP_SOURCES``); every VP is an
        event of the public log, so the log's VP add up to each player's total.
        ``template`` may use ``{seat}`` and ``{vp}``."""
        player = self.players[seat]
        player.vp += vp
        player.vp_by_source[source] += vp
        if self.quiet:
            return
        said = phrase(template, seat=self.name(seat), vp=vp, **params)
        self.log.append(Event(self.turn, self.phase, said, scored=(seat, vp)))

    def clone(self) -> GameState:
        """A quiet copy for a search: what the rules change is copied, the board and the
        frozen plans are shared, and the log is left behind (it is text for people)."""
        return GameState(
            board=self.board,
            players=[replace(p, vp_by_source=dict(p.vp_by_source)) for p in self.players],
            order=list(self.order),
            deck=list(self.deck),
            turn=self.turn,
            phase=self.phase,
            owner=dict(self.owner),
            noble_zone=dict(self.noble_zone),
            ship_sea=dict(self.ship_sea),
            returned=list(self.returned),
            layout=list(self.layout),
            removed=list(self.removed),
            picks=list(self.picks),
            pick_index=self.pick_index,
            french_aid_queue=list(self.french_aid_queue),
            orders=dict(self.orders),
            revealed=dict(self.revealed),
            calais=self.calais,
            revealed_calais=self.revealed_calais,
            award_holder=dict(self.award_holder),
            crowned=list(self.crowned),
            mercenary_supply=self.mercenary_supply,
            defence=dict(self.defence),
            attacks={location: dict(by_seat) for location, by_seat in self.attacks.items()},
            white_cubes=set(self.white_cubes),
            black_cubes={seat: list(cards) for seat, cards in self.black_cubes.items()},
            mercenaries_placed=self.mercenaries_placed,
            troops_placed={
                location: dict(by_seat) for location, by_seat in self.troops_placed.items()
            },
            troops_after_combat={
                location: dict(by_seat) for location, by_seat in self.troops_after_combat.items()
            },
            quiet=True,
        )

    def name(self, seat: int) -> str:
        return SEAT_NAMES[seat]

    def position(self, seat: int) -> int:
        """0 for the first player in turn order."""
        return self.order.index(seat)

    def owned(self, seat: int, kind: str | None = None) -> list[str]:
        """The cards ``seat`` holds (of one icon kind, or ``noble``), in data order."""
        cards = [card for card, holder in self.owner.items() if holder == seat]
        if kind is None:
            return cards
        return [card for card in cards if self.board.card_kind(card) == kind]

    def clear_turn(self) -> None:
        self.revealed_calais, self.calais = self.calais, None
        self.defence = {}
        self.attacks = {}
        self.white_cubes = set()
        self.black_cubes = {}
        self.mercenary_supply += self.mercenaries_placed
        self.mercenaries_placed = 0
