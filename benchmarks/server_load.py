"""Load benchmark of issue 12: the real server, N live two-player Rose King games between
simulated people over HTTP + WebSocket, as the browser plays them.

    .venv/bin/python benchmarks/server_load.py [--games N] [--think S] [--seconds S]
        [--database sqlite|postgres] [--bots K] [--processes P] [--generators G] ...

Starts ``roses serve`` on free ports of 127.0.0.1 (SQLite in a temporary directory, or a
fresh PostgreSQL database on 127.0.0.1:5432 that is dropped afterwards; with ``--processes
P`` > 1, P servers on one PostgreSQL database and Redis, each game's two players on two
different servers), relaxes the per-address quotas through ``ROSES_*`` variables, then
starts the games gradually (``--ramp``). Each person signs in, one creates the game inviting
the other, the other joins, both keep the game's WebSocket open, and whoever may act thinks
(exponential, mean ``--think``) and sends a random legal move on the game's socket as the
page does (``--moves post``: a POST). After ``--warmup`` seconds it
measures a window of ``--seconds``:

- round trip: a move sent -> the opponent's WebSocket receives that version;
- the move's answer (the socket's ack, or the POST's answer);
- accepted moves per second (people's, and bots');
- errors: every non-2xx answer and every socket drop, listed;
- the server process's CPU time per accepted move (/proc/PID/stat), its peak RSS (VmHWM),
  the bot worker processes' CPU, the load generator's own CPU and event-loop lag;
- the machine's load average.

Prints the figures (a JSON line, then a summary) and the row; ``--record`` appends it to
``benchmarks/results/server-load.md`` (from a clean checkout only: the row names the commit,
the reference loop's rate before and after the run, the load and the command). ``--profile
FILE`` records the (first) server with py-spy during the window (collapsed stacks) and
prints where its CPU goes per move. The run is bounded (``--timeout``), talks only to
127.0.0.1, and stops its servers and drops its database however it ends (Ctrl-C included).
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import io
import json
import multiprocessing
import os
import queue as queue_module
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import recording
from load_players import WorkerConfig, worker_main
from reference_loop import reference_rate

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results" / "server-load.md"
POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/"
REDIS = "redis://127.0.0.1:6379/0"
TICKS = os.sysconf("SC_CLK_TCK")
GRACE = 10.0  # seconds after the window for its last moves to be delivered
WORKING = "working"  # --ref: the checkout as it is, uncommitted changes included
UNLIMITED = "1000000/hour"
# The per-address and per-account limits a load test from one address must not hit.
RELAXED = {
    "ROSES_REGISTRATIONS_PER_ADDRESS": UNLIMITED,
    "ROSES_GUESTS_PER_ADDRESS": UNLIMITED,
    "ROSES_GAMES_PER_ACCOUNT": UNLIMITED,
    "ROSES_INVITATIONS_PER_ACCOUNT": UNLIMITED,
    "ROSES_LOGIN_FAILURES_PER_ADDRESS": UNLIMITED,
    "ROSES_SOCKETS_PER_ADDRESS": "1000000",
}


class Interrupted(BaseException):
    """A signal or the run's time limit: stop and clean up (a BaseException, like Ctrl-C,
    so that no handler of ordinary errors swallows it)."""


# -- /proc ------------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of ``pid`` (None if it is gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def descendants(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        with suppress(OSError):
            for child in (task / "children").read_text().split():
                found.append(int(child))
                found.extend(descendants(int(child)))
    return found


def peak_rss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


ThreadStats = dict[int, tuple[float, int]]


def thread_stats(pid: int) -> ThreadStats:
    """Each thread of ``pid`` now alive: seconds spent runnable but waiting for a CPU
    (/proc/PID/task/TID/schedstat), and context switches (voluntary + involuntary)."""
    found: ThreadStats = {}
    with suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with suppress(OSError, ValueError, IndexError):
                waited = int((task / "schedstat").read_text().split()[1]) / 1e9
                switches = 0
                for line in (task / "status").read_text().splitlines():
                    if "ctxt_switches:" in line:
                        switches += int(line.split()[1])
                found[int(task.name)] = (waited, switches)
    return found


def thread_growth(before: ThreadStats, after: ThreadStats) -> tuple[float, int]:
    """Waits and switches between two readings, over the threads alive at the second (a
    thread started meanwhile counts from nothing; one that ended meanwhile is not counted,
    rather than taking its whole life off the sum)."""
    waited, switches = 0.0, 0
    for tid, (wait, switch) in after.items():
        first = before.get(tid, (0.0, 0))
        waited += wait - first[0]
        switches += switch - first[1]
    return waited, switches


def load_average() -> tuple[float, float, float]:
    one, five, fifteen = Path("/proc/loadavg").read_text().split()[:3]
    return float(one), float(five), float(fifteen)


@dataclass
class CpuSnapshot:
    at: float
    servers: list[float]
    bot_workers: dict[int, float]
    generators: list[float]
    server_threads: list[ThreadStats]  # run-queue waits and switches
    generator_threads: list[ThreadStats]


# -- the servers and the database -------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _die_with_parent() -> None:
    """In the server's child: it gets SIGTERM if this benchmark dies (even by kill -9)."""
    with suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_tail(self, lines: int = 15) -> str:
        with suppress(OSError):
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        return ""


def start_server(database_url: str, env: dict[str, str], workdir: Path, index: int) -> Server:
    port = free_port()
    log = workdir / f"server-{index}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "roses", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--database-url", database_url],
            env=env, cwd=workdir, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True, preexec_fn=_die_with_parent,
        )  # fmt: skip
    server = Server(port, process, log)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"server {index} exited ({process.returncode}):\n{server.log_tail()}"
            )
        with suppress(httpx.HTTPError):
            if httpx.get(f"{server.url}/api/catalog", timeout=5, trust_env=False).is_success:
                return server
        time.sleep(0.3)
    raise RuntimeError(f"server {index} did not answer within 120 s:\n{server.log_tail()}")


def stop_server(server: Server) -> None:
    """SIGTERM to the server's process group (it and its bot workers), SIGKILL after 20 s."""
    with suppress(ProcessLookupError):
        os.killpg(server.process.pid, signal.SIGTERM)
    try:
        server.process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=10)
    time.sleep(0.2)
    with suppress(ProcessLookupError):  # bot workers that outlived the server
        os.killpg(server.process.pid, signal.SIGKILL)


def _postgres(statement: str) -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as db:
        db.execute(statement.encode())


@contextmanager
def database(kind: str, workdir: Path) -> Iterator[str]:
    """A fresh database's URL, dropped (PostgreSQL) or deleted with ``workdir`` afterwards."""
    if kind == "sqlite":
        yield f"sqlite:///{workdir / 'roses.sqlite3'}"
        return
    name = f"roses_load_{os.getpid()}_{secrets.token_hex(3)}"
    _postgres(f'CREATE DATABASE "{name}"')
    try:
        yield POSTGRES + name
    finally:
        _postgres(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def redis_flush_check() -> None:
    """Fail early, with a clear message, if Redis does not answer."""
    import redis

    redis.Redis.from_url(REDIS, socket_timeout=5).ping()


# -- the figures ------------------------------------------------------------------------------


def percentile(values: Sequence[float], share: float) -> float | None:
    """The nearest-rank percentile (``share`` in 0..1) of ``values``; None if empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 1))
    return ordered[min(len(ordered), int(rank)) - 1]


def ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 1)


def git(*args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, check=True).stdout


def code_label(ref: str) -> str:
    """The commit whose ``roses/`` the server runs; for ``working``, HEAD and a hash of the
    uncommitted changes in roses/ (two runs with the same label ran the same code)."""
    if ref != WORKING:
        return git("rev-parse", "--short", ref).decode().strip()
    head = git("rev-parse", "--short", "HEAD").decode().strip()
    changed = git("status", "--porcelain", "--untracked-files=all", "--", "roses").splitlines()
    if not changed:
        return head
    digest = hashlib.sha1(git("diff", "HEAD", "--", "roses"))
    for line in sorted(changed):
        if line.startswith(b"??"):
            with suppress(OSError):
                digest.update((ROOT / line[3:].decode()).read_bytes())
    return f"{head}+uncommitted {digest.hexdigest()[:8]} ({len(changed)} files in roses/)"


def server_source(ref: str, workdir: Path) -> Path | None:
    """A copy of ``roses/`` as of ``ref`` for the servers to run (None: the checkout itself).

    Several people change the checkout at once: a commit's own code is what a row names."""
    if ref == WORKING:
        return None
    target = workdir / "src"
    target.mkdir()
    with tarfile.open(fileobj=io.BytesIO(git("archive", ref, "roses"))) as archive:
        archive.extractall(target, filter="data")
    return target


@dataclass
class Run:
    args: argparse.Namespace
    started: str = ""
    code: str = ""
    load_before: tuple[float, float, float] = (0.0, 0.0, 0.0)
    load_during: list[float] = field(default_factory=list)
    window: tuple[float, float] = (0.0, 0.0)
    cpu: tuple[CpuSnapshot, CpuSnapshot] | None = None
    server_rss: list[float | None] = field(default_factory=list)
    bot_rss: float = 0.0
    generator_rss: list[float | None] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    setup_seconds: float = 0.0
    server_log_problems: list[str] = field(default_factory=list)
    profile: list[str] = field(default_factory=list)
    reference: list[float] = field(default_factory=list)  # M loops/s before and after
    thawed_pauses: list[tuple[float, float]] = field(default_factory=list)  # ms, CPU ms
    command: str = ""


def options_text(args: argparse.Namespace) -> str:
    parts = [f"--games {args.games}", f"--think {args.think:g}", f"--seconds {args.seconds:g}",
             f"--database {args.database}"]  # fmt: skip
    if args.bots:
        parts.append(f"--bots {args.bots}")
    if args.processes > 1:
        parts.append(f"--processes {args.processes}")
    if args.generators > 1:
        parts.append(f"--generators {args.generators}")
    if args.accounts != "register":
        parts.append(f"--accounts {args.accounts}")
    if args.profile:
        parts.append("--profile")
    if args.moves != "socket":
        parts.append(f"--moves {args.moves}")
    if args.thaw_every is not None:
        parts.append(f"--thaw-every {args.thaw_every:g}")
    if args.ref == WORKING:
        parts.append("--ref working")
    return " ".join(parts)


def figures(run: Run) -> dict[str, Any]:
    start, end = run.window
    seconds = end - start

    def inside(at: float) -> bool:
        return start <= at <= end

    posts = [p for r in run.results for p in r["posts"] if inside(p[0])]
    accepted = [latency for _, latency, status in posts if status == 200]
    rtts = [rtt for r in run.results for at, rtt in r["rtts"] if inside(at)]
    undelivered = [u for r in run.results for u in r["undelivered"] if inside(u[0])]
    bot_moves = [at for r in run.results for at in r["bot_moves"] if inside(at)]
    errors = [e for r in run.results for e in r["errors"] if start <= e[0] <= end + GRACE]
    setup_errors = [e for r in run.results for e in r["errors"] if e[0] < start]
    lags = [lag for r in run.results for at, lag in r["lags"] if inside(at)]
    kinds = Counter(what for _, what, _ in errors)
    examples: dict[str, str] = {}
    for _, what, detail in errors + setup_errors:
        examples.setdefault(what, detail)
    moves = len(accepted) + len(bot_moves)
    out: dict[str, Any] = {
        "benchmark": "server_load",
        "options": options_text(run.args),
        "moves": run.args.moves,
        "commit": run.code,
        "command": run.command,
        "reference_m_loops_per_s": run.reference,
        "date": run.started,
        "nproc": os.cpu_count(),
        "load_before": list(run.load_before),
        "load_during_mean": round(sum(run.load_during) / len(run.load_during), 2)
        if run.load_during
        else None,
        "load_during_max": max(run.load_during) if run.load_during else None,
        "games_requested": run.args.games + run.args.bots,
        "games_up": sum(r["slots_up"] for r in run.results),
        "games_failed": sum(r["slots_failed"] for r in run.results),
        "games_finished": sum(r["games_finished"] for r in run.results),
        "setup_seconds": round(run.setup_seconds, 1),
        "window_seconds": round(seconds, 1),
        "moves_in_window": moves,
        "moves_per_s": round(len(accepted) / seconds, 2) if seconds else None,
        "bot_moves_per_s": round(len(bot_moves) / seconds, 2) if seconds else None,
        "round_trips": len(rtts),
        "round_trip_ms": {
            name: ms(percentile(rtts, share))
            for name, share in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))
        },
        "post_ms": {"p50": ms(percentile(accepted, 0.5)), "p99": ms(percentile(accepted, 0.99))},
        "errors": len(errors) + len(undelivered),
        "error_kinds": dict(kinds)
        | ({f"not delivered within {GRACE:g} s": len(undelivered)} if undelivered else {}),
        "setup_errors": dict(Counter(what for _, what, _ in setup_errors)),
        "error_examples": examples,
        "generator_loop_lag_ms": {"p99": ms(percentile(lags, 0.99)), "max": ms(max(lags or [0]))},
        "server_peak_rss_mib": [None if r is None else round(r) for r in run.server_rss],
        "bot_workers_peak_rss_mib": round(run.bot_rss),
        "server_log_problems": run.server_log_problems[:10],
        "thawed_full_collections_ms": run.thawed_pauses,
    }
    if run.cpu is not None:
        before, after = run.cpu
        server_cpu = [b - a for a, b in zip(before.servers, after.servers, strict=True)]
        bot_cpu = sum(
            after.bot_workers.get(pid, 0.0) - before.bot_workers.get(pid, 0.0)
            for pid in after.bot_workers
        )
        generator_cpu = [b - a for a, b in zip(before.generators, after.generators, strict=True)]
        server_threads = zip(before.server_threads, after.server_threads, strict=True)
        growths = [thread_growth(a, b) for a, b in server_threads]
        server_waited = sum(waited for waited, _ in growths)
        server_switches = sum(switches for _, switches in growths)
        out |= {
            "server_cpu_percent": [round(100 * c / seconds, 1) for c in server_cpu],
            "server_cpu_ms_per_move": round(1000 * sum(server_cpu) / moves, 2) if moves else None,
            # Each process takes an equal share of the moves (the two players of a game
            # sit on two processes): its CPU per move of its share.
            "server_cpu_ms_per_move_each": [
                round(1000 * c * len(server_cpu) / moves, 2) if moves else None for c in server_cpu
            ],
            # Time the server's threads were ready to run but waited for a CPU (the machine
            # is shared), and how often its threads switched (thread hand-offs, waits).
            "server_cpu_wait_ms_per_move": round(1000 * server_waited / moves, 2)
            if moves
            else None,
            "server_context_switches_per_move": round(server_switches / moves, 1)
            if moves
            else None,
            "generator_cpu_wait_percent": [
                round(100 * thread_growth(a, b)[0] / seconds, 1)
                for a, b in zip(before.generator_threads, after.generator_threads, strict=True)
            ],
            "bot_workers_cpu_percent": round(100 * bot_cpu / seconds, 1),
            "generator_cpu_percent": [round(100 * c / seconds, 1) for c in generator_cpu],
        }
    if run.profile:
        out["profile"] = run.profile
    return out


def _cell(value: Any) -> str:
    return "-" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


TABLE_HEADER = """# Load benchmark: live Rose King games over HTTP + WebSocket (issue 12)

`benchmarks/server_load.py` starts `roses serve` and plays N live two-player games between
simulated people (think time exponential, mean `--think` s); one row per run, appended by
the script (`--record`). Reference loop: `benchmarks/reference_loop.py`'s rate just before
and just after the run, the machine's speed beside the figures. People send their moves on
the game's WebSocket as the page does (`--moves post`: as POSTs). Round trip: a move sent ->
the opponent's WebSocket receives that version; move answer: the socket's ack (or the POST's
answer). CPU: the server process's user + system time in the window per accepted move
(people's and bots' moves; bot searches run in worker processes, counted apart). CPU wait:
the time the server's threads were runnable but waited for a CPU
(/proc/PID/task/*/schedstat), per move; switches: its threads' context switches per move.
Load: the machine's 1-minute load average (before the run: 1 / 5 / 15 min; during the
window: mean / max); the machine is shared, so latency figures depend on it. Goals: >= 3,000
games, p99 < 50 ms, <= 1 ms CPU per move.

"""
COLUMNS = (
    "date (UTC)", "commit", "nproc", "reference loop M loops/s before / after", "load before",
    "load during", "command", "games up",
    "moves/s (people + bots)", "round trip p50 / p90 / p99 / max ms", "move answer p50 / p99 ms",
    "server CPU ms/move", "server CPU %", "server CPU wait ms/move / switches/move",
    "server peak RSS MiB",
    "generator CPU % / loop lag p99 ms", "errors", "full collections after a thaw ms (CPU ms)",
)  # fmt: skip
TABLE_HEADER += "| " + " | ".join(COLUMNS) + " |\n" + "|---" * len(COLUMNS) + "|\n"


def table_row(f: dict[str, Any]) -> str:
    rtt = f["round_trip_ms"]
    post = f["post_ms"]
    errors = str(f["errors"])
    if f["error_kinds"]:
        errors += " (" + ", ".join(f"{k}: {v}" for k, v in f["error_kinds"].items()) + ")"
    if f["games_failed"]:
        errors += f"; {f['games_failed']} games failed to start"
    cells = [
        f["date"],
        f["commit"],
        f["nproc"],
        " / ".join(f"{x:g}" for x in f["reference_m_loops_per_s"]),
        " / ".join(f"{x:g}" for x in f["load_before"]),
        f"{_cell(f['load_during_mean'])} / {_cell(f['load_during_max'])}",
        f"`{f['command']}`",
        f["games_up"]
        if f["games_up"] == f["games_requested"]
        else f"{f['games_up']} of {f['games_requested']}",
        f"{_cell(f['moves_per_s'])} + {_cell(f['bot_moves_per_s'])}",
        " / ".join(_cell(rtt[k]) for k in ("p50", "p90", "p99", "max")),
        f"{_cell(post['p50'])} / {_cell(post['p99'])}",
        _cell(f.get("server_cpu_ms_per_move"))
        + (
            f" ({' / '.join(_cell(x) for x in f['server_cpu_ms_per_move_each'])})"
            if f.get("server_cpu_ms_per_move_each") and len(f["server_cpu_ms_per_move_each"]) > 1
            else ""
        ),
        " / ".join(_cell(x) for x in f.get("server_cpu_percent", []))
        + (
            f" (+ bots {f['bot_workers_cpu_percent']:g})"
            if f.get("bot_workers_cpu_percent")
            else ""
        ),
        f"{_cell(f.get('server_cpu_wait_ms_per_move'))} / "
        f"{_cell(f.get('server_context_switches_per_move'))}",
        " / ".join(_cell(x) for x in f["server_peak_rss_mib"]),
        " / ".join(_cell(x) for x in f.get("generator_cpu_percent", []))
        + f" / {_cell(f['generator_loop_lag_ms']['p99'])}",
        errors,
        ", ".join(f"{wall:g} ({cpu:g})" for wall, cpu in f["thawed_full_collections_ms"]) or "-",
    ]
    return "| " + " | ".join(str(c).replace("|", "/") for c in cells) + " |\n"


def record(path: Path, f: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    recording.append_row(path, TABLE_HEADER, table_row(f))


def summary(f: dict[str, Any]) -> str:
    rtt, post = f["round_trip_ms"], f["post_ms"]
    lines = [
        f"{f['command']}",
        f"server_load {f['options']} at {f['commit']} on {f['nproc']} cores, reference loop "
        f"{f['reference_m_loops_per_s']} M loops/s before / after, "
        f"load before {f['load_before']}, during mean {f['load_during_mean']} "
        f"max {f['load_during_max']}",
        f"  games up {f['games_up']} (failed {f['games_failed']}, finished during the run "
        f"{f['games_finished']}), set up in {f['setup_seconds']} s",
        f"  moves/s {f['moves_per_s']} by people + {f['bot_moves_per_s']} by bots "
        f"over {f['window_seconds']} s",
        f"  round trip ms p50 {rtt['p50']} p90 {rtt['p90']} p99 {rtt['p99']} max {rtt['max']} "
        f"({f['round_trips']} moves)",
        f"  move answer ({f['moves']}) ms p50 {post['p50']} p99 {post['p99']}",
        f"  server CPU {f.get('server_cpu_ms_per_move')} ms per accepted move "
        f"({f.get('server_cpu_percent')} % of a core), bot workers "
        f"{f.get('bot_workers_cpu_percent')} %; peak RSS {f['server_peak_rss_mib']} MiB "
        f"(+ bot workers {f['bot_workers_peak_rss_mib']} MiB)",
        f"  server threads waited {f.get('server_cpu_wait_ms_per_move')} ms per move for a "
        f"CPU (runnable, not running); {f.get('server_context_switches_per_move')} context "
        "switches per move",
        f"  load generator CPU {f.get('generator_cpu_percent')} % of a core (waiting for a "
        f"CPU {f.get('generator_cpu_wait_percent')} %), loop lag ms "
        f"{f['generator_loop_lag_ms']}",
        f"  errors {f['errors']}: {f['error_kinds']}; during set-up: {f['setup_errors']}",
    ]
    if f["thawed_full_collections_ms"]:
        lines.append(f"  full collections after a thaw in the window (ms, ms of CPU): "
                     f"{f['thawed_full_collections_ms']}")  # fmt: skip
    lines += [f"    {what}: {detail}" for what, detail in f["error_examples"].items()]
    lines += [f"  server log: {line}" for line in f["server_log_problems"]]
    lines += [f"  {line}" for line in f.get("profile", [])]
    return "\n".join(lines)


# -- py-spy -----------------------------------------------------------------------------------


def _category(frame: str) -> str:
    where = frame[frame.rfind("(") + 1 :]
    for marker, name in (
        ("sqlalchemy", "SQLAlchemy"), ("sqlite3", "sqlite3"), ("psycopg", "psycopg"),
        ("uvicorn", "uvicorn"), ("starlette", "Starlette"), ("fastapi", "FastAPI"),
        ("pydantic", "pydantic"), ("websockets", "websockets"), ("h11", "h11"),
        ("httptools", "httptools"), ("limits", "limits"), ("redis", "redis"),
        ("anyio", "anyio"), ("asyncio", "asyncio"), ("threading", "threads"),
        ("concurrent", "threads"), ("json", "json"), ("logging", "logging"),
        ("roses/server", "roses.server"), ("roses/games", "roses.games"),
        ("roses/roseking", "roses.roseking"), ("roses/bots", "roses.bots"),
    ):  # fmt: skip
        if marker in where:
            return name
    return "other"


def profile_summary(raw: Path, rate: int, seconds: float, cpu_ms_per_move: float,
                    top: int = 25) -> list[str]:  # fmt: skip
    """Where the server's CPU goes: py-spy's samples of the thread holding the GIL, by
    package of the innermost frame and by function; each share is also given as ms of the
    measured CPU per move (share x CPU per move)."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    categories: Counter[str] = Counter()
    total = 0
    for line in raw.read_text(errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [f for f in stack.split(";") if f and not f.startswith(("process ", "thread "))]
        if not frames:
            continue
        total += count
        functions = [f.rsplit(":", 1)[0] + ")" if ":" in f else f for f in frames]
        own[functions[-1]] += count
        categories[_category(frames[-1])] += count
        for function in set(functions):
            if "(roses/" in function and not any(x in function for x in ("roses/cli/", "__main__")):
                inclusive[function] += count  # the project's own functions

    if not total:
        return ["profile: no samples"]

    def share(name: str, count: int) -> str:
        part = count / total
        return f"{100 * part:5.1f}%  {part * cpu_ms_per_move:6.3f} ms/move  {name}"

    out = [
        f"profile: {total} samples of the GIL holder at {rate} Hz over {seconds:g} s "
        f"(the GIL held {100 * total / rate / seconds:.0f}% of the time); "
        f"server CPU {cpu_ms_per_move:.2f} ms per move",
        "by package of the running (innermost) frame:",
    ]
    out += ["  " + share(name, count) for name, count in categories.most_common()]
    out.append("functions, own time:")
    out += ["  " + share(name, count) for name, count in own.most_common(top)]
    out.append("the project's functions, including what they call:")
    out += ["  " + share(name, count) for name, count in inclusive.most_common(top)]
    return out


# -- the run ----------------------------------------------------------------------------------


def server_env(
    workdir: Path, processes: int, source: Path | None, thaw_every: float | None = None
) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ROSES_")}
    if source is not None:  # ahead of the editable install of the checkout
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(source), env.get("PYTHONPATH")]))
    env.update(RELAXED)
    env["ROSES_DATA_DIR"] = str(workdir)
    env["ROSES_BOT_GAMES_PER_ACCOUNT"] = "1000"
    env["ROSES_OPEN_GAMES_PER_ACCOUNT"] = "1000"
    env["PYTHONUNBUFFERED"] = "1"
    if processes > 1:
        env["ROSES_REDIS_URL"] = REDIS
    if thaw_every is not None:
        env["ROSES_FULL_COLLECTION_SECONDS"] = f"{thaw_every:g}"
    return env


def snapshot(servers: list[Server], generators: list[int]) -> CpuSnapshot:
    bots = {pid: cpu_seconds(pid) or 0.0 for s in servers for pid in descendants(s.process.pid)}
    return CpuSnapshot(
        at=time.monotonic(),
        servers=[cpu_seconds(s.process.pid) or 0.0 for s in servers],
        bot_workers=bots,
        generators=[cpu_seconds(pid) or 0.0 for pid in generators],
        server_threads=[thread_stats(s.process.pid) for s in servers],
        generator_threads=[thread_stats(pid) for pid in generators],
    )


def sleep_sampling(seconds: float, run: Run | None, servers: list[Server]) -> None:
    """Sleep, sampling the load average every 2 s and checking the servers are alive."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        time.sleep(min(2.0, left))
        if run is not None:
            run.load_during.append(load_average()[0])
        for index, server in enumerate(servers):
            if server.process.poll() is not None:
                raise RuntimeError(f"server {index} died:\n{server.log_tail()}")


THAWED = re.compile(
    r"full collection after the thaw stopped the server for ([\d.]+) ms \(([\d.]+) ms of CPU\)"
)


def log_size(server: Server) -> int:
    with suppress(OSError):
        return server.log.stat().st_size
    return 0


def thawed_pauses(server: Server, since: int) -> list[tuple[float, float]]:
    """The pauses (ms, and ms of CPU) of the full collections after a thaw the server logged
    since byte ``since`` of its log (``roses/server/workers/collector.py``)."""
    with suppress(OSError), server.log.open("rb") as log:
        log.seek(since)
        text = log.read().decode(errors="replace")
        return [(float(wall), float(cpu)) for wall, cpu in THAWED.findall(text)]
    return []


def log_problems(servers: list[Server]) -> list[str]:
    problems: Counter[str] = Counter()
    for server in servers:
        with suppress(OSError):
            for line in server.log.read_text(errors="replace").splitlines():
                if line.startswith(("ERROR", "WARNING", "Traceback")) or '" 500' in line:
                    problems[line.strip()[:200]] += 1
    return [f"{count} x {line}" for line, count in problems.most_common()]


def execute(args: argparse.Namespace, run: Run, workdir: Path) -> None:
    servers: list[Server] = []
    workers: list[Any] = []  # multiprocessing's spawned processes
    spy: subprocess.Popen[bytes] | None = None
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    queue: Any = context.Queue()
    with database(args.database, workdir) as url:
        try:
            if args.processes > 1:
                redis_flush_check()
            source = server_source(args.ref, workdir)
            env = server_env(workdir, args.processes, source, args.thaw_every)
            for index in range(args.processes):  # one at a time: the first one migrates
                servers.append(start_server(url, env, workdir, index))
            slots = list(range(args.games + args.bots))
            bot_slots = frozenset(range(args.games, args.games + args.bots))
            ramp = args.ramp if args.ramp is not None else max(5.0, len(slots) / 25)
            ramp_start = time.monotonic() + 3.0
            setup_deadline = ramp_start + ramp + args.setup_timeout
            deadline = setup_deadline + args.warmup + args.seconds + GRACE + 120
            tag = secrets.token_hex(2)
            for index in range(args.generators):
                config = WorkerConfig(
                    index=index,
                    slots=slots[index :: args.generators],
                    bot_slots=bot_slots,
                    total_slots=len(slots),
                    servers=[s.url for s in servers],
                    think=args.think,
                    ramp_start=ramp_start,
                    ramp=ramp,
                    accounts=args.accounts,
                    bot=args.bot,
                    strength=args.strength,
                    tag=f"L{tag}-",
                    seed=args.seed * 1000 + index,
                    setup_concurrency=args.setup_concurrency,
                    setup_deadline=setup_deadline,
                    deadline=deadline,
                    moves=args.moves,
                )
                worker = context.Process(
                    target=worker_main, args=(config, queue, stop), daemon=True
                )
                worker.start()
                workers.append(worker)
            print(f"# {len(servers)} server(s) up: {[s.url for s in servers]}; starting "
                  f"{len(slots)} games over {ramp:g} s", file=sys.stderr, flush=True)  # fmt: skip
            ready = 0
            while ready < len(workers):
                if time.monotonic() > setup_deadline + 60:
                    raise RuntimeError("the load generators did not report within the set-up time")
                with suppress(queue_module.Empty):
                    message = queue.get(timeout=1.0)
                    if message[0] == "ready":
                        ready += 1
                for index, server in enumerate(servers):
                    if server.process.poll() is not None:
                        raise RuntimeError(f"server {index} died:\n{server.log_tail()}")
            run.setup_seconds = time.monotonic() - ramp_start
            print(f"# set up in {run.setup_seconds:.0f} s; warming up {args.warmup:g} s, then "
                  f"measuring {args.seconds:g} s", file=sys.stderr, flush=True)  # fmt: skip
            sleep_sampling(args.warmup, None, servers)
            generator_pids = [w.pid for w in workers if w.pid is not None]
            if args.profile:
                spy = start_py_spy(args.profile, servers[0].process.pid, args.seconds)
            log_at = [log_size(server) for server in servers]
            before = snapshot(servers, generator_pids)
            sleep_sampling(args.seconds, run, servers)
            after = snapshot(servers, generator_pids)
            run.thawed_pauses = [p for s, at in zip(servers, log_at, strict=True)
                                 for p in thawed_pauses(s, at)]  # fmt: skip
            run.cpu = (before, after)
            run.window = (before.at, after.at)
            sleep_sampling(GRACE, None, servers)
            run.server_rss = [peak_rss_mib(s.process.pid) for s in servers]
            run.bot_rss = sum(
                peak_rss_mib(pid) or 0.0 for s in servers for pid in descendants(s.process.pid)
            )
            stop.set()
            collect_results(queue, run, len(workers))
            if spy is not None:
                spy.wait(timeout=60)
                spy = None
            run.server_log_problems = log_problems(servers)
            for worker in workers:
                worker.join(timeout=20)
            for server in servers:
                stop_server(server)
            servers = []
        finally:  # before the database is dropped; a second Ctrl-C must not cut it short
            for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                signal.signal(number, signal.SIG_IGN)
            stop.set()
            if spy is not None and spy.poll() is None:
                spy.terminate()
            for worker in workers:
                worker.join(timeout=5)
                if worker.is_alive():
                    worker.terminate()
            for server in servers:
                stop_server(server)


def start_py_spy(path: Path, pid: int, seconds: float) -> subprocess.Popen[bytes]:
    binary = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(binary).exists():
        raise RuntimeError("--profile needs py-spy: .venv/bin/pip install py-spy")
    return subprocess.Popen(
        [binary, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate", "100",
         "--format", "raw", "--output", str(path), "--nonblocking", "--gil"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def collect_results(queue: Any, run: Run, workers: int) -> None:
    deadline = time.monotonic() + 120
    while len(run.results) < workers and time.monotonic() < deadline:
        with suppress(queue_module.Empty):
            message = queue.get(timeout=1.0)
            if message[0] == "result":
                run.results.append(message[2])
    if len(run.results) < workers:
        raise RuntimeError(f"only {len(run.results)} of {workers} generators reported")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="server_load.py",
        description="Start roses serve and play N live two-player Rose King games between "
        "simulated people over HTTP + WebSocket; measure round trips, move answers, moves/s, "
        "errors, server CPU per move and memory, and append a row to "
        "benchmarks/results/server-load.md.",
    )
    parser.add_argument("--games", type=int, default=100, help="live person-vs-person games (100)")
    parser.add_argument("--think", type=float, default=10.0, help="mean think time, s (10)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured window, s (60)")
    parser.add_argument(
        "--warmup",
        type=float,
        default=15.0,
        help="seconds between the last game set up and the window (15)",
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=None,
        help="seconds over which games start (default games/25, at least 5)",
    )
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="SQLite in a temporary directory, or a fresh PostgreSQL database "
        "on 127.0.0.1:5432 (dropped afterwards)",
    )
    parser.add_argument(
        "--bots",
        type=int,
        default=0,
        help="extra games of a person against a server bot (--bot, --strength)",
    )
    parser.add_argument("--bot", default="mcts", help="the bot of --bots games (mcts)")
    parser.add_argument("--strength", default="normal", help="its strength (normal)")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes; > 1 needs --database postgres and Redis on "
        "127.0.0.1:6379, and puts each game's two players on two servers",
    )
    parser.add_argument(
        "--generators",
        type=int,
        default=1,
        help="load-generator processes (1); games are split between them",
    )
    parser.add_argument(
        "--moves",
        choices=("socket", "post"),
        default="socket",
        help="people send moves on the game's WebSocket, as the page does (socket), or as "
        "POSTs, as API clients do",
    )
    parser.add_argument(
        "--accounts",
        choices=("register", "guest"),
        default="register",
        help="sign people in by registering (argon2: slow to set up) or as guests",
    )
    parser.add_argument(
        "--setup-concurrency",
        type=int,
        default=16,
        help="games being set up at once per generator (16)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        metavar="FILE",
        help="py-spy the first server during the window into FILE (collapsed stacks of the "
        "thread holding the GIL; a summary in FILE.summary.txt) and print where its CPU goes "
        "per move",
    )
    parser.add_argument(
        "--setup-timeout",
        type=float,
        default=90.0,
        help="seconds after the ramp to wait for every game to be set up; then the window is "
        "measured with the games that are up (the others go on trying) (90)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="hard limit for the whole run, s (default: ramp + set-up + window + 240)",
    )
    parser.add_argument(
        "--ref",
        default="HEAD",
        help="run the servers on roses/ as of this commit (HEAD), or 'working' for the "
        "checkout with its uncommitted changes",
    )
    parser.add_argument(
        "--thaw-every",
        type=float,
        default=None,
        metavar="S",
        help="the server's full collection of everything every S s instead of hourly "
        "(ROSES_FULL_COLLECTION_SECONDS): its pauses in the window are reported",
    )
    parser.add_argument("--results", type=Path, default=RESULTS, help="the results file")
    parser.add_argument(
        "--record",
        action="store_true",
        help="append the row to the results file (a clean checkout only; --ref a commit)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the people's random seed")
    args = parser.parse_args(argv)
    if args.games < 1 and args.bots < 1:
        parser.error("--games or --bots must be at least 1")
    if args.processes > 1 and args.database != "postgres":
        parser.error("--processes > 1 needs --database postgres (one database for all)")
    if min(args.processes, args.generators, args.setup_concurrency) < 1:
        parser.error("--processes, --generators and --setup-concurrency are at least 1")
    if args.seconds <= 0 or args.think <= 0:
        parser.error("--seconds and --think must be positive")
    if args.record and args.ref == WORKING:
        parser.error("--record needs a commit's code, not --ref working")
    if args.timeout is None:
        ramp = args.ramp if args.ramp is not None else max(5.0, (args.games + args.bots) / 25)
        args.timeout = ramp + args.setup_timeout + args.warmup + args.seconds + 240
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)

    def interrupted(signum: int, _frame: Any) -> None:
        raise Interrupted(f"signal {signal.Signals(signum).name}")

    signal.signal(signal.SIGINT, interrupted)  # also when started with SIGINT ignored
    signal.signal(signal.SIGTERM, interrupted)
    signal.signal(signal.SIGHUP, interrupted)
    signal.signal(signal.SIGALRM, interrupted)
    signal.alarm(int(args.timeout) + 120)  # beyond every inner bound: the last resort
    try:
        code = code_label(args.ref)
    except subprocess.CalledProcessError as error:
        print(f"server_load: --ref {args.ref}: {error.stderr.decode().strip()}", file=sys.stderr)
        return 2
    if args.record and recording.refuse_if_dirty("server_load"):
        return 2
    run = Run(args, started=datetime.now(UTC).strftime("%Y-%m-%d %H:%M"), code=code)
    run.command = recording.command("server_load.py", sys.argv[1:] if argv is None else argv)
    run.reference.append(round(reference_rate(), 2))
    run.load_before = load_average()
    workdir = Path(tempfile.mkdtemp(prefix="roses-load-"))
    try:
        execute(args, run, workdir)
    except (Interrupted, KeyboardInterrupt) as error:  # after execute's clean-up
        print(f"server_load: stopped ({error or 'Ctrl-C'}); servers stopped, database dropped",
              file=sys.stderr)  # fmt: skip
        return 130
    except RuntimeError as error:
        print(f"server_load: {error}", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
        shutil.rmtree(workdir, ignore_errors=True)
    run.reference.append(round(reference_rate(), 2))
    result = figures(run)
    if args.profile:
        run.profile = profile_summary(
            args.profile, 100, result["window_seconds"], result.get("server_cpu_ms_per_move") or 0
        )
        result["profile"] = run.profile
        args.profile.with_suffix(".summary.txt").write_text("\n".join(run.profile) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "profile"}), flush=True)
    print(summary(result), flush=True)
    print(table_row(result), end="", flush=True)
    if args.record:
        record(args.results, result)
        print(f"# appended to {args.results}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
