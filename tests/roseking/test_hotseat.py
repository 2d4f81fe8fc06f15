"""``roses rk play``: hot-seat play answers bad entries with the legal moves."""

from roses.cli.roseking.hotseat import play_hotseat
from roses.roseking import Board


def play_script(board: Board, entries: list[str]) -> list[str]:
    remaining = iter(entries)
    output: list[str] = []
    play_hotseat(board, read=lambda prompt: next(remaining), write=output.append)
    return output


def test_hotseat_plays_moves_and_answers_bad_entries() -> None:
    board = Board(seed=7)
    first = str(board.legal_moves()[0])
    text = "\n".join(play_script(board, ["N9", "pass", first, "quit"]))
    assert "not a move: 'N9'" in text and "Legal moves:" in text
    assert "can still move" in text
    assert [str(m) for m in board.move_stack] == [first]
    assert "Game left unfinished." in text
    assert "hand:" in text and "score (largest, stones)" in text


def test_hotseat_plays_a_whole_game_and_announces_the_result() -> None:
    board = Board(seed=2)
    output: list[str] = []

    def read(prompt: str) -> str:
        return str(board.legal_moves()[-1])

    play_hotseat(board, read=read, write=output.append)
    assert board.is_over()
    assert output[-1].startswith("Game over:")


def test_hotseat_undo_never_takes_back_a_draw() -> None:
    board = Board(seed=7)
    first = str(board.legal_moves()[0])
    assert f"Took back {first}." in play_script(board, [first, "undo", "quit"])
    assert board.move_stack == []
    board.push(board.legal_moves()[0])
    board.push(board.legal_moves()[0])  # Red now holds 4 cards and may draw
    output = play_script(board, ["draw", "undo", "quit"])
    assert "A drawn card cannot be taken back (RK-19)." in output
    assert str(board.peek()) == "draw"


def test_hotseat_ends_quietly_at_end_of_input() -> None:
    def read(prompt: str) -> str:
        raise EOFError

    output: list[str] = []
    play_hotseat(Board(seed=1), read=read, write=output.append)
    assert output[-1] == "Game left unfinished."
