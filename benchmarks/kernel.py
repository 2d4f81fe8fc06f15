"""Speed of the playout kernel and of the search bots, and the endgame solver's reach.

    .venv/bin/python benchmarks/kernel.py [--games N] [--search-seconds S] [--endgames K]

Prints JSON lines: the kernel's random two- and four-player games per second (the same
object as ``roses rk bench --kernel``), the engine's own benchmark for comparison, the
mcts bot's iterations and playouts per second on a start position, the compiled search's
nodes per second and depth, and for each number of stones left the share of ``K``
positions (from self-play games) that the search solves exactly within 1 s.
"""

from __future__ import annotations

import argparse
import json
import time

from roses.bots.roseking import kernel
from roses.bots.roseking.base import BotSpec
from roses.bots.roseking.evaluation import HAND_MADE, WEIGHTS
from roses.bots.roseking.mcts import MctsBot
from roses.bots.roseking.search import SAMPLE, run
from roses.bots.roseking.value_net import learned_weights
from roses.roseking import Board
from roses.roseking.bench import random_games


def search_speed(seconds: float) -> dict[str, object]:
    bot = MctsBot(BotSpec("mcts", seed=1, time_limit=seconds))
    start = time.perf_counter()
    bot.search(Board(seed=3).view(0))
    elapsed = time.perf_counter() - start
    return {
        "search_seconds": round(elapsed, 3),
        "iterations_per_s": round(bot.last_iterations / elapsed),
        "playouts_per_s": round(bot.last_playouts / elapsed),
    }


def compiled_search_speed(
    seconds: float, sample: int, table: bool, weights: tuple[float, ...]
) -> dict[str, object]:
    """Nodes per second of the compiled expectimax over a few positions of one game, with
    whole chance nodes, no table and the thesis's evaluation (``alphabeta``'s search) or as
    ``search`` plays (3 sampled cards a draw, the transposition table, ``weights``)."""
    board = Board(seed=3)
    nodes = elapsed = 0.0
    depths = []
    for ply in range(0, 100, 20):
        while len(board.move_stack) < ply and board.legal_moves():
            board.push(run(board.view(board.turn), nodes=20_000).best)
        view = board.view(board.turn)
        result = run(view, time_limit=seconds, sample=sample, table=table, weights=weights)
        nodes += result.nodes
        elapsed += result.seconds
        depths.append(result.depth)
    return {"sample": sample, "table": table, "nodes_per_s": round(nodes / elapsed),
            "depths_at_plies_0_20_40_60_80": depths}  # fmt: skip


def endgame_reach(positions: int, limit: float = 1.0) -> list[dict[str, object]]:
    """For 1..12 stones left: how many self-play positions are solved exactly in ``limit``."""
    rows = []
    for left in range(1, 13):
        solved = 0
        seconds = []  # one per position reached: some games end with stones left
        for seed in range(positions):
            board = Board(seed=1000 + seed)
            while board.legal_moves() and board.supply > left:
                board.push(run(board.view(board.turn), nodes=5_000).best)
            if not board.legal_moves():
                continue
            result = run(board.view(board.turn), time_limit=limit)
            solved += result.exact
            seconds.append(result.seconds)
        rows.append({"stones_left": left, "positions": len(seconds), "exact_within_1s": solved,
                     "mean_seconds": round(sum(seconds) / max(1, len(seconds)), 3)})  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--search-seconds", type=float, default=1.0)
    parser.add_argument("--endgames", type=int, default=10)
    args = parser.parse_args()
    print(json.dumps({"kernel": "numba" if kernel.NUMBA else "python", "seats": 2,
                      **kernel.benchmark(args.games, seats=2)}))  # fmt: skip
    print(json.dumps({"kernel": "numba" if kernel.NUMBA else "python", "seats": 4,
                      **kernel.benchmark(args.games, seats=4)}))  # fmt: skip
    print(json.dumps({"engine": "roses.roseking", **random_games(2000)}))
    print(json.dumps({"bot": "mcts", **search_speed(args.search_seconds)}))
    evaluations = (
        ("hand-made", 0, False, HAND_MADE),  # alphabeta's search
        ("best play", SAMPLE, True, WEIGHTS),  # search's in the four-player game
        ("learned", SAMPLE, True, learned_weights()),  # search's in the two-player game
    )
    for evaluation, sample, table, weights in evaluations:
        speed = compiled_search_speed(args.search_seconds, sample, table, weights)
        print(json.dumps({"bot": "search", "evaluation": evaluation, **speed}))
    for row in endgame_reach(args.endgames):
        print(json.dumps({"endgame": "search", **row}))


if __name__ == "__main__":
    main()
