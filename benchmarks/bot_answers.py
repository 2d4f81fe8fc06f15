"""Do the lobby's strengths answer in time when several bot games think at once?

Runs the server's own bot pool (``roses.server.workers.bot_pool.BotPool``: worker processes at a
lower priority, each search killed at the server's hard bound, its thinking time plus
``bot_margin_seconds``) with the server's default settings, ``--games`` decisions at a
time, from positions of real games (The Rose King: greedy self-play, a position every few
plies; Wars of the Roses, ``--game wotr``: every seat's plans in heuristic games). For
each strength it prints the time a search took (from getting a worker to its answer), how
long decisions waited for a free worker, and how many overran the bound: the server would
have played a random move for each of those (``bot_runner.py``).

    .venv/bin/python benchmarks/bot_answers.py [--game wotr] [--bot search] [--games 8]
        [--rounds 3] [--players 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import time
from dataclasses import dataclass

from server_load import WORKING, code_label, percentile

from roses.bots.roseking import make_bot
from roses.bots.wotr import make_wotr_bot
from roses.games import game_module
from roses.roseking.view import PlayerView
from roses.server.settings import Settings
from roses.server.workers.bot_pool import BotJob, BotPool
from roses.wotr import Phase
from roses.wotr import PlayerView as WotrView


def wotr_positions(count: int, players: int, seed: int) -> list[WotrView]:
    """``count`` Wars of the Roses bot inputs: each seat's planning view in heuristic games
    (the decisions the search thinks about; picks and French Aid are the heuristic's)."""
    module = game_module("wotr")
    found: list[WotrView] = []
    deal = seed
    while len(found) < count:
        state = module.restore(module.setup(deal, players, {}), players, {})
        heuristic = make_wotr_bot("heuristic", seed=deal)
        while module.to_act(state) and len(found) < count:
            seat = module.to_act(state)[0]
            view = module.bot_input(state, seat)
            if view.phase is Phase.PLANNING:
                found.append(view)
            module.apply(state, seat, heuristic.act(view))
        deal += 1
    return found


def positions(count: int, players: int, seed: int) -> list[PlayerView]:
    """``count`` bot inputs (a seat's view) from greedy self-play games, one every 7 plies."""
    module = game_module("roseking")
    options = module.parse_options(players, {})
    greedy = make_bot("greedy", seed=seed)
    found: list[PlayerView] = []
    deal = seed
    while len(found) < count:
        state = module.restore(module.setup(deal, players, options), players, options)
        ply = 0
        while module.to_act(state) and len(found) < count:
            seat = module.to_act(state)[0]
            view = module.bot_input(state, seat)
            assert view is not None  # no Light play waits: the options are the defaults
            if ply % 7 == 3 and len(view.legal_moves) > 1:
                found.append(view)
            module.apply(state, seat, str(greedy.choose(view)))
            ply += 1
        deal += 1
    return found


@dataclass
class Decision:
    waited: float  # for a free worker (the server does not count it against the bound)
    thought: float  # from getting a worker to the answer
    overran: bool


async def decide(pool: BotPool, free: asyncio.Semaphore, job: BotJob, limit: float) -> Decision:
    asked = time.monotonic()
    async with free:  # the pool's own queue, timed here: the pool then never waits
        started = time.monotonic()
        try:
            await pool.run(job, limit)
            overran = False
        except TimeoutError:
            overran = True
        return Decision(started - asked, time.monotonic() - started, overran)


async def measure(args: argparse.Namespace) -> list[dict[str, object]]:
    settings = Settings()
    pool = BotPool(settings.bot_workers)
    free = asyncio.Semaphore(settings.bot_workers)
    margin = settings.bot_margin_seconds
    count = args.games * args.rounds
    views: list[PlayerView] | list[WotrView] = (
        wotr_positions(count, args.players, args.seed)
        if args.game == "wotr"
        else list(positions(count, args.players, args.seed))
    )
    rng = random.Random(args.seed)

    def job(view: PlayerView | WotrView, seconds: float) -> BotJob:
        return BotJob(args.game, args.bot, view, seconds, rng.getrandbits(63))

    try:
        # Every worker compiles its search once, before the first job's time starts.
        warm = [decide(pool, free, job(v, 0.05), 120) for v in views[: settings.bot_workers]]
        await asyncio.gather(*warm)
        rows = []
        for strength, seconds in settings.bot_seconds.items():
            decisions: list[Decision] = []
            load_before = os.getloadavg()[0]
            for round_ in range(args.rounds):
                batch = views[round_ * args.games : (round_ + 1) * args.games]
                tasks = [decide(pool, free, job(v, seconds), seconds + margin) for v in batch]
                decisions += await asyncio.gather(*tasks)
            rows.append(summary(strength, seconds, margin, decisions, load_before))
            print(json.dumps(rows[-1]), flush=True)
        return rows
    finally:
        pool.close()


def summary(
    strength: str, seconds: float, margin: float, decisions: list[Decision], load: float
) -> dict[str, object]:
    thought = sorted(d.thought for d in decisions)
    waited = sorted(d.waited for d in decisions)
    return {
        "strength": strength,
        "seconds": seconds,
        "bound": seconds + margin,
        "decisions": len(decisions),
        "thought_p50": round(statistics.median(thought), 3),
        "thought_p99": round(percentile(thought, 0.99) or 0.0, 3),
        "thought_max": round(thought[-1], 3),
        "over_seconds": sum(t > seconds + 0.1 for t in thought),
        "overran_bound": sum(d.overran for d in decisions),
        "waited_p50": round(statistics.median(waited), 3),
        "waited_max": round(waited[-1], 3),
        "load_before": round(load, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="search", help="the bot the lobby seats (search)")
    parser.add_argument("--games", type=int, default=8, help="decisions asked at once (8)")
    parser.add_argument("--rounds", type=int, default=3, help="batches per strength (3)")
    parser.add_argument("--game", default="roseking", choices=("roseking", "wotr"))
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"# {args.game} {args.bot}, {args.players} players, {args.games} at once, "
          f"code {code_label(WORKING)}, {os.cpu_count()} cores")  # fmt: skip
    rows = asyncio.run(measure(args))
    print("| strength | thinking time | bound | decisions | thought p50 / p99 / max s "
          "| > time + 0.1 s | overran the bound | waited for a worker p50 / max s |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['strength']} | {r['seconds']} s | {r['bound']} s | {r['decisions']} "
            f"| {r['thought_p50']} / {r['thought_p99']} / {r['thought_max']} "
            f"| {r['over_seconds']} | {r['overran_bound']} "
            f"| {r['waited_p50']} / {r['waited_max']} |"
        )


if __name__ == "__main__":
    main()
