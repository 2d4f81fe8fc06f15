"""People playing The Rose King at one terminal, taking turns at the keyboard."""

from __future__ import annotations

from collections.abc import Callable

from roses.roseking import Board, RoseKingError, parse_move
from roses.roseking.moves import DRAW_MOVE, PASS_MOVE, sort_key
from roses.roseking.render import draw_board

HELP = (
    "Enter a move: a card such as N2, a hero play such as N2h, or draw. "
    "'undo' takes back the last move, 'quit' ends the game."
)


def _seat_label(board: Board) -> str:
    name = board.seat_name()
    return {"r": "Red", "w": "White"}[name[0]] + name[1:]


def _legal_text(board: Board) -> str:
    return " ".join(str(m) for m in sorted(board.legal_moves(), key=sort_key))


def play_hotseat(
    board: Board,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> Board:
    """Loop until the game ends or a player quits; passes (RK-11) are made automatically."""
    write(HELP)
    while not board.is_over():
        if board.legal_moves() == (PASS_MOVE,):
            write(f"{_seat_label(board)} cannot move and passes (RK-11).")
            board.push(PASS_MOVE)
            continue
        write("")
        write(draw_board(board.view()))
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
            continue
        if text == "undo":
            if not board.move_stack or board.peek() == PASS_MOVE:
                write("Nothing to undo.")
            elif board.peek() == DRAW_MOVE:
                write("A drawn card cannot be taken back (RK-19).")
            else:
                write(f"Took back {board.pop()}.")
            continue
        try:
            board.push(parse_move(text))
        except RoseKingError as error:
            write(f"{error}. Legal moves: {_legal_text(board)}")
    write("")
    write(draw_board(board.view()))
    outcome = board.outcome()
    assert outcome is not None
    verdict = "The game is a draw." if outcome.winner is None else f"{outcome.result()} wins."
    write(f"Game over: {verdict.capitalize()} Red {outcome.red}, White {outcome.white}.")
    return board
