"""The real server (``roses serve``) in a process of its own on a free port, for restarts and
browsers: forked by ``server_starter``, which has imported the server once for all."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServerProcess:
    """A server forked by the starter: what the tests use of ``subprocess.Popen``."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def poll(self) -> int | None:
        """None while it runs (the starter reaps it once it has ended)."""
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return 0
        return None

    def send_signal(self, signal_number: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal_number)

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"server {self.pid}", timeout or 0)
            time.sleep(0.02)
        return 0


class Starter:
    """This test process's server starter (``server_starter``), started on first use."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()

    def start(
        self, argv: list[str], env: dict[str, str], log: Path, deals: str | None
    ) -> ServerProcess:
        request = {"argv": argv, "env": env, "cwd": os.getcwd(), "log": str(log), "deals": deals}
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self._process = subprocess.Popen(
                    [sys.executable, "-m", "tests.server.server_starter"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                    cwd=ROOT,
                )
                atexit.register(self._process.kill)
            assert self._process.stdin is not None and self._process.stdout is not None
            self._process.stdin.write(json.dumps(request) + "\n")
            self._process.stdin.flush()
            return ServerProcess(int(self._process.stdout.readline()))


STARTER = Starter()


class LiveServer:
    """``roses serve`` on a free port; ``kill()`` is kill -9, ``start()`` starts it again."""

    def __init__(
        self,
        database_url: str,
        log_path: Path,
        env: dict[str, str] | None = None,
        deals: str | None = None,
    ) -> None:
        self.database_url = database_url
        self.env = env or {}  # e.g. ROSES_* settings for this server only
        self.deals = deals  # a seed for every game's deal (e.g. the test's id); None: random
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.process: ServerProcess | None = None

    def start(self) -> LiveServer:
        argv = ["serve", "--port", str(self.port), "--database-url", self.database_url]
        # Tests play at machine speed, far past a person's move rate, unless they say.
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "ROSES_MOVE_BURST": "1000000", **self.env}
        self.process = STARTER.start(argv, env, self.log_path, self.deals)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/catalog", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start within 30s")

    def kill(self) -> None:
        """kill -9: no chance to flush or clean up."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None


@contextmanager
def running_server(
    folder: Path, env: dict[str, str] | None = None, deals: str | None = None
) -> Iterator[LiveServer]:
    """A started ``roses serve`` on SQLite in ``folder``, stopped on leaving."""
    live = LiveServer(f"sqlite:///{folder / 'roses.sqlite3'}", folder / "server.log", env, deals)
    live.start()
    try:
        yield live
    finally:
        live.stop()
