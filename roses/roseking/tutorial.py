"""The interactive tutorial's positions and the judge of a learner's move.

Every position comes from a real game: a seeded deal (RK-5) and the moves played from it,
so replaying them proves the position reachable, and the engine decides what is legal. A
step accepts exactly its ``expected`` moves; any other move is refused with the reason a
hint can explain (the rule it breaks, or "legal, but not the move asked for"). The texts
live with the web client, one file per language, keyed by ``Step.key`` and the reasons.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .board import Board
from .geometry import TARGET
from .moves import DRAW, HERO, PASS, Move, parse_move
from .variants import Variant


class Reason(enum.Enum):
    """Why the tutorial took or refused a move; each names a hint in the texts."""

    EXPECTED = "expected"  # the move asked for
    NOT_ASKED = "not-asked"  # legal, but another move is asked for
    NOT_IN_HAND = "not-in-hand"  # the learner does not hold that card
    OFF_BOARD = "off-board"  # RK-8: the crown would leave the board
    OCCUPIED = "occupied"  # RK-8: a power card alone needs an empty square
    NO_HERO_LEFT = "no-hero-left"  # RK-10: all four heroes are spent
    HERO_ON_EMPTY = "hero-on-empty"  # RK-10: a hero lands only on an opponent's stone
    HERO_ON_OWN = "hero-on-own"  # RK-10: never on one's own stone
    HAND_FULL = "hand-full"  # RK-9: no draw with five cards
    MUST_MOVE = "must-move"  # RK-11: a pass only when nothing else is possible


@dataclass(frozen=True)
class Step:
    key: str  # names the step's texts
    rules: tuple[str, ...]  # what it teaches
    seed: int  # the deal of the game the position comes from (RK-5, Red first: RK-7)
    moves: str  # the moves played from the deal (RK-22), space-separated
    position: str  # the RK-23 position they reach (the tests replay them to check)
    expected: frozenset[str]  # the moves accepted (RK-22)

    def board(self) -> Board:
        """The step's position, replayed from its deal (``push`` checks every move)."""
        board = Board(Variant.CLASSIC, seed=self.seed)
        for text in self.moves.split():
            board.push(parse_move(text))
        return board


STEPS: tuple[Step, ...] = (
    Step(
        key="play-card",
        rules=("RK-3", "RK-8"),
        seed=11024,
        moves="",
        position="9/9/9/9/9/9/9/9/9 e5 r NE1,NE3,NE2,N3,SE2|SW2,NW1,N1,E2,S2 4|4 "
        "NW2,SE3,SW1,S1,S3,E1,E3,W1,SE1,W2,W3,N2,NW3,SW3/-",
        expected=frozenset({"NE3"}),
    ),
    Step(  # the same game, four turns each later
        key="hero",
        rules=("RK-10",),
        seed=11024,
        moves="NE3 S2 NE1 N1 draw draw draw SW2",
        position="9/7rw/8r/6ww1/9/9/9/9/9 g6 r NE2,N3,SE2,NW2,SW1|NW1,E2,SE3 4|4 "
        "S1,S3,E1,E3,W1,SE1,W2,W3,N2,NW3,SW3/NE3,S2,NE1,N1,SW2",
        expected=frozenset({"NE2h"}),
    ),
    Step(
        key="draw",
        rules=("RK-9", "RK-8"),
        seed=220,
        moves="NW1 NW3",
        position="w8/9/9/3r5/9/9/9/9/9 a9 r W1,NE1,N2,SE3|E3,SE1,N3,SW2 4|4 "
        "SE2,NE3,SW1,E1,E2,SW3,S3,S2,NW2,NE2,N1,S1,W3,W2/NW1,NW3",
        expected=frozenset({"draw"}),
    ),
    Step(
        key="forced-hero",
        rules=("RK-11", "RK-10"),
        seed=2707,
        moves="W1 N2 draw NW2",
        position="1w7/9/3w5/9/3r5/9/9/9/9 b9 r N3,W2,NE3,SE2,NW3|E2,S1,S2 4|4 "
        "SE3,SE1,NE2,W3,E3,SW3,NW1,N1,E1,S3,NE1,SW2,SW1/W1,N2,NW2",
        expected=frozenset({"SE2h"}),
    ),
    Step(
        key="pass",
        rules=("RK-11",),
        seed=1609,
        moves="N2 NE2 draw draw",
        position="6w2/9/4r4/9/9/9/9/9/9 g9 r NW3,SW2,N1,SE3,NW1|N3,SW1,W1,W2,S3 4|4 "
        "E1,W3,SE1,SW3,NW2,NE1,S2,E3,E2,NE3,SE2,S1/N2,NE2",
        expected=frozenset({"pass"}),
    ),
    Step(  # a whole game: the last stone ends it, NE3 would lose on the tie-break
        key="last-stone",
        rules=("RK-12", "RK-14", "RK-15", "RK-21"),
        seed=1495,
        moves="SE1 E2 draw S1 NW3 W1 S2 W3 NE1 draw N3 N1 draw draw draw SW1 SE3 SW2 NW1h "
        "draw draw NE2 W2 draw E3h NW2h draw draw draw draw draw S3h SE2 N2h draw draw E1 "
        "SE1h NE3 draw SW3h SW2 draw draw S1 draw draw E2 NW3 draw draw draw N1 SW1 draw SE3 "
        "draw W3 W1 draw draw draw draw draw draw NE2 NW2 draw S3 draw E3h W2 draw draw draw "
        "NW1 draw SE2 draw draw pass draw pass draw pass NE2 NW3 draw NE1 N2 E3 S3 draw SE1 "
        "S2 draw draw draw N1 W2 SE3 draw draw NW2 S1 E2 draw W1 draw draw draw draw draw "
        "draw E2 N3 draw draw W3 draw",
        position="1ww2r3/ww7/2r5r/rrwrrw3/rwrwrrw1w/rwrrwrrw1/wwwrwwrw1/rw1r1rwwr/rwwrww1r1 "
        "f5 r SW3,NE3,SW2,S2|SW1,E1,W2,W1,SE2 0|0 SE1,NW3,S3,NW2,NW1,S1,NE1,E3,N2,NE2,SE3,N1/"
        "E2,N3,W3",
        expected=frozenset({"SW3"}),
    ),
)


def judge(board: Board, step: Step, move: Move) -> Reason:
    """Why ``move`` is taken or refused in ``step``'s position ``board``."""
    if board.is_legal(move):
        return Reason.EXPECTED if str(move) in step.expected else Reason.NOT_ASKED
    seat = board.turn
    if move.kind == DRAW:
        return Reason.HAND_FULL  # the only bar to a draw (RK-9)
    if move.kind == PASS:
        return Reason.MUST_MOVE  # RK-11
    card = move.card
    assert card is not None
    if card not in board.hands[seat]:
        return Reason.NOT_IN_HAND
    target = TARGET[card][board.crown]
    if target < 0:
        return Reason.OFF_BOARD  # RK-8
    if move.kind != HERO:
        return Reason.OCCUPIED  # RK-8: a stone lies there (an empty square would be legal)
    if not board.heroes[seat]:
        return Reason.NO_HERO_LEFT  # RK-10
    own = board.white if seat & 1 else board.red
    return Reason.HERO_ON_OWN if own >> target & 1 else Reason.HERO_ON_EMPTY  # RK-10
