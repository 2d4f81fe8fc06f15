"""The real server (``roses serve``) in a subprocess on a free port, for restarts and browsers."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


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
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> LiveServer:
        roses = "roses" if self.deals is None else "tests.server.seeded_roses"
        command = [sys.executable, "-m", roses, "serve", "--port", str(self.port)]
        command += ["--database-url", self.database_url]
        # Tests play at machine speed, far past a person's move rate, unless they say.
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "ROSES_MOVE_BURST": "1000000", **self.env}
        if self.deals is not None:
            env["ROSES_TEST_DEALS"] = self.deals
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=log, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/catalog", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start within 30s")

    def kill(self) -> None:
        """kill -9: no chance to flush or clean up."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
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
