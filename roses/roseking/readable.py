"""The Rose King told for people, JSON-ready: each move with its squares (RK-8..RK-11), and
the end of a game with its reason, every territory's points and the deciding tie-break
(RK-12..RK-15, RK-21).

Only what every seat may know goes in: hands are face up (RK-5), so a drawn card is public
once in the hand; the draw pile's order never appears.
"""

from __future__ import annotations

from typing import Any, Final

from .board import Board
from .geometry import Bitboard, card_name, square_name, squares_of
from .moves import DRAW, HERO, PASS, PLAY, Move
from .scoring import Team, TeamScore, Termination, territories

KINDS: Final = {PLAY: "play", HERO: "hero", DRAW: "draw", PASS: "pass"}
# Why a game ended, with the rule that says so; the team game's own rule for RK-13 (RK-17).
REASON_RULES: Final = {
    (Termination.LAST_STONE.value, 2): "RK-12",
    (Termination.LAST_STONE.value, 4): "RK-12",
    (Termination.NO_MOVES.value, 2): "RK-13",
    (Termination.NO_MOVES.value, 4): "RK-17",
}


def log_entry(ply: int, before: Board, move: Move, after: Board) -> dict[str, Any]:
    """One move as a log shows it: whose, which card, from which square to which, the stone
    a hero flipped (RK-10), the card a draw took (RK-9). ``before`` and ``after`` are the
    positions around ``move`` (the same board for a pass)."""
    seat = before.turn
    entry: dict[str, Any] = {
        "ply": ply,
        "seat_index": seat,
        "team": Team(seat & 1).label,
        "move": str(move),
        "kind": KINDS[move.kind],
        "card": None if move.card is None else card_name(move.card),
        "from": square_name(before.crown),
        "to": None,
        "flipped": None,
        "drew": None,
    }
    if move.kind in (PLAY, HERO):
        entry["to"] = square_name(after.crown)
        if move.kind == HERO:
            entry["flipped"] = entry["to"]
    elif move.kind == DRAW:
        entry["drew"] = card_name(after.hands[seat][-1])  # face up in the hand now (RK-5)
    return entry


def _territories(stones: Bitboard) -> list[dict[str, Any]]:
    """RK-14: each territory (largest first) with its squares and its n x n points."""
    groups = []
    for group in territories(stones):
        size = group.bit_count()
        squares = [square_name(sq) for sq in squares_of(group)]
        groups.append({"squares": squares, "size": size, "points": size * size})
    return groups


def _score(score: TeamScore) -> dict[str, int]:
    return {"score": score.score, "largest": score.largest, "stones": score.stones}


def decided_by(red: TeamScore, white: TeamScore) -> str:
    """RK-15: which comparison settled the game: score, largest, stones, or none (a draw)."""
    for name, left, right in (
        ("score", red.score, white.score),
        ("largest", red.largest, white.largest),
        ("stones", red.stones, white.stones),
    ):
        if left != right:
            return name
    return "draw"


def end_account(board: Board, seat: int | None) -> dict[str, Any] | None:
    """The end of a finished game, told to ``seat`` (None: a spectator): why it ended
    (RK-12 last stone, RK-13/RK-17 nobody can move), each territory and its points (RK-14),
    the tie-break that decided (RK-15) and whether this seat's team won."""
    outcome = board.outcome()
    if outcome is None:
        return None
    termination = outcome.termination.value
    winner = outcome.result()
    result: str | None = None
    if seat is not None:
        mine = Team(seat & 1).label
        result = "draw" if winner == "draw" else "won" if winner == mine else "lost"
    return {
        "reason": termination,
        "rule": REASON_RULES[(termination, board.seats)],
        "winner": winner,
        "decided_by": decided_by(outcome.red, outcome.white),
        "result": result,
        "scores": {"red": _score(outcome.red), "white": _score(outcome.white)},
        "territories": {"red": _territories(board.red), "white": _territories(board.white)},
    }
