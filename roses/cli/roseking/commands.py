"""``roses rk``: The Rose King at the command line. Output formats are exact: tools parse them."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Annotated, Any

import typer

from roses.roseking import Board, RoseKingError, Variant, parse_move
from roses.roseking.moves import Move, sort_key
from roses.roseking.record import load, replay

from ..errors import UserError

app = typer.Typer(
    help="The Rose King: positions (RK-23), moves (RK-22), records, play.",
    no_args_is_help=True,
)

SeedOption = Annotated[int | None, typer.Option(help="Seed for shuffles (random if omitted).")]


def _board(position: str, seed: int | None = None) -> Board:
    try:
        return Board.from_position(position, seed=seed)
    except RoseKingError as error:
        raise UserError(f"bad position: {error}") from None


def _variant(text: str) -> Variant:
    try:
        return Variant.parse(text)
    except ValueError as error:
        raise UserError(str(error)) from None


def legal_line(board: Board) -> list[str]:
    return [str(move) for move in sorted(board.legal_moves(), key=sort_key)]


def score_json(board: Board) -> str:
    """The ``score`` object: winner null while the game goes on; scores always computed."""
    red, white = board.team_scores()
    outcome = board.outcome()
    data: dict[str, Any] = {
        "over": outcome is not None,
        "winner": None if outcome is None else outcome.result(),
        "red": {"score": red.score, "largest": red.largest, "stones": red.stones},
        "white": {"score": white.score, "largest": white.largest, "stones": white.stones},
    }
    return json.dumps(data)


def _apply(board: Board, moves: Iterable[Move | str]) -> Board:
    for index, move in enumerate(moves):
        try:
            board.push(parse_move(move) if isinstance(move, str) else move)
        except RoseKingError as error:
            raise UserError(f"move {index + 1} ({move}): {error}") from None
    return board


def _batch(transform: Callable[[Board], str], seed: int | None) -> None:
    """One output line per input line; a bad line gives ``error: ...`` and exit status 2."""
    first_error: str | None = None
    out = sys.stdout
    for number, line in enumerate(sys.stdin, start=1):
        line = line.strip()
        try:
            out.write(transform(_board(line, seed)) + "\n")
        except UserError as error:
            out.write(f"error: {error}\n")
            first_error = first_error or f"line {number}: {error}"
    out.flush()
    if first_error:
        raise UserError(first_error)


def _looks_like_position(text: str) -> bool:
    return " " in text.strip()


@app.command()
def new(
    variant: Annotated[str, typer.Option(help="classic, random-start or four-player.")] = "classic",
    seed: SeedOption = None,
) -> None:
    """Print a start position (RK-23)."""
    print(Board(_variant(variant), seed=seed).position())


@app.command()
def legal(
    position: Annotated[str | None, typer.Argument(help="RK-23; omit to read lines.")] = None,
) -> None:
    """Print the legal moves, one per line (from standard input: one line per position)."""
    if position is None:
        _batch(lambda board: " ".join(legal_line(board)), None)
        return
    for move in legal_line(_board(position)):
        print(move)


@app.command()
def apply(
    arguments: Annotated[list[str], typer.Argument(help="[POSITION] MOVE [MOVE...]")],
    seed: SeedOption = None,
) -> None:
    """Print the position after the moves; without POSITION, apply them to each input line."""
    if arguments and _looks_like_position(arguments[0]):
        position, moves = arguments[0], arguments[1:]
    else:
        position, moves = None, arguments
    if not moves:
        raise UserError("apply needs at least one MOVE")
    try:
        parsed = [parse_move(text) for text in moves]
    except RoseKingError as error:
        raise UserError(str(error)) from None
    if position is None:
        _batch(lambda board: _apply(board, parsed).position(), seed)
        return
    print(_apply(_board(position, seed), parsed).position())


@app.command()
def score(
    position: Annotated[str | None, typer.Argument(help="RK-23; omit to read lines.")] = None,
) -> None:
    """Print the score as one JSON object (RK-14, RK-15)."""
    if position is None:
        _batch(score_json, None)
        return
    print(score_json(_board(position)))


@app.command("replay")
def replay_command(record: Annotated[Path, typer.Argument(help="A JSON game record.")]) -> None:
    """Replay a game record; print the final position and the result."""
    try:
        board = replay(load(record))
    except RoseKingError as error:
        raise UserError(f"{record}: {error}") from None
    print(board.position())
    print(score_json(board))


@app.command()
def play(
    seed: SeedOption = None,
    variant: Annotated[str, typer.Option(help="classic, random-start or four-player.")] = "classic",
    vs: Annotated[str | None, typer.Option("--vs", help="Play against this bot.")] = None,
    team: Annotated[str, typer.Option(help="With --vs: your team, red or white.")] = "red",
    time_limit: Annotated[
        float | None, typer.Option("--time", min=0.01, help="With --vs: bot seconds per move.")
    ] = None,
) -> None:
    """Hot-seat play for people at one terminal, or a person against a bot (--vs)."""
    board = Board(_variant(variant), seed=seed)
    if vs is None:
        from .hotseat import play_hotseat

        play_hotseat(board)
        return
    from .vsbot import start_vs_bot

    start_vs_bot(board, vs, team, time_limit, seed)


@app.command()
def bench(
    games: Annotated[int, typer.Option(min=1, help="Games to play.")] = 2000,
    seed: Annotated[int, typer.Option(help="Seed of the games.")] = 0,
    kernel: Annotated[bool, typer.Option("--kernel", help="Time the bots' kernel.")] = False,
) -> None:
    """Play random complete games through the public API; print the speed as JSON."""
    if kernel:
        from roses.bots.roseking.kernel import benchmark

        print(json.dumps(benchmark(games, seed)))
        return
    from roses.roseking.bench import random_games

    print(json.dumps(random_games(games, seed)))


BotArgument = Annotated[
    str, typer.Argument(help="A bot: random, greedy, mcts, search, alphabeta or expectimax.")
]
TimeOption = Annotated[float | None, typer.Option("--time", min=0.001, help="Seconds per move.")]
IterationsOption = Annotated[
    int | None, typer.Option(min=1, help="Search iterations per move (nodes for search bots).")
]


@app.command()
def match(
    bot_a: BotArgument,
    bot_b: BotArgument,
    games: Annotated[int, typer.Option(min=1, help="Games to play (seats swap every game).")] = 100,
    time_limit: TimeOption = None,
    iterations: IterationsOption = None,
    time_b: Annotated[
        float | None, typer.Option("--time-b", min=0.001, help="Bot B's seconds per move.")
    ] = None,
    iterations_b: Annotated[
        int | None, typer.Option(min=1, help="Bot B's iterations per move.")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the deals and the bots.")] = 0,
    jobs: Annotated[int, typer.Option(min=1, help="Processes playing games.")] = 1,
    variant: Annotated[str, typer.Option(help="classic, random-start or four-player.")] = "classic",
    records: Annotated[Path | None, typer.Option(help="Save each game's record here.")] = None,
    plot: Annotated[Path | None, typer.Option(help="Draw the win rate into this PNG.")] = None,
) -> None:
    """Bot against bot: wins, draws, win rate with its 95% interval, Elo difference."""
    from roses.bots.roseking.match import MatchConfig

    from .match import run_match

    config = MatchConfig(
        bot_a, bot_b, games, seed, time_limit, iterations, _variant(variant),
        records is not None, time_b, iterations_b,
    )  # fmt: skip
    print(run_match(config, jobs=jobs, records=records, plot=plot))


@app.command()
def analyse(
    position: Annotated[str, typer.Argument(help="RK-23 position.")],
    time_limit: TimeOption = None,
    iterations: IterationsOption = None,
    seed: Annotated[int | None, typer.Option(help="Ignored: the search is deterministic.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Every legal move with its win probability (exact where the search reaches the end)."""
    from .match import analyse_position

    print(analyse_position(_board(position), time_limit, iterations, seed, as_json))


@app.command("analyse-position")
def analyse_position_command(
    position: Annotated[
        str,
        typer.Argument(
            help="An RK-23 position, or a JSON view as the server sends it: inline, a .json "
            "file, or - for standard input."
        ),
    ],
    time_limit: Annotated[
        float | None, typer.Option("--time", min=0.001, help="Seconds to search.")
    ] = None,
    iterations: Annotated[int | None, typer.Option(min=1, help="Search nodes.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """A position set up by a player: every legal move of the seat to move with its win
    probability, searched from that seat's view (the pile's order never enters, RK-20)."""
    from .analysis import read_position
    from .match import analyse_position

    print(analyse_position(read_position(position), time_limit, iterations, None, as_json))


@app.command("analyse-game")
def analyse_game(
    record: Annotated[Path, typer.Argument(help="A game record (JSON, as replay reads).")],
    time_limit: Annotated[
        float | None, typer.Option("--time", min=0.001, help="Seconds per position.")
    ] = None,
    iterations: Annotated[
        int | None, typer.Option(min=1, help="Search nodes per position.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Every move of a game: win probability before and after, the best move, a judgement."""
    from .match import analyse_record

    if time_limit is None and iterations is None:
        time_limit = 0.2
    print(analyse_record(record, time_limit, iterations, as_json))
