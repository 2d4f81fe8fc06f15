"""The Rose King at one terminal: people taking turns at the keyboard, and bots if asked."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from roses.bots.roseking.base import Bot
from roses.roseking import Board, RoseKingError, parse_move
from roses.roseking.moves import DRAW, PASS_MOVE, sort_key
from roses.roseking.render import draw_board

HELP = (
    "Enter a move: a card such as N2, a hero play such as N2h, or draw. "
    "'undo' takes back the last move made at this keyboard (and the bots' replies), "
    "'quit' ends the game."
)


def seat_label(board: Board) -> str:
    name = board.seat_name()
    return {"r": "Red", "w": "White"}[name[0]] + name[1:]


def legal_text(board: Board) -> str:
    return " ".join(str(m) for m in sorted(board.legal_moves(), key=sort_key))


def undo_last_person_move(board: Board, bot_seats: Mapping[int, Bot]) -> str:
    """Take back moves up to and including the last one a person made, if no card was drawn.

    A draw showed a card from the pile, so it cannot be taken back (RK-19).
    """
    for back, move in enumerate(reversed(board.move_stack), start=1):
        if move.kind == DRAW:
            return "A drawn card cannot be taken back (RK-19)."
        mover = (board.turn - back) % board.seats  # every move, passes too, passes the turn
        if move != PASS_MOVE and mover not in bot_seats:
            taken = [str(board.pop()) for _ in range(back)]
            return f"Took back {' '.join(reversed(taken))}."
    return "Nothing to undo."


def play_hotseat(
    board: Board,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    bots: Mapping[int, Bot] | None = None,
) -> Board:
    """Play until the game ends or a person quits; passes (RK-11) are made automatically.

    ``bots`` plays its seats (each bot sees only its own seat's view); people play the rest.
    """
    bots = bots or {}
    write(HELP)
    while not board.is_over():
        seat = board.turn
        if board.legal_moves() == (PASS_MOVE,):
            write(f"{seat_label(board)} cannot move and passes (RK-11).")
            board.push(PASS_MOVE)
            continue
        bot = bots.get(seat)
        if bot is not None:
            move = bot.choose(board.view(seat))
            write(f"{seat_label(board)} ({bot.name}) plays {move}.")
            board.push(move)
            continue
        write("")
        write(draw_board(board.view(seat)))
        try:
            text = read(f"{seat_label(board)} to move ({legal_text(board)}): ").strip()
        except EOFError:
            text = "quit"
            write("")
        if text in ("quit", "exit"):
            write("Game left unfinished.")
            return board
        if text in ("help", "?"):
            write(HELP)
        elif text == "undo":
            write(undo_last_person_move(board, bots))
        else:
            try:
                board.push(parse_move(text))
            except RoseKingError as error:
                write(f"{error}. Legal moves: {legal_text(board)}")
    people = [seat for seat in range(board.seats) if seat not in bots]
    write("")
    write(draw_board(board.view(people[0] if people else None)))
    outcome = board.outcome()
    assert outcome is not None
    if outcome.winner is None:
        verdict = "The game is a draw."
    elif not bots:
        verdict = f"{outcome.result().capitalize()} wins."
    else:
        verdict = "You win." if outcome.winner in {seat & 1 for seat in people} else "The bot wins."
    write(f"Game over: {verdict} Red {outcome.red}, White {outcome.white}.")
    return board
