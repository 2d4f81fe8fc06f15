"""``roses rk match`` and ``roses rk analyse``: the bots at the command line."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from roses.bots.matches import wilson_interval
from roses.bots.roseking.analysis import analyse_game, format_game, format_position
from roses.bots.roseking.analysis import analyse_position as analyse
from roses.bots.roseking.base import available_bots
from roses.bots.roseking.match import (
    GameResult,
    MatchConfig,
    cumulative_scores,
    format_stats,
    match_stats,
    play_match,
)
from roses.roseking import Board, RoseKingError
from roses.roseking.record import dump, load

from ..errors import UserError


def check_budget(time_limit: float | None, iterations: int | None, suffix: str = "") -> None:
    if time_limit is not None and iterations is not None:
        raise UserError(f"give --time{suffix} or --iterations{suffix}, not both")


def check_bot(name: str) -> None:
    if name not in available_bots():
        raise UserError(f"unknown bot {name!r} (choose from: {', '.join(available_bots())})")


def run_match(
    config: MatchConfig,
    *,
    jobs: int,
    records: Path | None,
    plot: Path | None,
) -> str:
    """Play the match with a progress bar; save records and the plot; return the summary."""
    check_budget(config.time_limit, config.iterations)
    check_budget(config.time_limit_b, config.iterations_b, "-b")
    for name in (config.bot_a, config.bot_b):
        check_bot(name)
    if plot is not None and plot.suffix.lower() != ".png":
        raise UserError(f"--plot needs a .png file name, not {str(plot)!r}")
    if records is not None:
        if records.exists() and not records.is_dir():
            raise UserError(f"--records {records} exists and is not a directory")
        records.mkdir(parents=True, exist_ok=True)
    results: dict[int, GameResult] = {}
    columns = (
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
    )  # fmt: skip
    # the bar goes to standard error: standard output is the summary that tools read
    with Progress(*columns, transient=True, console=Console(stderr=True)) as progress:
        task = progress.add_task(f"{config.bot_a} vs {config.bot_b}", total=config.games, rate="")
        for result in play_match(config, jobs=jobs):
            results[result.index] = result
            if records is not None and result.record is not None:
                dump(result.record, records / f"game-{result.index + 1:04d}.json")
            score = match_stats([r.points_a for r in results.values()]).score
            progress.update(task, advance=1, rate=f"win rate {score:.3f}")
    points = [results[index].points_a for index in sorted(results)]
    if plot is not None:
        draw_plot(points, config, plot)
    return format_stats(config, match_stats(points))


def draw_plot(points: list[float], config: MatchConfig, path: Path) -> None:
    """Bot A's win rate as games accumulate, with its 95% interval (matplotlib, Agg)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = list(range(1, len(points) + 1))
    curve = cumulative_scores(points)
    bands = [wilson_interval(rate * n, n) for rate, n in zip(curve, games, strict=True)]
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.fill_between(games, [b[0] for b in bands], [b[1] for b in bands], alpha=0.25,
                      label="95% interval")  # fmt: skip
    axes.plot(games, curve, label=f"{config.bot_a} win rate")
    axes.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    axes.set_ylim(0, 1)
    axes.set_xlabel("games")
    axes.set_ylabel("win rate (draws count one half)")
    axes.set_title(f"{config.bot_a} vs {config.bot_b} ({config.variant.value})")
    axes.legend(loc="lower right")
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror}") from None
    finally:
        plt.close(figure)


def analyse_position(
    board: Board,
    time_limit: float | None,
    iterations: int | None,
    seed: int | None,
    as_json: bool,
) -> str:
    """The ``analyse`` output; the search gets only the view of the seat to move.

    The search is deterministic: ``seed`` is accepted for scripts written for the older
    Monte Carlo analysis and changes nothing."""
    check_budget(time_limit, iterations)
    if board.is_over():
        raise UserError("the game is over: there is nothing to analyse")
    if time_limit is None and iterations is None:
        time_limit = 1.0
    analysis = analyse(board.view(board.turn), time_limit=time_limit, nodes=iterations)
    return json.dumps(analysis.to_dict()) if as_json else format_position(analysis)


def analyse_record(
    path: Path, time_limit: float | None, iterations: int | None, as_json: bool
) -> str:
    """The ``analyse-game`` output: every move of a recorded game judged."""
    check_budget(time_limit, iterations)
    try:
        analysis = analyse_game(load(path), time_limit=time_limit, nodes=iterations)
    except RoseKingError as error:
        raise UserError(f"{path}: {error}") from None
    return json.dumps(analysis.to_dict()) if as_json else format_game(analysis)
