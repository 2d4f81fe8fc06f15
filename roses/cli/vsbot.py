"""A person at the terminal against a bot (``roses rk play --vs BOT``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from roses.bots.base import Bot, make_bot
from roses.roseking import Board, RoseKingError, parse_move
from roses.roseking.moves import DRAW, PASS_MOVE
from roses.roseking.render import draw_board

from .errors import UserError
from .hotseat import _legal_text, _seat_label

HELP = (
    "Enter a move: a card such as N2, a hero play such as N2h, or draw. "
    "'undo' takes back your last move and the bot's reply, 'quit' ends the game."
)


def _undo(board: Board, human_team: int) -> str:
    """Take back moves up to and including the person's last one, if no card was drawn.

    A draw showed a card from the pile, so it cannot be taken back (RK-19).
    """
    count = 0
    for move in reversed(board.move_stack):
        count += 1
        if move.kind == DRAW:
            return "A drawn card cannot be taken back (RK-19)."
        if move != PASS_MOVE and _mover_team(board, count) == human_team:
            break
    else:
        return "Nothing to undo."
    taken = [str(board.pop()) for _ in range(count)]
    return f"Took back {' '.join(reversed(taken))}."


def _mover_team(board: Board, back: int) -> int:
    """The team of the seat that made the move ``back`` plies ago."""
    return (board.turn - back) % board.seats & 1


def play_vs_bot(
    board: Board,
    bots: Mapping[int, Bot],
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> Board:
    """The bots play their seats, the person every other seat; passes (RK-11) are automatic.

    The person sees the board as their seat does (``Board.view``); bots get only their
    own seat's view.
    """
    human_team = next(seat & 1 for seat in range(board.seats) if seat not in bots)
    write(HELP)
    while not board.is_over():
        seat = board.turn
        if board.legal_moves() == (PASS_MOVE,):
            write(f"{_seat_label(board)} cannot move and passes (RK-11).")
            board.push(PASS_MOVE)
            continue
        bot = bots.get(seat)
        if bot is not None:
            move = bot.choose(board.view(seat))
            write(f"{_seat_label(board)} ({bot.name}) plays {move}.")
            board.push(move)
            continue
        write("")
        write(draw_board(board.view(seat)))
        try:
            text = read(f"{_seat_label(board)} to move ({_legal_text(board)}): ").strip()
        except EOFError:
            write("")
            write("Game left unfinished.")
            return board
        if text in ("quit", "exit"):
            write("Game left unfinished.")
            return board
        if text in ("help", "?"):
            write(HELP)
        elif text == "undo":
            write(_undo(board, human_team))
        else:
            try:
                board.push(parse_move(text))
            except RoseKingError as error:
                write(f"{error}. Legal moves: {_legal_text(board)}")
    write("")
    write(draw_board(board.view(human_team)))
    outcome = board.outcome()
    assert outcome is not None
    if outcome.winner is None:
        verdict = "The game is a draw."
    else:
        verdict = "You win." if outcome.winner == human_team else "The bot wins."
    write(f"Game over: {verdict} Red {outcome.red}, White {outcome.white}.")
    return board


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
    return play_vs_bot(board, bots)
