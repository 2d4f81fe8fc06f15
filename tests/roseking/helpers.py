"""Build test positions from readable parts (independently of the engine's writer)."""

from __future__ import annotations

from roses.roseking import CARD_NAMES, Board, Variant


def board_field(red: str = "", white: str = "") -> str:
    """RK-23 field 1 from space-separated square names of red and white stones."""
    stones = {name: "r" for name in red.split()} | {name: "w" for name in white.split()}
    ranks = []
    for rank in "987654321":
        out, empty = "", 0
        for file in "abcdefghi":
            mark = stones.get(file + rank)
            if mark is None:
                empty += 1
                continue
            out += (str(empty) if empty else "") + mark
            empty = 0
        ranks.append(out + (str(empty) if empty else ""))
    return "/".join(ranks)


def make_position(
    *,
    red: str = "",
    white: str = "",
    crown: str = "e5",
    turn: str = "r",
    hands: list[str],
    heroes: list[int] | None = None,
    discard: str = "",
    draw: str | None = None,
) -> str:
    """An RK-23 line; the draw pile defaults to every card not placed elsewhere."""
    used = {c for hand in hands for c in hand.split()} | set(discard.split())
    if draw is None:
        draw = " ".join(name for name in CARD_NAMES if name not in used)
    counts = heroes if heroes is not None else [4] * len(hands) if len(hands) == 2 else [2] * 4

    def cards(text: str) -> str:
        return ",".join(text.split()) or "-"

    return " ".join(
        (
            board_field(red, white),
            crown,
            turn,
            "|".join(cards(hand) for hand in hands),
            "|".join(map(str, counts)),
            f"{cards(draw)}/{cards(discard)}",
        )
    )


def make_board(seed: int = 0, variant: Variant | None = None, **parts: object) -> Board:
    return Board.from_position(make_position(**parts), seed=seed, variant=variant)  # type: ignore[arg-type]


def moves(board: Board) -> set[str]:
    return {str(move) for move in board.legal_moves()}
