"""The Rose King with every random event an explicit chance outcome, for research tools.

The engine's ``Board`` shuffles with a seed; OpenSpiel and reinforcement-learning
environments want each random event as a chance node with exact probabilities instead.
Here each card of the deal (RK-5) and each card a draw reveals (RK-9) is a chance outcome,
uniform over the cards it may be:

- the deal is one chance node per dealt card, seat by seat (all of Red's, then White's;
  four players: R1, W1, R2, W2); a card comes up with probability 1 / (cards not yet dealt);
- a draw (action 48) is followed by one chance node: each card of the draw pile comes up
  with probability 1 / (cards in the pile).

The draw pile is face down, so choosing the drawn card uniformly from its contents at the
moment of the draw is the same as a hidden shuffle. The pile is kept sorted between draws:
no order exists to leak, and after a reshuffle (RK-9, done by the engine when the last card
is drawn) the next draws are again uniform over the new pile, so every probability stays
exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from roses.roseking import Board, IllegalMoveError, Move, Variant
from roses.roseking.geometry import ALL_CARDS, CARD_NAMES, CENTRE, STONE_COUNT, Card
from roses.roseking.moves import ACTION_COUNT, DRAW, DRAW_MOVE
from roses.roseking.scoring import Team
from roses.roseking.variants import seat_name
from roses.roseking.view import PlayerView

ActionId = int  # Move.action_id: plays 0..23, hero plays 24..47, draw 48, pass 49


def variant_for_players(players: int) -> Variant:
    """The variant with this many players: 2 (RK-7, Red first) or 4 (RK-16 teams)."""
    if isinstance(players, bool) or players not in (2, 4):
        raise ValueError(
            f"players must be 2 or 4 (the four-player game is the team variant, RK-16), "
            f"got {players!r}"
        )
    return Variant.FOUR_PLAYER if players == 4 else Variant.CLASSIC


def _max_card_plays(variant: Variant) -> int:
    """52 stones (RK-12) plus every hero card (RK-10)."""
    return STONE_COUNT + variant.heroes_per_seat * variant.seats


def _max_draws(variant: Variant) -> int:
    """Each draw needs room in a hand (RK-9) and only card plays make room, so draws are at
    most the card plays plus the room at the start: none after a deal, at most every hand's
    worth from a position."""
    return _max_card_plays(variant) + variant.seats * variant.hand_limit


def max_decisions(variant: Variant) -> int:
    """An upper bound on the players' moves in one game, from the deal or any position.

    A pass is followed by a move of another seat, so at most ``seats - 1`` passes come in a
    row (RK-11, RK-17) before a card play or a draw.
    """
    return variant.seats * (_max_card_plays(variant) + _max_draws(variant))


def max_chance_events(variant: Variant) -> int:
    """The dealt cards plus the drawn ones: after a deal at most one draw per card play;
    from a position no deal, but up to every hand's worth of draws more. Either way at
    most the card plays plus ``seats * hand_limit``."""
    return _max_card_plays(variant) + variant.seats * variant.hand_limit


@dataclass(frozen=True, slots=True)
class DealView:
    """The public table while the cards are being dealt: what ``PlayerView`` gives later.

    It has the fields the observation encoder reads (see ``roses.interop.encoding``).
    """

    variant: Variant
    viewer: int | None
    hands: tuple[tuple[Card, ...], ...]
    draw_pile_cards: tuple[Card, ...]  # the cards not dealt yet, sorted
    red: int = 0
    white: int = 0
    crown: int = CENTRE
    turn: int = 0
    discard_pile: tuple[Card, ...] = ()

    @property
    def heroes(self) -> tuple[int, ...]:
        return (self.variant.heroes_per_seat,) * self.variant.seats


TableView = DealView | PlayerView


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class ChanceGame:
    """One game: the deal in progress, then an engine ``Board`` plus a pending draw.

    ``current_seat()`` is ``None`` at a chance node and at the end. Copy with
    ``copy.deepcopy`` (cheap: the board is copied without its undo stack) and pickle
    freely (through the RK-23 position, whose draw pile is sorted).
    """

    __slots__ = ("board", "dealt", "draw_pending", "variant")  # dealt: cards so far, while dealing

    def __init__(self, variant: Variant = Variant.CLASSIC) -> None:
        if variant is Variant.RANDOM_START:
            raise ValueError("the random-start variant has no chance-node model: use classic")
        self.variant = variant
        self.dealt: tuple[Card, ...] = ()
        self.board: Board | None = None
        self.draw_pending = False

    @classmethod
    def for_players(cls, players: int) -> ChanceGame:
        return cls(variant_for_players(players))

    @classmethod
    def from_position(cls, text: str, *, draw_pending: bool = False) -> ChanceGame:
        """A game from an RK-23 position (dealt already); the pile's order is forgotten.

        ``draw_pending``: the seat to move has just drawn and the card is yet to come up.
        Raises ``InvalidPositionError`` for a bad position, ``IllegalMoveError`` for a
        pending draw the seat to move may not make.
        """
        board = Board.from_position(text, seed=0)
        board.reorder_draw_pile(sorted(board.draw_pile))
        if draw_pending and not board.is_legal(DRAW_MOVE):
            raise IllegalMoveError(f"{board.seat_name()} may not draw in this position (RK-9)")
        game = cls(board.variant)
        game.board = board
        game.draw_pending = draw_pending
        return game

    # -- whose turn -------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return self.variant.seats

    def is_chance_node(self) -> bool:
        return self.board is None or self.draw_pending

    def is_terminal(self) -> bool:
        return self.board is not None and not self.draw_pending and self.board.is_over()

    def current_seat(self) -> int | None:
        """The seat to move at a decision node, else ``None``."""
        if self.is_chance_node() or self.is_terminal():
            return None
        assert self.board is not None
        return self.board.turn

    # -- chance -----------------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[Card, float]]:
        """The cards that may come up now, each with its probability (all equal)."""
        if self.board is None:
            cards = sorted(set(ALL_CARDS) - set(self.dealt))  # RK-5
        elif self.draw_pending:
            cards = sorted(self.board.draw_pile)  # RK-9
        else:
            raise ValueError("no chance event is pending: a player is to move")
        probability = 1.0 / len(cards)
        return [(card, probability) for card in cards]

    def apply_chance(self, card: Card) -> None:
        """Deal ``card`` or reveal it as the drawn card; ``ValueError`` if it cannot come up."""
        possible = [outcome for outcome, _ in self.chance_outcomes()]
        if not _is_int(card) or card not in possible:
            names = ",".join(CARD_NAMES[c] for c in possible)
            raise ValueError(f"chance outcome {card!r} is not one of the cards left ({names})")
        if self.board is None:
            self.dealt += (card,)
            if len(self.dealt) == self.seats * self.variant.hand_limit:
                rest = sorted(set(ALL_CARDS) - set(self.dealt))
                self.board = Board.from_deal(self.variant, self.dealt + tuple(rest), seed=0)
                self.dealt = ()  # the board holds the hands now
            return
        board = self.board
        board.reorder_draw_pile((card, *sorted(c for c in board.draw_pile if c != card)))
        board.push(DRAW_MOVE)
        # After a reshuffle the engine's new pile has an order; forget it (see module doc).
        board.reorder_draw_pile(sorted(board.draw_pile))
        self.draw_pending = False

    # -- the players' moves -----------------------------------------------------------

    def legal_actions(self) -> list[ActionId]:
        """The seat to move's action ids in ascending order; empty at chance and the end."""
        if self.current_seat() is None:
            return []
        assert self.board is not None
        return sorted(move.action_id for move in self.board.legal_moves())

    def apply_action(self, action: ActionId) -> None:
        """Make a player's move; bad input raises and changes nothing.

        A draw (48) only announces the draw: the card is a chance outcome that follows.
        """
        if self.is_chance_node():
            raise IllegalMoveError(f"action {action} given at a chance node: apply a card")
        if self.is_terminal():
            raise IllegalMoveError(f"action {action} given after the end of the game")
        board = self.board
        assert board is not None
        if not _is_int(action) or not 0 <= action < ACTION_COUNT:
            raise IllegalMoveError(f"action {action!r} is not an action id 0..{ACTION_COUNT - 1}")
        move = Move.from_action_id(action)
        if not board.is_legal(move):
            legal = " ".join(str(m) for m in board.legal_moves())
            raise IllegalMoveError(
                f"action {action} ({move}) is not legal for {board.seat_name()} (legal: {legal})"
            )
        if move.kind == DRAW:
            self.draw_pending = True
        else:
            board.push(move)

    # -- the end ----------------------------------------------------------------------

    def returns(self) -> list[float]:
        """Per seat: +1 for each player of the winning team, -1 for the losers, 0 on a draw
        (RK-15; teams RK-16) and 0 for everyone before the end."""
        if not self.is_terminal():
            return [0.0] * self.seats
        assert self.board is not None
        outcome = self.board.outcome()
        assert outcome is not None
        if outcome.winner is None:
            return [0.0] * self.seats
        return [1.0 if Team(seat & 1) is outcome.winner else -1.0 for seat in range(self.seats)]

    # -- what may be seen -------------------------------------------------------------

    def view(self, viewer: int | None = None) -> TableView:
        """What ``viewer`` may know; everything here is public but the pile's order."""
        if self.board is None:
            limit = self.variant.hand_limit
            hands = tuple(
                self.dealt[seat * limit : (seat + 1) * limit] for seat in range(self.seats)
            )
            undealt = tuple(sorted(set(ALL_CARDS) - set(self.dealt)))
            return DealView(self.variant, viewer, hands, undealt)
        return self.board.view(viewer)

    def action_to_string(self, action: int, *, chance: bool) -> str:
        """A card name for a chance outcome, else the move in RK-22 notation."""
        if chance:
            return CARD_NAMES[action]
        return str(Move.from_action_id(action))

    def public_text(self) -> str:
        """The position for everyone: RK-23 with the draw pile as a sorted set (RK-20).

        While dealing: ``deal`` then the hands so far. A pending draw ends in ``draw?``.
        """
        if self.board is None:
            view = self.view()
            hands = "|".join(",".join(CARD_NAMES[c] for c in hand) or "-" for hand in view.hands)
            return f"deal {hands}"
        text = self.board.position()  # the pile is kept sorted: its order says nothing
        return f"{text} draw?" if self.draw_pending else text

    def seat_name(self, seat: int) -> str:
        return seat_name(seat, self.seats)

    # -- copying ----------------------------------------------------------------------

    def __deepcopy__(self, memo: dict[int, object]) -> ChanceGame:
        game = ChanceGame.__new__(ChanceGame)
        game.variant = self.variant
        game.dealt = self.dealt
        game.board = None if self.board is None else self.board.copy(stack=False)
        game.draw_pending = self.draw_pending
        return game

    def __reduce__(self) -> tuple[object, tuple[str, tuple[Card, ...], str | None, bool]]:
        position = None if self.board is None else self.board.position()
        return (_restore, (self.variant.value, self.dealt, position, self.draw_pending))


def _restore(
    variant: str, dealt: tuple[Card, ...], position: str | None, draw_pending: bool
) -> ChanceGame:
    if position is not None:
        return ChanceGame.from_position(position, draw_pending=draw_pending)
    game = ChanceGame(Variant(variant))
    game.dealt = tuple(dealt)
    return game
