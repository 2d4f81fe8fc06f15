"""Design matches for the search bots, and the evaluation's fit by self-play.

    .venv/bin/python benchmarks/tuning.py A B [--games N] [--time S | --iterations K] [--jobs J]
        [--time-b S | --iterations-b K]     (B's own budget, for odds matches)
        [--variant classic|four-player]
    .venv/bin/python benchmarks/tuning.py --fit [--fit-games N] [--fit-nodes K] [--seed S]

A match appends one line to ``benchmarks/results/tuning.md``; each game is logged in
``results/tuning-games/`` as it finishes (not kept in git), and the same match started
again resumes from that log. Variants are bot keyword arguments registered under a name
for the match runner. A name ``search:stuck=-0.4,heroes=0.9,sample=4`` is the search bot
with those weights of ``HAND_MADE`` changed (feature names with ``_`` for spaces) and its
options (``sample=k``, ``table=1``, ``probcut=m``, ``net=FILE``: a network written by
``python -m roses.bots.roseking.training train``), starting from ``SearchBot``'s defaults
(``HAND_MADE``, whole draws, no table), not from ``search``'s:
``search:net=roses/bots/roseking/value_net.json,sample=3,table=1`` is ``search`` in the
two-player game.
``--fit`` plays self-play games with the hand-made weights, fits weights for every
feature by logistic regression on the results (with ``--fit-values``: by least squares on
the values each position's search found) and prints them and the held-out loss of both:
a candidate, to be played against the hand-made weights before it replaces them (as a
``SEARCH_VARIANTS`` entry).
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path
from typing import Any

from roses.bots.roseking import kernel
from roses.bots.roseking.base import BOT_FACTORIES, Bot, BotSpec
from roses.bots.roseking.evaluation import FEATURE_NAMES, HAND_MADE
from roses.bots.roseking.match import MatchConfig, format_stats, match_stats, play_match
from roses.bots.roseking.mcts import MctsBot
from roses.bots.roseking.search import SearchBot
from roses.bots.roseking.value_net import flat
from roses.roseking import Variant

RESULTS = Path(__file__).parent / "results" / "tuning.md"
GAME_LOGS = Path(__file__).parent / "results" / "tuning-games"

VARIANTS: dict[str, dict[str, Any]] = {
    "uniform-playouts": {"policy": kernel.UNIFORM},
    "neighbour-playouts": {"policy": kernel.NEIGHBOURS},
    "rare-hero-playouts": {"policy": (1, 4, 0, 1, 0, 4)},
    "mild-neighbour-playouts": {"policy": (1, 3, 1, 1, 1, 3)},
    "no-reuse": {"reuse_tree": False},
    "leaf1": {"playouts_per_leaf": 1},
    "leaf2": {"playouts_per_leaf": 2},
    "leaf4": {"playouts_per_leaf": 4},
    "leaf8": {"playouts_per_leaf": 8},
    "c0.4": {"exploration": 0.4},
    "c0.7": {"exploration": 0.7},
    "c1.0": {"exploration": 1.0},
    "c1.4": {"exploration": 1.4},
}
SEARCH_VARIANTS: dict[str, dict[str, Any]] = {
    # the first self-play fit (46,403 positions): it lost to the hand-made weights
    "search-fit1": {
        "weights": (
            0.024,
            0.733,
            2.015,
            0.139,
            0.898,
            0.209,
            0.389,
            0.193,
            -0.25,
            -0.065,
            -0.487,
            0.0,
        )
    },
    # fitted to the values of 20,000-node searches over 16,754 self-play positions
    # (``--fit-values``, seeds 71 and 72): as ``search`` (3 cards a draw, the table)
    "search-fit2": {
        "weights": (
            0.039,
            -0.131,
            2.35,
            0.556,
            0.71,
            0.408,
            0.41,
            0.444,
            -0.301,
            -0.104,
            -0.131,
            0.0,
        ),
        "sample": 3,
        "table": True,
    },
}


def search_options(name: str) -> dict[str, Any]:
    """The ``SearchBot`` options a name ``search:feature=w,...,sample=k`` stands for."""
    weights = dict(zip(FEATURE_NAMES, HAND_MADE, strict=True))
    options: dict[str, Any] = {}
    for item in name.removeprefix("search:").split(","):
        key, _, value = item.partition("=")
        feature = key.replace("_", " ")
        if feature in weights:
            weights[feature] = float(value)
        elif key == "sample":
            options["sample"] = int(value)
        elif key == "table":
            options["table"] = value == "1"
        elif key == "probcut":
            options["probcut"] = int(value)
        elif key == "net":  # a network file written by roses.bots.roseking.training
            options["weights"] = flat(json.loads(Path(value).read_text(encoding="utf-8")))
        else:
            raise SystemExit(f"{key!r} in {name!r} is no feature ({', '.join(FEATURE_NAMES)})")
    options.setdefault("weights", tuple(weights.values()))
    return options


def _register(name: str) -> None:
    if name.startswith("search:"):
        SEARCH_VARIANTS[name] = search_options(name)
    if name in SEARCH_VARIANTS:
        chosen = SEARCH_VARIANTS[name]

        def search_factory(spec: BotSpec) -> Bot:
            return SearchBot(spec, **chosen)

        BOT_FACTORIES[name] = search_factory
        return
    options = VARIANTS[name]

    def factory(spec: BotSpec) -> Bot:
        return MctsBot(spec, **options)

    BOT_FACTORIES[name] = factory


def fit_main(
    games: int, nodes: int, seed: int, explore: float, variant: Variant, values: bool
) -> None:
    import numpy as np

    from roses.bots.roseking.selfplay import (
        fit,
        fit_values,
        game_positions,
        log_loss,
        searched_positions,
        squared_error,
    )

    start = time.perf_counter()
    xs: list[list[float]] = []
    ys: list[float] = []
    split = 0
    for game in range(games):
        play = searched_positions if values else game_positions
        rows, labels = play(seed * 100_003 + game, HAND_MADE, nodes, explore, variant)
        xs += rows
        ys += labels
        if game == games * 4 // 5 - 1:
            split = len(ys)  # the last fifth of the games is held out
    x, y = np.array(xs), np.array(ys)
    fitter, loss = (fit_values, squared_error) if values else (fit, log_loss)
    weights = fitter(x[:split], y[:split])
    old = np.array(HAND_MADE)
    minutes = (time.perf_counter() - start) / 60
    print(f"{len(ys)} positions from {games} games ({minutes:.1f} min)")
    print(f"held-out {loss.__name__}: HAND_MADE {loss(x[split:], y[split:], old):.4f}, "
          f"fitted {loss(x[split:], y[split:], weights):.4f}")  # fmt: skip
    for name, value in zip(FEATURE_NAMES, weights, strict=True):
        print(f"{name:>16} {value:+.3f}")
    print("all positions: (" + ", ".join(f"{v:.3f}" for v in fitter(x, y)) + ")")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("bot_a", nargs="?")
    parser.add_argument("bot_b", nargs="?")
    parser.add_argument("--fit", action="store_true", help="Fit the evaluation by self-play.")
    parser.add_argument("--fit-games", type=int, default=300)
    parser.add_argument("--fit-nodes", type=int, default=3000)
    parser.add_argument(
        "--fit-values", action="store_true",
        help="Fit to each position's searched value (--fit-nodes a move) instead of the result.",
    )  # fmt: skip
    parser.add_argument("--explore", type=float, default=0.1, help="Share of random moves.")
    parser.add_argument("--variant", default="classic", help="classic or four-player")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--time", type=float, default=None)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--time-b", type=float, default=None, help="Bot B's own time a move.")
    parser.add_argument("--iterations-b", type=int, default=None, help="Bot B's own budget.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    variant = Variant.parse(args.variant)
    if args.fit:
        fit_main(args.fit_games, args.fit_nodes, args.seed, args.explore, variant, args.fit_values)
        return
    if args.bot_a is None or args.bot_b is None:
        parser.error("name two bots, or give --fit")
    for name in (args.bot_a, args.bot_b):
        if name in VARIANTS or name in SEARCH_VARIANTS or name.startswith("search:"):
            _register(name)
    config = MatchConfig(
        args.bot_a, args.bot_b, args.games, seed=args.seed,
        time_limit=args.time, iterations=args.iterations,
        time_limit_b=args.time_b, iterations_b=args.iterations_b, variant=variant,
    )  # fmt: skip
    start = time.perf_counter()
    GAME_LOGS.mkdir(parents=True, exist_ok=True)
    budget = config.describe_budget()
    if variant is not Variant.CLASSIC:
        budget += f", {variant.value}"
    log_name = f"{args.bot_a}--{args.bot_b}--{budget}--seed{args.seed}"
    log_path = GAME_LOGS / (re.sub(r"[^A-Za-z0-9.=,+-]+", "_", log_name) + ".jsonl")
    played: dict[int, float] = {}
    if log_path.exists():
        for line in log_path.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            played[entry["game"]] = entry["points_a"]
    with log_path.open("a", encoding="utf-8") as log:
        for result in play_match(config, args.jobs, skip=played):
            played[result.index] = result.points_a
            log.write(json.dumps({"game": result.index, "points_a": result.points_a}) + "\n")
            log.flush()
            print(f"game {result.index}: {result.points_a} "
                  f"(total {sum(played.values())}/{len(played)})", flush=True)  # fmt: skip
    minutes = (time.perf_counter() - start) / 60
    points = [played[i] for i in sorted(played) if i < config.games]
    stats = match_stats(points)
    print(format_stats(config, stats))
    if args.seed != 1:
        budget += f" (seed {args.seed})"
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a", encoding="utf-8") as out:
        out.write(
            f"| {args.bot_a} | {args.bot_b} | {budget} | {stats.games} | {stats.wins}-"
            f"{stats.draws}-{stats.losses} | {stats.score:.3f} [{stats.low:.3f}, "
            f"{stats.high:.3f}] | {minutes:.1f} min |\n"
        )


if __name__ == "__main__":
    main()
