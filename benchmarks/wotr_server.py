"""Wars of the Roses on the server: how long sealing a plan and a 4-player turn's reveal take.

Starts ``roses serve`` (SQLite in a temporary folder), opens ``--games`` 4-player games of
four guests each, and plays ``--turns`` turns of every game at once over HTTP: the draft
(each pick the first card laid out), French Aid declined, and in Planning all four seats
seal a plan at the same moment. A plan seals ``--troops`` troops on one of the sealing
player's own Locations when it has one (else an empty plan). The seal that completes a
turn's planning carries the reveal (deployment, bribery, combat, Parliament, the next
turn's order and draft): its latency is reported apart. Prints p50/p90/p99/max in ms and
the server's CPU per request (actions and the views read to choose them), and appends a
row to benchmarks/results/wotr-server.md.

    python benchmarks/wotr_server.py --games 100 --turns 2
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

RESULTS = Path(__file__).parent / "results" / "wotr-server.md"
GENEROUS = {  # many guests and games from one address: lift the quotas for this server
    "ROSES_GUESTS_PER_ADDRESS": "1000000/hour",
    "ROSES_GAMES_PER_ACCOUNT": "1000000/hour",
    "ROSES_INVITATIONS_PER_ACCOUNT": "1000000/hour",
    "ROSES_KEEP_ALIVE_SECONDS": "600",  # 400 clients wait their turn on kept-alive connections
}


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Table:
    """One game and its four guests."""

    requests = 0  # every request of every table: the server's CPU is spread over them

    def __init__(self, clients: list[httpx.AsyncClient]) -> None:
        self.clients = clients
        self.game_id = 0

    async def view(self, seat: int) -> dict[str, Any]:
        Table.requests += 1
        answer = await self.clients[seat].get(f"/api/games/{self.game_id}")
        answer.raise_for_status()
        return dict(answer.json())

    async def act(self, seat: int, view: dict[str, Any], action: Any) -> tuple[float, Any]:
        Table.requests += 1
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


async def play(table: Table, turns: int, troops: int, times: dict[str, list[float]]) -> None:
    while True:
        view = await table.view(0)
        if view["status"] != "active" or view["state"]["turn"] > turns:
            return
        if view["state"]["phase"] == "planning":
            views = await asyncio.gather(*(table.view(seat) for seat in view["to_act"]))
            results = await asyncio.gather(
                *(table.act(v["you"], v, _plan(v, troops)) for v in views)
            )
            for elapsed, after in results:
                revealed = after["state"]["phase"] != "planning"
                times["reveal" if revealed else "seal"].append(elapsed)
            continue
        seat = view["to_act"][0]
        mine = await table.view(seat)
        income = mine["state"]["phase"] == "income"
        action = {"french_aid": False} if income else {"pick": mine["state"]["layout"][0]}
        elapsed, _ = await table.act(seat, mine, action)
        times["pick" if "pick" in action else "french aid"].append(elapsed)


async def open_table(base: str) -> Table:
    clients = [httpx.AsyncClient(base_url=base, timeout=60) for _ in range(4)]
    names = []
    for client in clients:
        answer = await client.post("/api/accounts/guest")
        answer.raise_for_status()
        names.append(answer.json()["name"])
    table = Table(clients)
    seats = [{"kind": "me"}] + [{"kind": "invite", "name": name} for name in names[1:]]
    created = await clients[0].post("/api/games", json={"game": "wotr", "players": 4,
                                                        "seats": seats})  # fmt: skip
    created.raise_for_status()
    table.game_id = created.json()["id"]
    for client in clients[1:]:
        (await client.post(f"/api/games/{table.game_id}/join")).raise_for_status()
    return table


def _summary(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return (f"{statistics.median(ordered):.1f} / {pick(0.9):.1f} / {pick(0.99):.1f} / "
            f"{ordered[-1]:.1f} (n={len(ordered)})")  # fmt: skip


async def main(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="wotr-bench-"))
    port = 8700 + os.getpid() % 200
    command = [sys.executable, "-m", "roses", "serve", "--port", str(port), "--database-url",
               f"sqlite:///{folder / 'roses.sqlite3'}"]  # fmt: skip
    server = subprocess.Popen(command, env={**os.environ, **GENEROUS},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base) as probe:
            for _ in range(300):
                try:
                    if (await probe.get("/api/catalog")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
        tables = [await open_table(base) for _ in range(args.games)]
        times: dict[str, list[float]] = {"pick": [], "french aid": [], "seal": [], "reveal": []}
        load_before = os.getloadavg()[0]
        cpu_before, started = _cpu_seconds(server.pid), time.monotonic()
        Table.requests = 0
        await asyncio.wait_for(
            asyncio.gather(*(play(t, args.turns, args.troops, times) for t in tables)),
            args.timeout,
        )
        cpu = _cpu_seconds(server.pid) - cpu_before
        wall = time.monotonic() - started
        requests = Table.requests  # the actions and the views read to choose them
        lines = [f"{kind}: p50 / p90 / p99 / max ms {_summary(v)}" for kind, v in times.items()]
        figures = (f"{args.games} games, {args.turns} turns, {wall:.1f} s, "
                   f"server CPU {cpu / max(requests, 1) * 1000:.2f} ms per request")  # fmt: skip
        print(figures, *lines, sep="\n")
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=False).stdout.strip()  # fmt: skip
        row = (f"| {datetime.now(UTC):%Y-%m-%d %H:%M} | {commit} | {os.cpu_count()} | "
               f"{load_before:.1f} | `--games {args.games} --turns {args.turns} --troops "
               f"{args.troops}` | {_summary(times['seal'])} | {_summary(times['reveal'])} | "
               f"{_summary(times['pick'])} | {cpu / max(requests, 1) * 1000:.2f} |\n")  # fmt: skip
        if not RESULTS.exists():
            RESULTS.write_text(
                "# Wars of the Roses on the server (issue 13)\n\n"
                "`benchmarks/wotr_server.py`: 4-player games of four guests over HTTP, all "
                "played at once on one `roses serve` (SQLite). Seal: a plan sealed while "
                "others still plan; reveal: the seal that completes planning and carries the "
                "reveal of the turn. Times p50 / p90 / p99 / max in ms.\n\n"
                "| date (UTC) | commit | nproc | load | options | seal | reveal | pick | "
                "server CPU ms/request |\n|---|---|---|---|---|---|---|---|---|\n"
            )
        with RESULTS.open("a") as results:
            results.write(row)
        for table in tables:
            for client in table.clients:
                await client.aclose()
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--turns", type=int, default=2, help="turns to play (1-5)")
    parser.add_argument("--troops", type=int, default=1, help="troops in each plan (0: empty)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds at most")
    asyncio.run(main(parser.parse_args()))
