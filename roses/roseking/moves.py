"""The ``Move`` value type and its RK-22 notation: ``N2``, ``N2h``, ``draw``, ``pass``."""

from __future__ import annotations

from typing import Final

from .errors import InvalidMoveError
from .geometry import ALL_CARDS, CARD_NAMES, Card

PLAY: Final = 0  # RK-8
HERO: Final = 1  # RK-10
DRAW: Final = 2  # RK-9
PASS: Final = 3  # RK-11


class Move:
    """One action. ``card`` is the power card for PLAY and HERO moves, else ``None``.

    Moves are interned: ``Move(kind, card)`` always returns the one shared instance, so
    comparing by identity (fast, on the engine's hot path) is comparing by value.
    """

    __slots__ = ("card", "kind")
    kind: int
    card: Card | None

    def __new__(cls, kind: int, card: Card | None = None) -> Move:
        try:
            return _INTERNED[(kind, card)]
        except KeyError:
            if not _INTERNED:  # building the table below
                move = object.__new__(cls)
                object.__setattr__(move, "kind", kind)
                object.__setattr__(move, "card", card)
                return move
            raise InvalidMoveError(
                "no move of kind {kind} with card {card}", kind=kind, card=str(card)
            ) from None

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Move is immutable")

    def __reduce__(self) -> tuple[type[Move], tuple[int, Card | None]]:
        return (Move, (self.kind, self.card))

    def __repr__(self) -> str:
        return f"Move.from_str({str(self)!r})"

    def __str__(self) -> str:
        if self.kind == DRAW:
            return "draw"
        if self.kind == PASS:
            return "pass"
        assert self.card is not None
        return CARD_NAMES[self.card] + ("h" if self.kind == HERO else "")

    @property
    def is_hero(self) -> bool:
        return self.kind == HERO

    @property
    def action_id(self) -> int:
        """A fixed integer in 0..49: plays 0..23, hero plays 24..47, draw 48, pass 49."""
        if self.kind == DRAW:
            return 48
        if self.kind == PASS:
            return 49
        assert self.card is not None
        return self.card + (24 if self.kind == HERO else 0)

    @classmethod
    def from_str(cls, text: str) -> Move:
        return parse_move(text)

    @classmethod
    def from_action_id(cls, action_id: int) -> Move:
        if not 0 <= action_id < ACTION_COUNT:
            raise InvalidMoveError(
                "action id {id} is outside 0..{last}", id=action_id, last=ACTION_COUNT - 1
            )
        return ALL_MOVES[action_id]


_INTERNED: dict[tuple[int, Card | None], Move] = {}
PLAY_MOVES: Final = tuple(Move(PLAY, card) for card in ALL_CARDS)
HERO_MOVES: Final = tuple(Move(HERO, card) for card in ALL_CARDS)
DRAW_MOVE: Final = Move(DRAW)
PASS_MOVE: Final = Move(PASS)
ALL_MOVES: Final = (*PLAY_MOVES, *HERO_MOVES, DRAW_MOVE, PASS_MOVE)
ACTION_COUNT: Final = len(ALL_MOVES)
_INTERNED.update({(move.kind, move.card): move for move in ALL_MOVES})
_MOVES_BY_TEXT: Final = {str(move): move for move in ALL_MOVES}
MOVE_NAMES: Final = {move: str(move) for move in ALL_MOVES}  # each move's RK-22 notation


def parse_move(text: str) -> Move:
    """Parse RK-22 notation exactly (case-sensitive, no surrounding blanks)."""
    try:
        return _MOVES_BY_TEXT[text]
    except (KeyError, TypeError):
        raise InvalidMoveError(
            "not a move: '{text}' (expected a card like N2, a hero play like N2h, draw or pass)",
            text=str(text),
        ) from None


def sort_key(move: Move) -> int:
    """Canonical order: plays by card, then hero plays, draw, pass (the CLI prints this)."""
    return move.action_id
