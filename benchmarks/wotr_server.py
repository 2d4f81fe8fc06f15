"""Wars of the Roses on the server: how long sealing a plan and a 4-player turn's reveal take,
and the server's CPU per action, with many games played at once (issue 37: 300 games,
sealing and the reveal p99 < 100 ms).

Starts ``roses serve`` (SQLite in a temporary folder), opens ``--games`` 4-player games of
four guests each, and plays ``--turns`` turns of every game at once over HTTP, each player
thinking before each action (exponential, mean ``--think`` s, as people do): the draft (each
pick the first card laid out), French Aid declined, and in Planning each seat seals a plan
after its own thinking. A plan seals ``--troops`` troops on one of the sealing player's own
Locations when it has one (else an empty plan). The seal that completes a turn's planning
carries the reveal (deployment, bribery, combat, Parliament, the next turn's order and
draft): its latency is reported apart. Prints p50/p90/p99/max in ms and the server's CPU per
action (its CPU over the played turns divided by the actions; the views the players read to
choose them are in that CPU) and per request, and the row; ``--record`` appends the row to
benchmarks/results/wotr-server.md (from a clean checkout: the row names the commit, the
reference loop's rate before and after, the load and the command).

    python benchmarks/wotr_server.py --games 300 --turns 2 --think 3   # a few minutes
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import recording
from reference_loop import reference_rate

RESULTS = Path(__file__).parent / "results" / "wotr-server.md"
GENEROUS = {  # many guests and games from one address: lift the quotas for this server
    "ROSES_GUESTS_PER_ADDRESS": "1000000/hour",
    "ROSES_GAMES_PER_ACCOUNT": "1000000/hour",
    "ROSES_INVITATIONS_PER_ACCOUNT": "1000000/hour",
    "ROSES_KEEP_ALIVE_SECONDS": "600",  # the players keep their connections between actions
}
SET_UP_AT_ONCE = 16  # games being opened at once
HEADER = (
    "# Wars of the Roses on the server (issues 13 and 37)\n\n"
    "`benchmarks/wotr_server.py`: 4-player games of four guests over HTTP, all played at "
    "once on one `roses serve` (SQLite), each player thinking before each action "
    "(exponential, mean `--think` s). Seal: a plan sealed while others still plan; reveal: "
    "the seal that completes planning and carries the reveal of the turn. Times p50 / p90 / "
    "p99 / max in ms. CPU per action: the server's CPU over the turns played divided by the "
    "actions (the views read to choose them included). Reference loop: "
    "`benchmarks/reference_loop.py`'s rate before / after the run. Goal (issue 37): 300 "
    "games, seal and reveal p99 < 100 ms. `--record` appends a row, from a clean checkout "
    "only; each row names the commit that ran (`tests/test_results.py` checks it is on "
    "main).\n\n"
    "| date (UTC) | commit | nproc | reference loop M loops/s before / after | load before / "
    "during | command | seal | reveal | pick | server CPU ms per action / per request |\n"
    "|---|---|---|---|---|---|---|---|---|---|\n"
)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Table:
    """One game and its four guests."""

    requests = 0  # every request of every table: the server's CPU is spread over them
    actions = 0

    def __init__(self, clients: list[httpx.AsyncClient], think: float, rng: random.Random):
        self.clients = clients
        self.game_id = 0
        self.think = think
        self.rng = rng

    async def thinking(self) -> None:
        await asyncio.sleep(self.rng.expovariate(1 / self.think) if self.think > 0 else 0)

    async def view(self, seat: int) -> dict[str, Any]:
        Table.requests += 1
        answer = await self.clients[seat].get(f"/api/games/{self.game_id}")
        answer.raise_for_status()
        return dict(answer.json())

    async def act(self, seat: int, view: dict[str, Any], action: Any) -> tuple[float, Any]:
        Table.requests += 1
        Table.actions += 1
        started = time.perf_counter()
        answer = await self.clients[seat].post(
            f"/api/games/{self.game_id}/moves", json={"move": action, "version": view["version"]}
        )
        elapsed = (time.perf_counter() - started) * 1000
        if answer.status_code != 200:
            raise RuntimeError(f"game {self.game_id}: {answer.status_code} {answer.text}")
        return elapsed, answer.json()


def _plan(view: dict[str, Any], troops: int) -> dict[str, Any]:
    """Troops to defend one of the seat's own Locations, if it has one and the money."""
    state, seat = view["state"], view["you"]
    personalities = state["planning_options"]["cube_costs"]["white"]  # own nobles, ...
    locations = [c for c, holder in state["owner"].items()
                 if holder == seat and c not in personalities]  # fmt: skip
    affordable = state["money"][seat] // state["planning_options"]["troop_cost"]
    if locations and min(troops, affordable) > 0:
        return {"orders": {"troops": {locations[0]: min(troops, affordable)}}}
    return {"orders": {}}


async def seal(table: Table, seat: int, troops: int) -> tuple[float, Any]:
    """``seat`` reads its own view (its money is its own to see), thinks, and seals."""
    view = await table.view(seat)
    await table.thinking()
    return await table.act(seat, view, _plan(view, troops))


async def play(table: Table, turns: int, troops: int, times: dict[str, list[float]]) -> None:
    """The game's turns; whose turn it is and the draft's layout are public, so each
    action's answer tells the next actor what to do (a view is read only to plan)."""
    view = await table.view(0)
    while view["status"] == "active" and view["state"]["turn"] <= turns:
        if view["state"]["phase"] == "planning":
            results = await asyncio.gather(*(seal(table, s, troops) for s in view["to_act"]))
            for elapsed, after in results:
                revealed = after["state"]["phase"] != "planning"
                times["reveal" if revealed else "seal"].append(elapsed)
                if revealed:
                    view = after
            continue
        seat = view["to_act"][0]
        income = view["state"]["phase"] == "income"
        action = {"french_aid": False} if income else {"pick": view["state"]["layout"][0]}
        await table.thinking()
        elapsed, view = await table.act(seat, view, action)
        times["pick" if "pick" in action else "french aid"].append(elapsed)


async def open_table(base: str, think: float, rng: random.Random) -> Table:
    limits = httpx.Limits(max_connections=2)  # one for the player's own, one spare
    clients = [httpx.AsyncClient(base_url=base, timeout=120, limits=limits) for _ in range(4)]
    names = []
    for client in clients:
        answer = await client.post("/api/accounts/guest")
        answer.raise_for_status()
        names.append(answer.json()["name"])
    table = Table(clients, think, rng)
    seats = [{"kind": "me"}] + [{"kind": "invite", "name": name} for name in names[1:]]
    created = await clients[0].post("/api/games", json={"game": "wotr", "players": 4,
                                                        "seats": seats})  # fmt: skip
    created.raise_for_status()
    table.game_id = created.json()["id"]
    for client in clients[1:]:
        (await client.post(f"/api/games/{table.game_id}/join")).raise_for_status()
    return table


async def open_tables(base: str, args: argparse.Namespace) -> list[Table]:
    rng = random.Random(args.seed)
    gate = asyncio.Semaphore(SET_UP_AT_ONCE)

    async def one() -> Table:
        async with gate:
            return await open_table(base, args.think, rng)

    return list(await asyncio.gather(*(one() for _ in range(args.games))))


def _quantile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _summary(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return (f"{statistics.median(ordered):.1f} / {_quantile(ordered, 0.9):.1f} / "
            f"{_quantile(ordered, 0.99):.1f} / {ordered[-1]:.1f} (n={len(ordered)})")  # fmt: skip


async def _sample_load(samples: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        samples.append(os.getloadavg()[0])
        await asyncio.sleep(5)


async def run(args: argparse.Namespace, argv: Sequence[str]) -> int:
    folder = Path(tempfile.mkdtemp(prefix="wotr-bench-"))
    port = 8700 + os.getpid() % 200
    command = [sys.executable, "-m", "roses", "serve", "--host", "127.0.0.1", "--port",
               str(port), "--database-url", f"sqlite:///{folder / 'roses.sqlite3'}"]  # fmt: skip
    reference = [reference_rate()]
    server = subprocess.Popen(command, env={**os.environ, **GENEROUS},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    tables: list[Table] = []
    try:
        async with httpx.AsyncClient(base_url=base) as probe:
            for _ in range(300):
                try:
                    if (await probe.get("/api/catalog")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
        began = time.monotonic()
        tables = await open_tables(base, args)
        print(f"{len(tables)} games set up in {time.monotonic() - began:.1f} s", flush=True)
        times: dict[str, list[float]] = {"pick": [], "french aid": [], "seal": [], "reveal": []}
        load_before = os.getloadavg()[0]
        loads: list[float] = []
        stop = asyncio.Event()
        sampler = asyncio.create_task(_sample_load(loads, stop))
        cpu_before, started = _cpu_seconds(server.pid), time.monotonic()
        Table.requests = Table.actions = 0
        await asyncio.wait_for(
            asyncio.gather(*(play(t, args.turns, args.troops, times) for t in tables)),
            args.timeout,
        )
        cpu = _cpu_seconds(server.pid) - cpu_before
        wall = time.monotonic() - started
        stop.set()
        await sampler
    finally:
        for table in tables:
            for client in table.clients:
                await client.aclose()
        server.terminate()
        server.wait(10)
    reference.append(reference_rate())
    per_action = cpu / max(Table.actions, 1) * 1000
    per_request = cpu / max(Table.requests, 1) * 1000
    lines = [f"{kind}: p50 / p90 / p99 / max ms {_summary(v)}" for kind, v in times.items()]
    print(f"{args.games} games, {args.turns} turns in {wall:.1f} s: {Table.actions} actions, "
          f"{Table.requests} requests; server CPU {cpu:.1f} s, {per_action:.2f} ms per action, "
          f"{per_request:.2f} ms per request", *lines, sep="\n")  # fmt: skip
    during = statistics.mean(loads) if loads else load_before
    row = (f"| {datetime.now(UTC):%Y-%m-%d %H:%M} | {recording.commit()} | {os.cpu_count()} | "
           f"{reference[0]:.2f} / {reference[1]:.2f} | {load_before:.2f} / {during:.2f} | "
           f"`{recording.command('wotr_server.py', argv)}` | {_summary(times['seal'])} | "
           f"{_summary(times['reveal'])} | {_summary(times['pick'])} | "
           f"{per_action:.2f} / {per_request:.2f} |\n")  # fmt: skip
    print(row, end="")
    if args.record:
        recording.append_row(RESULTS, HEADER, row)
        print(f"# appended to {RESULTS}", file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--turns", type=int, default=2, help="turns to play (1-5)")
    parser.add_argument("--troops", type=int, default=1, help="troops in each plan (0: empty)")
    parser.add_argument("--think", type=float, default=3.0,
                        help="mean think time before each action, s (3; 0: none)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=1, help="the think times' random seed")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds at most")
    parser.add_argument("--record", action="store_true",
                        help="append the row to the results (a clean checkout only)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.record and recording.refuse_if_dirty("wotr_server"):
        return 2
    return asyncio.run(run(args, argv))


if __name__ == "__main__":
    sys.exit(main())
