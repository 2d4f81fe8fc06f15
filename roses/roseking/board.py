"""The Rose King position: legal moves, cheap make/unmake, the end and the outcome.

State is a handful of ints and tuples, so ``push`` saves a small snapshot and ``pop``
restores it. Stones are two bitboards; the crown's targets come from ``TARGET_BIT``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .errors import IllegalMoveError
from .geometry import (
    ALL_CARDS,
    CENTRE,
    STONE_COUNT,
    TARGET,
    TARGET_BIT,
    TARGET_BIT_FROM,
    Bitboard,
    Card,
    Square,
)
from .moves import DRAW, DRAW_MOVE, HERO, HERO_MOVES, PASS_MOVE, PLAY, PLAY_MOVES, Move
from .scoring import Outcome, TeamScore, Termination, leader, team_score
from .shuffling import seeded_shuffle
from .variants import Variant, seat_name

if TYPE_CHECKING:
    from .view import PlayerView

Hands = tuple[tuple[Card, ...], ...]
# A reshuffle (RK-9): given the discard pile (bottom first) and how many reshuffles came
# before, return the new draw pile, top card first.
Shuffler = Callable[[tuple[Card, ...], int], tuple[Card, ...]]

_Snapshot = tuple[
    Bitboard, Bitboard, Square, int, Hands, tuple[int, ...], tuple[Card, ...], tuple[Card, ...],
    int, "tuple[Move, ...] | None",
]  # fmt: skip


def seeded_shuffler(seed: int) -> Shuffler:
    """Reshuffles that depend only on the seed and the reshuffle's number.

    So ``pop`` then ``push`` of the same draw gives the same pile, and no random state
    needs saving in a snapshot.
    """

    def shuffle(cards: tuple[Card, ...], index: int) -> tuple[Card, ...]:
        return tuple(seeded_shuffle(cards, seed, 2 + index))

    return shuffle


def shuffled_deck(seed: int) -> tuple[Card, ...]:
    """The initial deck order for a seed (RK-5), top card first."""
    return tuple(seeded_shuffle(ALL_CARDS, seed, 0))


def random_first_seat(seed: int) -> int:
    """RK-7 variant random-start: the seat that moves first, drawn from the seed."""
    return seeded_shuffle((0, 1), seed, 1)[0]


class Board:
    """A Rose King position with its move stack, python-chess style.

    ``seats`` is 2 (Red, White) or 4 (Red 1, White 1, Red 2, White 2); ``turn`` is the seat to
    move. ``hands[seat]`` keeps the order cards arrived in; the draw pile is top first, the
    discard pile bottom first. ``reshuffles`` lists every new draw pile a reshuffle made.
    """

    variant: Variant
    red: Bitboard
    white: Bitboard
    crown: Square
    turn: int
    hands: Hands
    heroes: tuple[int, ...]
    draw_pile: tuple[Card, ...]
    discard_pile: tuple[Card, ...]

    def __init__(
        self,
        variant: Variant = Variant.CLASSIC,
        seed: int | None = None,
        *,
        shuffler: Shuffler | None = None,
    ) -> None:
        """A new game: the deck shuffled by ``seed`` (random if ``None``) and dealt (RK-5)."""
        self.seed = secrets.randbits(63) if seed is None else seed
        first = random_first_seat(self.seed) if variant is Variant.RANDOM_START else 0
        self._setup_from_deck(variant, shuffled_deck(self.seed), first)
        self.shuffler = shuffler or seeded_shuffler(self.seed)

    def _setup_from_deck(self, variant: Variant, deck: Sequence[Card], first_seat: int) -> None:
        limit, seats = variant.hand_limit, variant.seats
        hands = tuple(tuple(deck[i * limit : (i + 1) * limit]) for i in range(seats))
        self._set_state(
            variant=variant,
            red=0,
            white=0,
            crown=CENTRE,
            turn=first_seat,
            hands=hands,
            heroes=(variant.heroes_per_seat,) * seats,
            draw_pile=tuple(deck[seats * limit :]),
            discard_pile=(),
        )

    def _set_state(
        self,
        *,
        variant: Variant,
        red: Bitboard,
        white: Bitboard,
        crown: Square,
        turn: int,
        hands: Hands,
        heroes: tuple[int, ...],
        draw_pile: tuple[Card, ...],
        discard_pile: tuple[Card, ...],
    ) -> None:
        self.variant = variant
        self.seats = variant.seats
        self.hand_limit = variant.hand_limit
        self.red = red
        self.white = white
        self.crown = crown
        self.turn = turn
        self.hands = hands
        self.heroes = heroes
        self.draw_pile = draw_pile
        self.discard_pile = discard_pile
        self.reshuffles: list[tuple[Card, ...]] = []
        self.move_stack: list[Move] = []
        self._stack: list[_Snapshot] = []
        self._legal: tuple[Move, ...] | None = None

    @classmethod
    def from_deal(
        cls,
        variant: Variant,
        deck: Sequence[Card],
        first_seat: int = 0,
        *,
        seed: int | None = None,
        shuffler: Shuffler | None = None,
    ) -> Board:
        """A new game from an explicit deck order (top first), as a game record gives it."""
        board = cls.__new__(cls)
        board.seed = secrets.randbits(63) if seed is None else seed
        board._setup_from_deck(variant, tuple(deck), first_seat)
        board.shuffler = shuffler or seeded_shuffler(board.seed)
        return board

    @classmethod
    def from_state(
        cls,
        *,
        variant: Variant,
        red: Bitboard,
        white: Bitboard,
        crown: Square,
        turn: int,
        hands: Hands,
        heroes: tuple[int, ...],
        draw_pile: tuple[Card, ...],
        discard_pile: tuple[Card, ...],
        seed: int | None = None,
    ) -> Board:
        """A board in the given state with no history (for parsers and determinizers)."""
        board = cls.__new__(cls)
        board.seed = secrets.randbits(63) if seed is None else seed
        board.shuffler = seeded_shuffler(board.seed)
        board._set_state(
            variant=variant, red=red, white=white, crown=crown, turn=turn, hands=hands,
            heroes=heroes, draw_pile=draw_pile, discard_pile=discard_pile,
        )  # fmt: skip
        return board

    @classmethod
    def from_position(
        cls, text: str, seed: int | None = None, *, variant: Variant | None = None
    ) -> Board:
        """Parse an RK-23 position (see ``roses.roseking.position``)."""
        from .position import parse_position

        return parse_position(text, seed=seed, variant=variant)

    def position(self) -> str:
        """This position in RK-23 notation (god's view: it includes the draw pile's order)."""
        from .position import write_position

        return write_position(self)

    def view(self, viewer: int | None = None) -> PlayerView:
        """What seat ``viewer`` (or a spectator) may know: all but the draw pile's order."""
        from .view import PlayerView

        return PlayerView.of(self, viewer)

    def __str__(self) -> str:
        return self.position()

    def __repr__(self) -> str:
        return f"Board({self.position()!r})"

    def copy(self, *, stack: bool = True) -> Board:
        board = Board.__new__(Board)
        board.__dict__.update(self.__dict__)
        board.reshuffles = list(self.reshuffles)
        board.move_stack = list(self.move_stack) if stack else []
        board._stack = list(self._stack) if stack else []
        return board

    # -- what may be done -------------------------------------------------------------

    @property
    def stones_on_board(self) -> int:
        return (self.red | self.white).bit_count()

    @property
    def supply(self) -> int:
        """Stones left to place: 52 minus the stones on the board (RK-2, RK-23)."""
        return STONE_COUNT - (self.red | self.white).bit_count()

    def seat_name(self, seat: int | None = None) -> str:
        return seat_name(self.turn if seat is None else seat, self.seats)

    def can_act(self, seat: int) -> bool:
        if len(self.hands[seat]) < self.hand_limit:
            return True
        crown = self.crown
        occupied = self.red | self.white
        opponent = self.red if seat & 1 else self.white
        hero_left = self.heroes[seat] > 0
        for card in self.hands[seat]:
            bit = TARGET_BIT[card][crown]
            if bit and (not occupied & bit or (hero_left and opponent & bit)):
                return True
        return False

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves of the seat to move; empty exactly when the game is over."""
        legal = self._legal
        if legal is not None:
            return legal
        occupied = self.red | self.white
        if occupied.bit_count() >= STONE_COUNT:
            legal = ()  # RK-12
        else:
            seat = self.turn
            targets = TARGET_BIT_FROM[self.crown]
            # RK-10: a hero lands only on an opponent's stone.
            opponent = (self.red if seat & 1 else self.white) if self.heroes[seat] else 0
            hand = self.hands[seat]
            moves = []
            for card in hand:
                bit = targets[card]
                if not bit:
                    continue  # the crown would leave the board (RK-8)
                if not occupied & bit:
                    moves.append(PLAY_MOVES[card])
                elif opponent & bit:
                    moves.append(HERO_MOVES[card])
            if len(hand) < self.hand_limit:
                moves.append(DRAW_MOVE)  # RK-9
            if moves:
                legal = tuple(moves)
            elif any(self.can_act(other) for other in range(self.seats) if other != seat):
                legal = (PASS_MOVE,)  # RK-11, RK-17
            else:
                legal = ()  # RK-13, RK-17
        self._legal = legal
        return legal

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves()

    def is_over(self) -> bool:
        return not self.legal_moves()

    # -- make and unmake --------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Make ``move``; raises ``IllegalMoveError`` (changing nothing) if it is not legal."""
        legal = self._legal
        if legal is None:
            legal = self.legal_moves()
        if move not in legal:
            raise self._illegal(move)
        seat = self.turn
        hands = self.hands
        snapshot = (
            self.red, self.white, self.crown, seat, hands, self.heroes,
            self.draw_pile, self.discard_pile, len(self.reshuffles), legal,
        )  # fmt: skip
        card = move.card
        if card is not None:
            target = TARGET[card][self.crown]
            bit = 1 << target
            if move.kind == HERO:  # RK-10: flip, no stone leaves the supply
                self.red ^= bit
                self.white ^= bit
                heroes = list(self.heroes)
                heroes[seat] -= 1
                self.heroes = tuple(heroes)
            elif seat & 1:  # RK-8
                self.white |= bit
            else:
                self.red |= bit
            self.crown = target
            hand = hands[seat]
            index = hand.index(card)
            new_hand = hand[:index] + hand[index + 1 :]
            self.discard_pile += (card,)
        elif move.kind == DRAW:
            pile = self.draw_pile
            if len(pile) > 1:
                self.draw_pile = pile[1:]
            else:  # RK-9: the last card drawn, the discard pile becomes the draw pile
                # (shuffled before anything changes: a recorded shuffle may be rejected)
                new_pile = self.shuffler(self.discard_pile, len(self.reshuffles))
                self.draw_pile = new_pile
                self.reshuffles.append(new_pile)
                self.discard_pile = ()
            new_hand = hands[seat] + (pile[0],)
        else:  # RK-11: a pass changes nothing but the turn
            new_hand = hands[seat]
        if self.seats == 2:
            self.hands = (hands[0], new_hand) if seat else (new_hand, hands[1])
        else:
            self.hands = (*hands[:seat], new_hand, *hands[seat + 1 :])
        self._stack.append(snapshot)
        self.move_stack.append(move)
        self.turn = (seat + 1) % self.seats
        self._legal = None

    def pop(self) -> Move:
        """Unmake the last move and return it."""
        (
            self.red, self.white, self.crown, self.turn, self.hands, self.heroes,
            self.draw_pile, self.discard_pile, reshuffle_count, self._legal,
        ) = self._stack.pop()  # fmt: skip
        del self.reshuffles[reshuffle_count:]
        return self.move_stack.pop()

    def peek(self) -> Move:
        return self.move_stack[-1]

    def _illegal(self, move: Move) -> IllegalMoveError:
        """Why ``move`` is illegal here (a template and its values: see ``errors``)."""
        who, text = self.seat_name(), str(move)
        if self.is_over():
            return IllegalMoveError("illegal move {move}: the game is over", move=text)
        if move.kind == DRAW:
            return IllegalMoveError(
                "illegal move draw: {who} already holds {n} cards (RK-9)", who=who,
                n=self.hand_limit,
            )  # fmt: skip
        if move.kind == PLAY or move.kind == HERO:
            card = move.card
            assert card is not None
            if card not in self.hands[self.turn]:
                return IllegalMoveError(
                    "illegal move {move}: {who} does not hold {card}", move=text, who=who,
                    card=text.rstrip("h"),
                )  # fmt: skip
            target = TARGET[card][self.crown]
            if target < 0:
                return IllegalMoveError(
                    "illegal move {move}: the crown would leave the board (RK-8)", move=text
                )
            bit = 1 << target
            if move.kind == PLAY:
                return IllegalMoveError(
                    "illegal move {move}: the target square holds a stone (RK-8)", move=text
                )
            if not self.heroes[self.turn]:
                return IllegalMoveError(
                    "illegal move {move}: {who} has no hero card left (RK-10)", move=text, who=who
                )
            if not (self.red | self.white) & bit:
                return IllegalMoveError(
                    "illegal move {move}: a hero needs an opponent's stone there (RK-10)",
                    move=text,
                )
            return IllegalMoveError(
                "illegal move {move}: a hero cannot land on an own stone (RK-10)", move=text
            )
        return IllegalMoveError("illegal move pass: {who} can still move (RK-11)", who=who)

    def reorder_draw_pile(self, order: Sequence[Card]) -> None:
        """Put the draw pile in ``order`` (top first): the same cards, a chosen order.

        For chance-driven callers (OpenSpiel chance nodes, determinized search) that decide
        which card a draw reveals. Raises ``ValueError`` unless ``order`` is a permutation
        of the current draw pile.
        """
        order = tuple(order)
        if sorted(order) != sorted(self.draw_pile):
            raise ValueError("a new draw pile order must hold exactly the draw pile's cards")
        self.draw_pile = order

    # -- the end ----------------------------------------------------------------------

    def team_scores(self) -> tuple[TeamScore, TeamScore]:
        """(Red, White) scores with tie-breaks; available at any time (RK-14)."""
        return team_score(self.red), team_score(self.white)

    def outcome(self) -> Outcome | None:
        """The result once the game is over (RK-12..RK-15), else ``None``."""
        if not self.is_over():
            return None
        red, white = self.team_scores()
        termination = (
            Termination.LAST_STONE
            if (self.red | self.white).bit_count() >= STONE_COUNT
            else Termination.NO_MOVES
        )
        return Outcome(termination, leader(red, white), red, white)

    # -- identity ---------------------------------------------------------------------

    def state_key(self) -> tuple[object, ...]:
        """Everything that makes the position (not the history): equal keys, equal positions."""
        return (
            self.variant.seats, self.red, self.white, self.crown, self.turn, self.hands,
            self.heroes, self.draw_pile, self.discard_pile,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.state_key() == other.state_key()

    __hash__ = None  # type: ignore[assignment]  # mutable, like python-chess's Board
