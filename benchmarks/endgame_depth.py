"""From how far before the end the search solves a Rose King position exactly within 1 s.

    nice -n 19 .venv/bin/python benchmarks/endgame_depth.py [--games K] [--limit S] [--most N]
        [--nodes M]

K self-play games (the search at 5,000 nodes a move, deals 2000..2000+K-1) are played to
their end; from each, the first position with at most N stones left in the supply is
searched from the view of the seat to move (RK-20: the pile as a set of cards) under a
clock of S seconds, for N = 1 .. --most. A search is exact when no line was cut by the
depth: every value is the game's expected result under the draws (RK-9). With --nodes M
the search gets M nodes instead of the clock: what a core searches in 1 s when idle, a
figure that does not depend on the machine's load.

Prints one JSON line per N (positions, how many were solved exactly, the seconds the
exact ones took, the decisions the game actually had left, the cards in the draw pile),
then a summary: the most stones left, and the most decisions left, at which every
position (and 90% of them) was solved exactly in time. The search compiles first, outside
every clock. CPU-heavy: run it niced on a shared machine and note the load (`uptime`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import dataclass

from roses.bots.roseking.search import run, warm_up
from roses.roseking import Board

SELF_PLAY_NODES = 5_000


@dataclass(frozen=True)
class Probe:
    game: int
    ply: int  # the position's place in its game
    stones_left: int
    decisions_left: int  # moves the self-play game still made from here (passes included)
    pile: int  # cards in the draw pile
    exact: bool
    seconds: float
    nodes: int
    depth: int


def self_play(seed: int) -> list[Board]:
    """Every position of one game of the search against itself, the last one over."""
    board = Board(seed=seed)
    positions = [board.copy()]
    while board.legal_moves():
        board.push(run(board.view(board.turn), nodes=SELF_PLAY_NODES).best)
        positions.append(board.copy())
    return positions


def probe(
    game: int, positions: list[Board], stones_left: int, limit: float, nodes: int | None
) -> Probe | None:
    """The first position of the game with at most ``stones_left`` stones in the supply,
    searched for ``limit`` seconds (or ``nodes`` nodes); None if the game ended before."""
    for number, board in enumerate(positions):
        if board.is_over():
            return None
        if board.supply <= stones_left:
            clock = None if nodes else limit
            result = run(board.view(board.turn), time_limit=clock, nodes=nodes)
            return Probe(
                game=game,
                ply=number,
                stones_left=board.supply,
                decisions_left=len(positions) - 1 - number,
                pile=len(board.draw_pile),
                exact=result.exact,
                seconds=result.seconds,
                nodes=result.nodes,
                depth=result.depth,
            )
    return None


def row(stones_left: int, probes: list[Probe]) -> dict[str, object]:
    exact = [p for p in probes if p.exact]
    seconds = sorted(p.seconds for p in exact)
    return {
        "at_most_stones_left": stones_left,
        "positions": len(probes),
        "exact_within_limit": len(exact),
        "median_seconds_exact": round(statistics.median(seconds), 3) if seconds else None,
        "max_seconds_exact": round(seconds[-1], 3) if seconds else None,
        "median_nodes_exact": statistics.median(p.nodes for p in exact) if exact else None,
        "median_decisions_left": statistics.median(p.decisions_left for p in probes),
        "median_pile_cards": statistics.median(p.pile for p in probes),
        "median_depth": statistics.median(p.depth for p in probes),
    }


def reach(probes: list[Probe], key: str, share: float) -> int:
    """The largest value of ``key`` up to which at least ``share`` of the positions at each
    value or below were solved exactly (0 if not even the smallest)."""
    values = sorted({getattr(p, key) for p in probes})
    best = 0
    for value in values:
        within = [p for p in probes if getattr(p, key) <= value]
        if sum(p.exact for p in within) < share * len(within):
            break
        best = value
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--limit", type=float, default=1.0, help="seconds per position")
    parser.add_argument("--most", type=int, default=14, help="the most stones left probed")
    parser.add_argument("--nodes", type=int, default=None, help="a node budget, not a clock")
    args = parser.parse_args()
    warm_up()
    started = time.perf_counter()
    games = [self_play(2000 + seed) for seed in range(args.games)]
    every: dict[tuple[int, int], Probe] = {}  # a position probed for several N counts once
    for stones_left in range(1, args.most + 1):
        probes = [
            p
            for number, game in enumerate(games)
            if (p := probe(number, game, stones_left, args.limit, args.nodes))
        ]
        every.update(((p.game, p.ply), p) for p in probes)
        print(json.dumps(row(stones_left, probes)), flush=True)
    probed = list(every.values())
    summary = {
        "limit_seconds": None if args.nodes else args.limit,
        "limit_nodes": args.nodes,
        "games": args.games,
        "all_exact_up_to_stones_left": reach(probed, "stones_left", 1.0),
        "90pct_exact_up_to_stones_left": reach(probed, "stones_left", 0.9),
        "all_exact_up_to_decisions_left": reach(probed, "decisions_left", 1.0),
        "90pct_exact_up_to_decisions_left": reach(probed, "decisions_left", 0.9),
        "wall_seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
