"""The cluster under load (issue 37): 1, 2, 4 `roses serve` processes behind HAProxy
(``roses cluster``), each game's traffic routed to its owner by its id, on one fresh
PostgreSQL database and Redis.

    .venv/bin/python benchmarks/cluster_load.py [--processes 1,2,4] [--games 200]
        [--think 0.5] [--seconds 20] [--warmup 5] [--moves socket|post]

For each process count it starts the cluster, plays ``--games`` live two-player Rose King
games between simulated people through the balancer (benchmarks/load_players.py, as
benchmarks/server_load.py does: both players' sockets and moves go through HAProxy, which
sends them to the game's owner), and measures over ``--seconds``:

- throughput: accepted moves per second;
- the CPU of every server process summed, per accepted move (the goal: with 4 processes at
  most 1.2 times one process's), each process's share, and HAProxy's own CPU per move;
- the round trip (a move sent -> the opponent's socket has that version), p50 and p99;
- errors.

``--one-owner`` sends everything to the first process instead of the balancer: it owns
every game, and the others' CPU per move is what a process pays for hearing of the moves of
games it does not own (the relay's message, its players' lobby sockets there).

The think time is short by default so that the offered load approaches what the machine
can serve: on 2 cores the load generators, HAProxy, PostgreSQL and Redis share the cores
with the servers, so throughput cannot grow far as processes are added; the CPU per move
says what adding processes costs. It prints one JSON line per process count and a table;
it records nothing: its figures go into docs/scaling.md with the commit they were measured
on, from an otherwise idle machine. With the defaults it runs 3 to 4 minutes.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import queue as queue_module
import secrets
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

import server_load
from load_players import WorkerConfig, worker_main

from roses.cli.cluster import Cluster

GRACE = 5.0  # after the window, for the last moves to be delivered


def cpu(cluster: Cluster) -> tuple[list[float], float]:
    """Each server process's CPU seconds (with its bot workers), and HAProxy's."""
    servers = []
    for member in cluster.members:
        assert member.process is not None
        pid = member.process.pid
        own = server_load.cpu_seconds(pid) or 0.0
        servers.append(
            own + sum(server_load.cpu_seconds(c) or 0.0 for c in server_load.descendants(pid))
        )
    balancer = cluster.balancer
    return servers, (server_load.cpu_seconds(balancer.pid) or 0.0) if balancer else 0.0


def measure(args: argparse.Namespace, processes: int, workdir: Path) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    queue: Any = context.Queue()
    workers: list[Any] = []
    env = {**server_load.RELAXED, "ROSES_BOT_WORKERS": "1", "ROSES_ANALYSIS_WORKERS": "1"}
    with server_load.database("postgres", workdir) as url:
        cluster = Cluster(
            processes, url, server_load.REDIS, workdir / f"cluster-{processes}", env=env
        )
        try:
            cluster.start()
            slots = list(range(args.games))
            ramp = max(3.0, len(slots) / 50)
            ramp_start = time.monotonic() + 2.0
            setup_deadline = ramp_start + ramp + 60
            deadline = setup_deadline + args.warmup + args.seconds + GRACE + 60
            tag = secrets.token_hex(2)
            for index in range(args.generators):
                config = WorkerConfig(
                    index=index,
                    slots=slots[index :: args.generators],
                    bot_slots=frozenset(),
                    total_slots=len(slots),
                    # --one-owner: past the balancer, to the first process, which owns every
                    # game: the others pay only for hearing of games they do not own.
                    servers=[cluster.members[0].url if args.one_owner else cluster.url],
                    think=args.think,
                    ramp_start=ramp_start,
                    ramp=ramp,
                    accounts="register",
                    bot="random",
                    strength="quick",
                    tag=f"C{processes}{tag}-",
                    seed=processes * 1000 + index,
                    setup_concurrency=16,
                    setup_deadline=setup_deadline,
                    deadline=deadline,
                    moves=args.moves,
                )
                worker = context.Process(
                    target=worker_main, args=(config, queue, stop), daemon=True
                )
                worker.start()
                workers.append(worker)
            ready = 0
            while ready < len(workers):
                if time.monotonic() > setup_deadline + 30:
                    raise RuntimeError("the load generators did not report within the set-up time")
                with suppress(queue_module.Empty):
                    if queue.get(timeout=1.0)[0] == "ready":
                        ready += 1
            time.sleep(args.warmup)
            start = time.monotonic()
            servers_before, balancer_before = cpu(cluster)
            load_before = os.getloadavg()[0]
            time.sleep(args.seconds)
            end = time.monotonic()
            servers_after, balancer_after = cpu(cluster)
            load_after = os.getloadavg()[0]
            time.sleep(GRACE)
            stop.set()
            results: list[dict[str, Any]] = []
            limit = time.monotonic() + 60
            while len(results) < len(workers) and time.monotonic() < limit:
                with suppress(queue_module.Empty):
                    message = queue.get(timeout=1.0)
                    if message[0] == "result":
                        results.append(message[2])
            if len(results) < len(workers):
                raise RuntimeError(f"only {len(results)} of {len(workers)} generators reported")
        finally:
            stop.set()
            for worker in workers:
                worker.join(timeout=10)
                if worker.is_alive():
                    worker.terminate()
            cluster.stop()

    def inside(at: float) -> bool:
        return start <= at <= end

    seconds = end - start
    accepted = [p for r in results for p in r["posts"] if inside(p[0]) and p[2] == 200]
    rtts = [rtt for r in results for at, rtt in r["rtts"] if inside(at)]
    errors = [e for r in results for e in r["errors"] if start <= e[0] <= end + GRACE]
    per_process = [
        after - before for before, after in zip(servers_before, servers_after, strict=True)
    ]
    moves = len(accepted)
    total = sum(per_process)
    return {
        "benchmark": "cluster_load",
        "processes": processes,
        "games": args.games,
        "think_s": args.think,
        "moves": args.moves,
        "one_owner": args.one_owner,
        "window_s": round(seconds, 1),
        "games_up": sum(r["slots_up"] for r in results),
        "moves_per_s": round(moves / seconds, 1),
        "server_cpu_ms_per_move": round(1000 * total / moves, 3) if moves else None,
        "server_cpu_share": [round(c / total, 2) if total else None for c in per_process],
        "haproxy_cpu_ms_per_move": (
            round(1000 * (balancer_after - balancer_before) / moves, 3) if moves else None
        ),
        "round_trip_ms": {
            "p50": server_load.ms(server_load.percentile(rtts, 0.5)),
            "p99": server_load.ms(server_load.percentile(rtts, 0.99)),
        },
        "errors": len(errors),
        "error_examples": sorted({f"{what}: {detail}" for _, what, detail in errors})[:5],
        "load_average": [round(load_before, 2), round(load_after, 2)],
        "nproc": os.cpu_count(),
    }


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", default="1,2,4", help="process counts to run (1,2,4)")
    parser.add_argument("--games", type=int, default=200, help="live games (200)")
    parser.add_argument("--think", type=float, default=0.5, help="mean think time, s (0.5)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window, s (20)")
    parser.add_argument("--warmup", type=float, default=5.0, help="before the window, s (5)")
    parser.add_argument("--generators", type=int, default=1, help="load generator processes (1)")
    parser.add_argument("--moves", choices=("socket", "post"), default="socket")
    parser.add_argument(
        "--one-owner",
        action="store_true",
        help="send every game to the first process (the others own none: what a process "
        "pays for the moves of games it does not own)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    counts = [int(n) for n in args.processes.split(",")]
    server_load.redis_flush_check()
    rows = []
    with tempfile.TemporaryDirectory(prefix="roses-cluster-") as folder:
        for count in counts:
            print(f"# {count} process(es) behind HAProxy", file=sys.stderr, flush=True)
            row = measure(args, count, Path(folder))
            print(json.dumps(row), flush=True)
            rows.append(row)
    base = rows[0]["server_cpu_ms_per_move"]
    print("| processes | moves/s | server CPU ms/move (x first) | HAProxy ms/move "
          "| p50 / p99 ms | errors |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for row in rows:
        ratio = (
            row["server_cpu_ms_per_move"] / base if base and row["server_cpu_ms_per_move"] else None
        )
        rtt = row["round_trip_ms"]
        print(
            f"| {row['processes']} | {row['moves_per_s']} | {row['server_cpu_ms_per_move']} "
            f"({'-' if ratio is None else f'{ratio:.2f}x'}) | {row['haproxy_cpu_ms_per_move']} "
            f"| {rtt['p50']} / {rtt['p99']} | {row['errors']} |"
        )  # fmt: skip


if __name__ == "__main__":
    main()
