"""The server's instructions per move, counted by callgrind: a cost that does not move with
the machine's load, so two commits can be compared on a busy machine.

    .venv/bin/python benchmarks/move_cost.py --ref bfb6805 --ref main [--games 8]
        [--moves 40] [--moves-by socket|post] [--seed 1]

For each ``--ref``, starts ``roses serve`` from that commit's ``roses/`` (SQLite in a
temporary directory) under ``valgrind --tool=callgrind`` with counting off, sets up
``--games`` two-player Rose King games between guests with both players' sockets open, as
the page keeps them, then counts while the games' movers make up to ``--moves`` moves each
(a seeded random legal move, sent on the socket as the page does, or POSTed), one at a time,
each waiting until both players' sockets have the new version. Prints instructions per move
(Ir) for each ref and their ratio. Callgrind slows the server some 50 times, so the figure
is a count, not a speed: CPU time per move comes from ``server_load.py`` on an idle machine.
``--record`` (a clean checkout, commits only) adds a row per ref to the table of instructions
in ``benchmarks/results/server-load.md``: the commit, ``--what`` (else the commit's subject),
the count, its ratio to the first ref and the command.
"""

from __future__ import annotations

import argparse
import json
import os
import pstats
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import recording
from server_load import (
    RESULTS,
    ROOT,
    WORKING,
    code_label,
    free_port,
    server_env,
    server_source,
)
from websockets.sync.client import ClientConnection, connect

COOKIE = "roses_session"
START_SECONDS = 900  # the server's start-up under callgrind


@dataclass
class Player:
    cookie: str
    socket: ClientConnection | None = None
    version: int = -1
    view: dict[str, Any] = field(default_factory=dict)


@dataclass
class Table:
    game: int
    players: list[Player]
    over: bool = False


# ``--profile``: the server profiles itself (cProfile, each thread's own CPU clock: time spent
# waiting is not counted) between SIGUSR1 and SIGUSR2, the event loop's thread and every
# thread started meanwhile (the commit writer), and writes the profiles, merged, where
# ``ROSES_PROFILE_TO`` says: call counts to compare two commits by, and where the CPU goes.
PROFILER = """
import cProfile, os, pstats, signal, threading, time
_profiles = []
_on = False
def _profiled(run):
    def wrapper(self):
        if not _on:
            return run(self)
        profile = cProfile.Profile(time.thread_time)
        _profiles.append(profile)
        profile.enable()
        try:
            return run(self)
        finally:
            profile.disable()
    return wrapper
threading.Thread.run = _profiled(threading.Thread.run)
def _start(*_):
    global _on
    _on = True
    profile = cProfile.Profile(time.thread_time)
    _profiles.append(profile)
    profile.enable()
def _stop(*_):
    global _on
    _on = False
    _profiles[0].disable()
    time.sleep(1.5)  # the writer thread ends after a second without work
    stats = pstats.Stats(_profiles[0])
    for profile in _profiles[1:]:
        stats.add(profile)
    stats.dump_stats(os.environ["ROSES_PROFILE_TO"])
signal.signal(signal.SIGUSR1, _start)
signal.signal(signal.SIGUSR2, _stop)
"""


def start(ref: str, workdir: Path, profile: bool) -> tuple[subprocess.Popen[bytes], str]:
    source = server_source(ref, workdir)
    env = server_env(workdir, 1, source)
    env["ROSES_MOVE_BURST"] = "1000000"
    port = free_port()
    serve = [sys.executable, "-m", "roses", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--database-url", f"sqlite:///{workdir / 'roses.sqlite3'}"]  # fmt: skip
    if profile:
        (workdir / "hooks").mkdir()
        (workdir / "hooks" / "sitecustomize.py").write_text(PROFILER)
        env["PYTHONPATH"] = f"{workdir / 'hooks'}:{env.get('PYTHONPATH', '')}"
        env["ROSES_PROFILE_TO"] = str(workdir / "profile.out")
        command = serve
    else:
        command = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                   f"--callgrind-out-file={workdir / 'callgrind.out'}", *serve]  # fmt: skip
    log = (workdir / "server.log").open("wb")
    server = subprocess.Popen(command, env=env, cwd=workdir, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError((workdir / "server.log").read_text()[-2000:])
        with suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/catalog", timeout=30, trust_env=False).is_success:
                return server, url
        time.sleep(1)
    server.kill()
    raise RuntimeError(f"the server did not answer within {START_SECONDS} s")


def guest(client: httpx.Client) -> tuple[str, str]:
    """A new guest's session cookie and name."""
    answer = client.post("/api/accounts/guest")
    answer.raise_for_status()
    client.cookies.clear()  # each request names its player's cookie
    return answer.cookies[COOKIE], answer.json()["name"]


def receive(player: Player, until_version: int) -> None:
    """Read the player's socket until it has shown ``until_version`` (acks pass by)."""
    assert player.socket is not None
    while player.version < until_version:
        message = json.loads(player.socket.recv(timeout=600))
        if message["type"] == "game":
            player.view = message["game"]
            player.version = int(player.view["version"])
        elif message["type"] == "error":
            raise RuntimeError(f"the server refused a move: {message}")


def set_up(url: str, games: int, stack: ExitStack) -> list[Table]:
    client = stack.enter_context(httpx.Client(base_url=url, timeout=600, trust_env=False))
    tables = []
    for _ in range(games):
        (first, _), (second, name) = guest(client), guest(client)
        players = [Player(first), Player(second)]
        body = {"seats": [{"kind": "me"}, {"kind": "invite", "name": name}]}
        created = client.post("/api/games", json=body, cookies={COOKIE: players[0].cookie})
        created.raise_for_status()
        game = int(created.json()["id"])
        joined = client.post(f"/api/games/{game}/join", cookies={COOKIE: players[1].cookie})
        joined.raise_for_status()
        socket_url = url.replace("http", "ws", 1) + f"/api/games/{game}/ws"
        for player in players:
            headers = {"Cookie": f"{COOKIE}={player.cookie}"}
            player.socket = stack.enter_context(
                connect(socket_url, origin=url, additional_headers=headers,  # type: ignore[arg-type]
                        max_size=2**22, compression=None, proxy=None, open_timeout=600)
            )  # fmt: skip
            receive(player, 0)
        tables.append(Table(game, players))
    return tables


def play(url: str, tables: list[Table], moves: int, by: str, rng: random.Random) -> int:
    """Up to ``moves`` rounds in which each unfinished game's mover moves once."""
    made = 0
    with httpx.Client(base_url=url, timeout=600, trust_env=False) as client:
        for _ in range(moves):
            for table in tables:
                if table.over:
                    continue
                version = max(p.version for p in table.players)
                for player in table.players:
                    receive(player, version)
                mover = next(p for p in table.players if p.view["can_act"])
                move = rng.choice(mover.view["state"]["legal_moves"])
                if by == "socket":
                    assert mover.socket is not None
                    message = {"type": "move", "move": move, "version": version, "id": version + 1}
                    mover.socket.send(json.dumps(message))
                else:
                    answer = client.post(f"/api/games/{table.game}/moves",
                                         json={"move": move, "version": version},
                                         cookies={COOKIE: mover.cookie})  # fmt: skip
                    answer.raise_for_status()
                for player in table.players:
                    receive(player, version + 1)
                made += 1
                table.over = table.players[0].view["status"] != "active"
    return made


def instructions(path: Path) -> int:
    """The total Ir of a callgrind dump (its ``summary:`` or ``totals:`` line)."""
    total = 0
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith(("summary:", "totals:")):
            total = max(total, int(line.split()[1]))
    return total


def measure(ref: str, args: argparse.Namespace) -> tuple[str, int, int]:
    with tempfile.TemporaryDirectory(prefix="roses-move-cost-") as tmp, ExitStack() as stack:
        workdir = Path(tmp)
        server, url = start(ref, workdir, args.profile is not None)
        try:
            tables = set_up(url, args.games, stack)
            profile = args.profile is not None
            counting(server.pid, True, profile)
            if not profile:  # the server's own background work (pings, periodic jobs)...
                time.sleep(args.idle)
                idle = dump(server.pid, workdir, "idle")
            began = time.monotonic()
            moves = play(url, tables, args.moves, args.moves_by, random.Random(args.seed))
            seconds = time.monotonic() - began
            if not profile:
                playing = dump(server.pid, workdir, "moves")
            counting(server.pid, False, profile)
        finally:
            stack.close()
            server.terminate()
            server.wait(timeout=300)
        if args.profile is not None:
            time.sleep(1)
            label = re.sub(r"[^\w.+-]+", "_", code_label(ref))  # "working" has blanks, a slash
            target = Path(f"{args.profile}-{label}.prof")
            shutil.copy(workdir / "profile.out", target)
            stats = pstats.Stats(str(target))
            calls = sum(entry[1] for entry in stats.stats.values())  # type: ignore[attr-defined]
            print(f"{code_label(ref)}: profile in {target}, {calls / max(1, moves):.0f} "
                  "Python calls per move")  # fmt: skip
            return code_label(ref), moves, 0
        # ...goes on while the moves are made, for a time that varies with the machine's
        # load: its rate over the idle window is taken out of the moves' count.
        background = idle / args.idle * seconds
        print(f"  {code_label(ref)}: {playing / 1e6:.0f} M counted over {seconds:.0f} s of moves, "
              f"{background / 1e6:.0f} M of them the background's ({idle / 1e6:.0f} M idle "
              f"in {args.idle:g} s)", flush=True)  # fmt: skip
        return code_label(ref), moves, round(playing - background)


def dump(pid: int, workdir: Path, name: str) -> int:
    """The instructions counted since the last dump (callgrind zeroes them at each dump)."""
    before = set(workdir.glob("callgrind.out*"))
    subprocess.run(["callgrind_control", "-d", name, str(pid)], check=True, capture_output=True)
    for _ in range(600):
        new = set(workdir.glob("callgrind.out*")) - before
        if new:
            time.sleep(1)  # written in full
            return instructions(new.pop())
        time.sleep(0.5)
    raise RuntimeError("callgrind wrote no dump")


def counting(pid: int, on: bool, profile: bool) -> None:
    """Start or stop counting the server's work: callgrind's instrumentation, or cProfile."""
    if profile:
        os.kill(pid, signal.SIGUSR1 if on else signal.SIGUSR2)
        time.sleep(0.5 if on else 3)  # stopping waits for the writer thread's end
    else:
        subprocess.run(["callgrind_control", "-i", "on" if on else "off", str(pid)],
                       check=True, capture_output=True)  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ref", action="append", help="a commit (repeatable; default HEAD)")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--moves", type=int, default=40, help="rounds of one move per game")
    parser.add_argument("--moves-by", choices=("socket", "post"), default="socket")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--idle", type=float, default=30.0,
                        help="seconds counted with no moves: the background's rate")  # fmt: skip
    parser.add_argument("--profile", metavar="PREFIX",
                        help="profile with cProfile instead, into PREFIX-COMMIT.prof")  # fmt: skip
    parser.add_argument("--record", action="store_true",
                        help="add the rows to benchmarks/results/server-load.md")  # fmt: skip
    parser.add_argument("--what", action="append", default=[],
                        help="what each ref is, for its row (repeatable, in order)")  # fmt: skip
    args = parser.parse_args()
    if args.record and (args.profile or WORKING in (args.ref or [])):
        parser.error("--record counts commits: no --profile, no --ref working")
    if args.record and recording.refuse_if_dirty("move_cost"):
        return 2
    rows = []
    for ref in args.ref or ["HEAD"]:
        label, moves, ir = measure(ref, args)
        if args.profile is not None:
            continue
        rows.append((label, moves, ir))
        print(f"{label}: {moves} moves ({args.moves_by}), {ir / max(1, moves) / 1e6:.2f} M "
              f"instructions per move", flush=True)  # fmt: skip
    if len(rows) > 1:
        base = rows[0][2] / max(1, rows[0][1])
        for label, moves, ir in rows[1:]:
            print(f"{label} / {rows[0][0]}: {ir / max(1, moves) / base:.3f}")
    print(f"(command: python benchmarks/move_cost.py {' '.join(sys.argv[1:])}; in {ROOT})")
    if args.record:
        record(rows, args)
        print(f"# {len(rows)} rows added to {RESULTS}", file=sys.stderr)
    return 0


TABLE = "| code | what it is | M instructions per move |"


def record(rows: list[tuple[str, int, int]], args: argparse.Namespace) -> None:
    """Each ref's row, at the end of server-load.md's table of instructions."""
    command = recording.command("move_cost.py", sys.argv[1:])
    base = rows[0][2] / max(1, rows[0][1])
    added = []
    for index, (label, moves, ir) in enumerate(rows):
        what = args.what[index] if index < len(args.what) else subprocess.run(
            ["git", "log", "-1", "--format=%s", label], cwd=ROOT, capture_output=True,
            text=True, check=True).stdout.strip()[:100]  # fmt: skip
        if args.moves_by == "post":
            what += " (POSTed moves)"
        ratio = "1" if index == 0 else f"{ir / max(1, moves) / base:.3f} of {rows[0][0]}"
        added.append(f"| {label} | {what.replace('|', '/')} | {ir / max(1, moves) / 1e6:.2f} | "
                     f"{ratio} | `{command}` |\n")  # fmt: skip
    lines = RESULTS.read_text().splitlines(keepends=True)
    end = next(i for i, line in enumerate(lines) if line.startswith(TABLE)) + 2
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    RESULTS.write_text("".join(lines[:end] + added + lines[end:]))


if __name__ == "__main__":
    sys.exit(main())
