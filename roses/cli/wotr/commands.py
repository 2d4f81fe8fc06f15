"""``roses wotr``: Wars of the Roses at the command line: board data, simulations, play."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from roses.bots.wotr import WotrBot, available_wotr_bots, make_wotr_bot
from roses.bots.wotr.match import bot_game
from roses.bots.wotr.matches import (
    MatchLogError,
    WotrMatchConfig,
    format_stats,
    log_game,
    match_stats,
    play_match,
    read_log,
)
from roses.wotr.data import BoardData, load_board
from roses.wotr.errors import BoardDataError, WotrError
from roses.wotr.game import PLAYER_COUNTS, Game
from roses.wotr.record import dump, load, record_of, replay
from roses.wotr.state import SEAT_NAMES, VP_SOURCES

from ..errors import UserError

app = typer.Typer(help="Wars of the Roses: Lancaster vs York.", no_args_is_help=True)
board_app = typer.Typer(help="The component data file (docs/wotr-board-data.md).",
                        no_args_is_help=True)  # fmt: skip
app.add_typer(board_app, name="board")

BoardOption = Annotated[
    Path | None, typer.Option("--board", help="A board data file (default: the project's).")
]


def _board(path: Path | None) -> BoardData:
    try:
        return load_board(path)
    except BoardDataError as error:
        raise UserError(f"{path}: {error}") from None


@board_app.command("check")
def board_check(path: Annotated[Path, typer.Argument(help="A board data file.")]) -> None:
    """Validate a board data file; print every problem (key: value: why)."""
    try:
        board = load_board(path)
    except BoardDataError as error:
        for problem in error.problems:
            print(problem)
        count = len(error.problems)
        raise UserError(f"{path}: {count} problem{'s' if count != 1 else ''}") from None
    print(f"{path}: ok ({len(board.provisional)} provisional values)")


def _mark(board: BoardData, key: str, value: object) -> str:
    return f"{value}*" if key in board.provisional else str(value)


@board_app.command("show")
def board_show(
    board_path: BoardOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the data file itself.")] = False,
) -> None:
    """Print the board data; provisional values are marked with *."""
    board = _board(board_path)
    if as_json:
        print(json.dumps(board.to_json(), indent=1, ensure_ascii=False))
        return
    console = Console(width=120)
    console.print(f"[bold]{board.title}[/bold]   (* = provisional, see docs/wotr-board-data.md)")
    zones = Table("zone", "name", "votes", "VP 1st/2nd", "adjacent", "sea zones")
    for zone in board.zones:
        key = f"zones.{zone.id}"
        zones.add_row(zone.id, zone.name, str(zone.votes),
                      _mark(board, f"{key}.vp", f"{zone.vp_first}/{zone.vp_second}"),
                      _mark(board, f"{key}.land", ", ".join(sorted(zone.land))),
                      ", ".join(zone.seas))  # fmt: skip
    console.print(zones)
    icons = Table("zone", "icon", "kind", "CP", "garrison", "income", "notes")
    for icon in board.icons.values():
        key = f"icons.{icon.id}"
        notes = []
        if icon.cathedral:
            notes.append(_mark(board, f"{key}.cathedral", "cathedral"))
        if icon.see:
            notes.append(f"see {icon.see}")
        if icon.sea:
            notes.append(_mark(board, f"{key}.sea", f"sea {icon.sea}"))
        icons.add_row(icon.zone, _mark(board, f"{key}.name", icon.name),
                      icon.kind.replace("_", " "), str(icon.cp), str(icon.garrison or ""),
                      _mark(board, f"{key}.income", icon.income) if icon.kind != "castle"
                      else "", ", ".join(notes))  # fmt: skip
    console.print(icons)
    nobles = Table("noble", "CP", "home")
    for noble in board.nobles.values():
        key = f"nobles.{noble.id}"
        nobles.add_row(
            _mark(board, f"{key}.name", noble.name),
            _mark(board, f"{key}.cp", noble.cp),
            _mark(board, f"{key}.home", noble.home),
        )
    console.print(nobles)
    troops = board.model.troops
    per_turn = ", ".join(str(n) for n in troops.mercenaries_per_card)
    console.print(f"Troops: {troops.cost} pounds each, {troops.per_player} per player; "
                  f"{troops.mercenary_tokens} mercenary tokens, {troops.mercenary_cards} cards; "
                  f"mercenaries per card, turns 1-5: "
                  f"{_mark(board, 'troops.mercenaries_per_card', per_turn)}")  # fmt: skip
    calais = board.model.calais
    awards = "; ".join(f"{a.name} ({a.counts}s, {a.vp} VP)" for a in board.awards)
    console.print(f"Awards: {awards}; {calais.name} ({calais.cp} CP in "
                  f"{' or '.join(calais.zones)}, {calais.vp} VP)")  # fmt: skip


def _bot_names(text: str, players: int) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise UserError(f"--bots names {len(names)} players but --players is {players}")
    return names


def _bot(name: str, seat: int, seed: int | None) -> WotrBot:
    try:
        return make_wotr_bot(name, seed=None if seed is None else seed * 31 + seat)
    except ValueError as error:
        raise UserError(str(error)) from None


def _players(players: int) -> int:
    if players not in PLAYER_COUNTS:
        raise UserError(f"--players {players}: the game is for 2, 3 or 4")
    return players


@app.command()
def simulate(
    players: Annotated[int, typer.Option(help="2, 3 or 4.")] = 4,
    bots: Annotated[
        str,
        typer.Option(
            help=f"One per seat ({', '.join(available_wotr_bots())}), "
            "comma-separated, or one for all."
        ),
    ] = "random",
    games: Annotated[int, typer.Option(min=1, help="Games to play.")] = 100,
    seed: Annotated[int | None, typer.Option(help="Seed of the games (random if omitted).")] = None,
    board_path: BoardOption = None,
    records: Annotated[Path | None, typer.Option(help="Write each game's record here.")] = None,
) -> None:
    """Play bots against each other; print win rates and average VP per source."""
    board = _board(board_path)
    names = _bot_names(bots, _players(players))
    seats = [_bot(name, seat, seed) for seat, name in enumerate(names)]
    wins = [0.0] * players
    totals = [dict.fromkeys(("total", *VP_SOURCES), 0) for _ in range(players)]
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())  # fmt: skip
    with Progress(*columns, console=Console(stderr=True)) as progress:
        task = progress.add_task("games", total=games)
        for number in range(games):
            game_seed = None if seed is None else seed * 1_000_003 + number
            game = bot_game(seats, seed=game_seed, board=board)
            outcome = game.outcome()
            assert outcome is not None
            for seat in outcome.winners:
                wins[seat] += 1 / len(outcome.winners)
            for seat, player in enumerate(game.state.players):
                totals[seat]["total"] += player.vp
                for source, vp in player.vp_by_source.items():
                    totals[seat][source] += vp
            if records is not None:
                dump(record_of(game), records / f"game-{number + 1:05d}.json")
            progress.advance(task)
    table = Table("seat", "bot", "wins", "win rate", "avg VP", *VP_SOURCES,
                  title=f"{games} games, {players} players (VP averaged per game)")  # fmt: skip
    for seat in range(players):
        average = [f"{totals[seat][key] / games:.1f}" for key in ("total", *VP_SOURCES)]
        table.add_row(SEAT_NAMES[seat], names[seat], f"{wins[seat]:g}",
                      f"{wins[seat] / games:.1%}", *average)  # fmt: skip
    Console(width=120).print(table)


@app.command()
def play(
    board_path: BoardOption = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the shuffle (random if omitted).")
    ] = None,
    players: Annotated[int, typer.Option(help="2, 3 or 4.")] = 4,
    bots: Annotated[str, typer.Option(help="Per seat: human or a bot name, comma-separated.")] = (
        "human"
    ),
    save: Annotated[
        Path | None, typer.Option(help="Write the game record here at the end.")
    ] = None,
) -> None:
    """Hot-seat play for people at one terminal (bots may take seats)."""
    from .hotseat import play_hotseat

    names = _bot_names(bots, _players(players))
    seats = [None if n == "human" else _bot(n, s, seed) for s, n in enumerate(names)]
    game = play_hotseat(Game(players, board=_board(board_path), seed=seed), seats)
    if save is not None:
        dump(record_of(game), save)


@app.command("replay")
def replay_command(path: Annotated[Path, typer.Argument(help="A JSON game record.")]) -> None:
    """Replay a game record; print the result as JSON."""
    try:
        game = replay(load(path))
    except WotrError as error:
        raise UserError(f"{path}: {error}") from None
    outcome = game.outcome()
    print(json.dumps({"over": outcome is not None,
                      "result": None if outcome is None else outcome.to_json()}))  # fmt: skip


def _match_log_path(config: WotrMatchConfig) -> Path:
    budget = "untimed" if config.time_limit is None else f"{config.time_limit:g}s"
    if config.time_limit_b is not None:
        budget += f"-vs-{config.time_limit_b:g}s"
    name = f"{config.bot_a}-vs-{config.bot_b}-{config.players}p-seed{config.seed}-{budget}"
    return Path("wotr-matches") / f"{name}.jsonl"


@app.command()
def match(
    bot_a: Annotated[str, typer.Argument(help="The bot in one seat (rotating).")],
    bot_b: Annotated[str, typer.Argument(help="The bot in every other seat.")],
    players: Annotated[int, typer.Option(help="2, 3 or 4.")] = 2,
    games: Annotated[int, typer.Option(min=1, help="Games to play.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the deals.")] = 0,
    time_limit: Annotated[
        float | None,
        typer.Option("--time", min=0.01, help="Seconds per decision for searching bots."),
    ] = None,
    time_b: Annotated[
        float | None,
        typer.Option("--time-b", min=0.01, help="Bot B's own seconds (default: --time)."),
    ] = None,
    jobs: Annotated[int, typer.Option(min=1, help="Games played at once.")] = 1,
    log: Annotated[
        Path | None,
        typer.Option(
            help="The match's log (JSONL, one finished game a line); the same "
            "command resumes it. Default: wotr-matches/A-vs-B-Np-seedS-Ts.jsonl."
        ),
    ] = None,
) -> None:
    """Bot A in one seat (each seat in turn) against bot B in the others; print A's wins,
    win share with its Wilson 95% interval and each side's seconds per decision."""
    for name in (bot_a, bot_b):
        if name not in available_wotr_bots():
            choices = ", ".join(available_wotr_bots())
            raise UserError(f"unknown bot {name!r} (choose from: {choices})")
    config = WotrMatchConfig(bot_a, bot_b, _players(players), games, seed, time_limit, time_b)
    path = log or _match_log_path(config)
    try:
        results = read_log(path, config)
    except MatchLogError as error:
        raise UserError(str(error)) from None
    path.parent.mkdir(parents=True, exist_ok=True)
    if results:
        print(f"resuming {path}: {len(results)} games played before", file=sys.stderr)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[share]}"), TimeElapsedColumn())  # fmt: skip
    # The bar goes to standard error: standard output is the summary that tools read.
    with Progress(*columns, transient=True, console=Console(stderr=True)) as progress:
        done = sum(1 for index in results if index < games)
        task = progress.add_task(f"{bot_a} vs {bot_b}", total=games, completed=done, share="")
        for result in play_match(config, jobs=jobs, skip=results):
            results[result.index] = result
            log_game(path, config, result)
            share = match_stats(config, list(results.values())).share
            progress.update(task, advance=1, share=f"win share {share:.3f}")
    played = [results[index] for index in sorted(results) if index < games]
    print(format_stats(config, match_stats(config, played)))
