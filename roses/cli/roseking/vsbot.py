"""A person at the terminal against a bot (``roses rk play --vs BOT``)."""

from __future__ import annotations

from roses.bots.roseking.base import make_bot
from roses.roseking import Board

from ..errors import UserError
from .hotseat import play_hotseat


def start_vs_bot(
    board: Board, bot_name: str, team: str, time_limit: float | None, seed: int | None
) -> Board:
    """``roses rk play --vs BOT``: the person plays ``team`` (both its seats with four)."""
    teams = {"red": 0, "white": 1}
    if team not in teams:
        raise UserError(f"unknown team {team!r} (choose red or white)")
    human_team = teams[team]
    try:
        bots = {
            seat: make_bot(bot_name, seed=None if seed is None else seed * 8 + seat,
                           time_limit=time_limit)
            for seat in range(board.seats)
            if seat & 1 != human_team
        }  # fmt: skip
    except ValueError as error:
        raise UserError(str(error)) from None
    return play_hotseat(board, bots=bots)
