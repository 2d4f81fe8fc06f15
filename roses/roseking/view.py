"""What one player may know: everything but the draw pile's order (RK-5, RK-20).

Hands and the discard pile are face up and the pile's contents follow from them, so a
``PlayerView`` carries the pile as a sorted multiset. Bots and clients only ever get this.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .board import Board
from .geometry import CARD_NAMES, SQUARE_NAMES, Bitboard, Card, Square, square_name
from .moves import MOVE_NAMES, Move
from .scoring import Team, TeamScore, team_score
from .variants import Variant, seat_name


@dataclass(frozen=True, slots=True)
class PlayerView:
    variant: Variant
    viewer: int | None  # the seat this view is for; None for a spectator
    red: Bitboard
    white: Bitboard
    crown: Square
    turn: int
    hands: tuple[tuple[Card, ...], ...]
    heroes: tuple[int, ...]
    draw_pile_cards: tuple[Card, ...]  # sorted: which cards, never their order (RK-20)
    discard_pile: tuple[Card, ...]  # bottom first, face up
    moves: tuple[Move, ...]  # the public move history
    legal_moves: tuple[Move, ...]  # of the seat to move

    @classmethod
    def of(cls, board: Board, viewer: int | None = None) -> PlayerView:
        return cls(
            variant=board.variant,
            viewer=viewer,
            red=board.red,
            white=board.white,
            crown=board.crown,
            turn=board.turn,
            hands=board.hands,
            heroes=board.heroes,
            draw_pile_cards=tuple(sorted(board.draw_pile)),
            discard_pile=board.discard_pile,
            moves=tuple(board.move_stack),
            legal_moves=board.legal_moves(),
        )

    @property
    def seats(self) -> int:
        return self.variant.seats

    def is_over(self) -> bool:
        return not self.legal_moves

    def team_scores(self) -> tuple[TeamScore, TeamScore]:
        return team_score(self.red), team_score(self.white)

    def determinize(self, rng: random.Random) -> Board:
        """A full position consistent with this view: the draw pile in a random order.

        Later reshuffles of the returned board are seeded from ``rng`` as well, so a search
        that samples many determinizations sees many possible futures.
        """
        pile = list(self.draw_pile_cards)
        rng.shuffle(pile)
        return self._board(tuple(pile), seed=rng.getrandbits(63))

    def _board(self, draw_pile: tuple[Card, ...], seed: int) -> Board:
        return Board.from_state(
            seed=seed,
            variant=self.variant,
            red=self.red,
            white=self.white,
            crown=self.crown,
            turn=self.turn,
            hands=self.hands,
            heroes=self.heroes,
            draw_pile=draw_pile,
            discard_pile=self.discard_pile,
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description; holds nothing this viewer may not know."""
        red_score, white_score = self.team_scores()
        board_squares = {}
        red, white = self.red, self.white
        stones = red | white
        while stones:  # square by square, in order, as the pages have always had them
            bit = stones & -stones
            board_squares[SQUARE_NAMES[bit.bit_length() - 1]] = "r" if red & bit else "w"
            stones ^= bit
        name = MOVE_NAMES.__getitem__
        return {
            "variant": self.variant.value,
            "viewer": None if self.viewer is None else seat_name(self.viewer, self.seats),
            "stones": board_squares,
            "crown": square_name(self.crown),
            "turn": seat_name(self.turn, self.seats),
            "turn_team": Team(self.turn & 1).label,
            "hands": [[CARD_NAMES[c] for c in hand] for hand in self.hands],
            "heroes": list(self.heroes),
            "draw_pile_count": len(self.draw_pile_cards),
            "draw_pile_cards": [CARD_NAMES[c] for c in self.draw_pile_cards],
            "discard_pile": [CARD_NAMES[c] for c in self.discard_pile],
            "supply": 52 - (self.red | self.white).bit_count(),
            "moves": list(map(name, self.moves)),
            "legal_moves": list(map(name, self.legal_moves)),
            "over": self.is_over(),
            "scores": {
                "red": {"score": red_score.score, "largest": red_score.largest,
                        "stones": red_score.stones},
                "white": {"score": white_score.score, "largest": white_score.largest,
                          "stones": white_score.stones},
            },
        }  # fmt: skip
