"""``roses cluster``: N ``roses serve`` processes behind HAProxy on one machine, on one
PostgreSQL database and one Redis, as a deployment runs them (docs/scaling.md).

HAProxy (Debian's ``haproxy``) sends each game's requests and sockets (``/api/games/<id>``,
``/api/games/<id>/...``, the pages ``/games/<id>...``) to one process, chosen by consistent
hashing of the game's id over the processes that answer their health checks, and
everything else (lobby, accounts, lists) to the least busy process. Every process runs with
``ROSES_GAME_OWNERS`` (only a game's owner applies its moves) and names itself in the
``X-Roses-Process`` header. ``haproxy_config`` writes the balancer's configuration
(``deploy/haproxy.cfg`` is its output for three processes); ``Cluster`` starts and stops
the whole (the cluster test and ``benchmarks/cluster_load.py`` use it too).
"""

from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from .errors import UserError

if TYPE_CHECKING:
    import httpx

DEFAULT_DATABASE = "postgresql+psycopg://postgres@127.0.0.1:5432/roses"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
HEALTH = "/api/health"

_HEAD = """\
# HAProxy in front of {count} `roses serve` processes (roses/cli/cluster.py writes this file;
# docs/scaling.md explains it). Each game's requests and sockets go to one process, chosen
# by consistent hashing of the game's id over the processes that pass their health checks:
# a process that refuses connections (killed) is marked down within about {down_ms} ms and
# its games go to the others (which read them from the database); one merely slow under
# load has {check_timeout} to answer each check, so that its games do not move back and forth.
# Everything else goes to any process.
global
    maxconn {maxconn}

defaults
    mode http
    option forwardfor
    option redispatch
    retries 3
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    timeout client-fin 5s
    timeout http-keep-alive 5s
    timeout check {check_timeout}
    default-server check inter {check_ms} fall 2 rise 2 on-marked-down shutdown-sessions

frontend roses
    bind {bind}
    http-request set-var(txn.game) path,field(4,/) if {{ path_reg ^/api/games/[0-9]+(/|$) }}
    http-request set-var(txn.game) path,field(3,/) if {{ path_reg ^/games/[0-9]+(/|$) }}
    use_backend games if {{ var(txn.game) -m found }}
    default_backend anyone

backend games
    balance hash var(txn.game)
    hash-type consistent
    option httpchk GET {health}
    http-check expect status 200
"""

_ANYONE = """
backend anyone
    balance leastconn
"""


def haproxy_config(
    bind: str, servers: Sequence[tuple[str, str]], check_ms: int = 500, maxconn: int = 8000
) -> str:
    """HAProxy's configuration: listening on ``bind`` (``127.0.0.1:8000``) in front of
    ``servers`` (each a name and its ``host:port``), holding at most ``maxconn``
    connections (each socket is one; HAProxy needs two descriptors per connection)."""
    text = _HEAD.format(
        count=len(servers),
        down_ms=2 * check_ms,
        check_ms=check_ms,
        bind=bind,
        health=HEALTH,
        maxconn=maxconn,
        check_timeout="3s",
    )
    text += "".join(f"    server {name} {address}\n" for name, address in servers)
    text += _ANYONE
    text += "".join(
        f"    server {name} {address} no-check track games/{name}\n" for name, address in servers
    )
    return text


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Member:
    """One ``roses serve`` process of the cluster."""

    name: str
    port: int
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@dataclass
class Cluster:
    """``processes`` servers and HAProxy on free ports of 127.0.0.1 (``port``: the
    balancer's, 0 for a free one); ``workdir`` keeps the logs and the configuration."""

    processes: int
    database_url: str
    redis_url: str
    workdir: Path
    port: int = 0
    env: dict[str, str] = field(default_factory=dict)  # more ROSES_* settings for every process
    channel: str = field(default_factory=lambda: f"roses:cluster-{uuid.uuid4().hex[:8]}")
    members: list[Member] = field(default_factory=list)
    balancer: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Cluster:
        if shutil.which("haproxy") is None:
            raise UserError("HAProxy is not installed (Debian: apt-get install haproxy)")
        self.port = self.port or free_port()
        self.workdir.mkdir(parents=True, exist_ok=True)
        migrate(self.database_url)  # once, before any process: they do not race for it
        try:
            for index in range(self.processes):  # all at once, then wait for each
                name = f"p{index + 1}"
                member = Member(name, free_port(), self.workdir / f"{name}.log")
                self.members.append(member)
                self.launch(member)
            for member in self.members:
                self._wait(member.url, functools.partial(_process_of, member), member.log)
            config = self.workdir / "haproxy.cfg"
            servers = [(m.name, f"127.0.0.1:{m.port}") for m in self.members]
            config.write_text(haproxy_config(f"127.0.0.1:{self.port}", servers))
            with (self.workdir / "haproxy.log").open("ab") as log:
                self.balancer = subprocess.Popen(
                    ["haproxy", "-db", "-f", str(config)],
                    stdout=log,
                    stderr=log,
                    stdin=subprocess.DEVNULL,
                    start_new_session=True,
                )
            self._wait(self.url, lambda: self.balancer, self.workdir / "haproxy.log")
        except BaseException:
            self.stop()
            raise
        return self

    def launch(self, member: Member) -> None:
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "ROSES_REDIS_URL": self.redis_url,
            "ROSES_REDIS_CHANNEL": self.channel,
            "ROSES_GAME_OWNERS": "1",
            "ROSES_PROCESS_NAME": member.name,
            **self.env,
        }
        command = [sys.executable, "-m", "roses", "serve", "--port", str(member.port)]
        command += ["--database-url", self.database_url]
        with member.log.open("ab") as log:
            member.process = subprocess.Popen(
                command,
                stdout=log,
                stderr=log,
                env=env,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # its own group: its bot workers go with it
            )

    @staticmethod
    def _wait(url: str, process: Callable[[], subprocess.Popen[bytes] | None], log: Path) -> None:
        import httpx

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            running = process()
            if running is None or running.poll() is not None:
                raise RuntimeError(f"{url} exited: {log.read_text(errors='replace')[-2000:]}")
            with suppress(httpx.HTTPError):
                if httpx.get(url + HEALTH, timeout=2, trust_env=False).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"{url} did not answer within 60 s")

    def kill(self, name: str) -> None:
        """kill -9 of one process (and its bot workers): no chance to clean anything up."""
        member = self.member(name)
        if member.process is not None:
            with suppress(ProcessLookupError):
                os.killpg(member.process.pid, signal.SIGKILL)
            member.process.wait()
            member.process = None

    def member(self, name: str) -> Member:
        return next(m for m in self.members if m.name == name)

    def stop(self) -> None:
        """SIGTERM to every process (each gives its games up), HAProxy last."""
        for member in self.members:
            if member.process is not None:
                with suppress(ProcessLookupError):
                    os.killpg(member.process.pid, signal.SIGTERM)
        for member in self.members:
            if member.process is not None:
                try:
                    member.process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    with suppress(ProcessLookupError):
                        os.killpg(member.process.pid, signal.SIGKILL)
                    member.process.wait()
                member.process = None
        if self.balancer is not None:
            self.balancer.terminate()
            try:
                self.balancer.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.balancer.kill()
                self.balancer.wait()
            self.balancer = None


def _process_of(member: Member) -> subprocess.Popen[bytes] | None:
    return member.process


def served_by(response: httpx.Response) -> str | None:
    """The process that answered (its ``X-Roses-Process`` header)."""
    name: str | None = response.headers.get("x-roses-process")
    return name


def migrate(database_url: str) -> None:
    from .serve import migrated_engine

    migrated_engine(database_url).dispose()


def ensure_database(database_url: str) -> None:
    """Create the PostgreSQL database of ``database_url`` if it does not exist yet."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    url = make_url(database_url)
    if not url.drivername.startswith("postgresql") or not url.database:
        return
    admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            found = connection.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": url.database}
            ).first()
            if found is None:
                connection.execute(text(f'CREATE DATABASE "{url.database}"'))
    except SQLAlchemyError as error:
        raise UserError(f"cannot reach PostgreSQL at {url.host}:{url.port}: {error}") from None
    finally:
        admin.dispose()


def register(app: typer.Typer) -> None:
    @app.command()
    def cluster(
        processes: int = typer.Option(3, min=1, max=64, help="how many server processes"),
        port: int = typer.Option(8000, min=1, max=65535, help="HAProxy's port"),
        database_url: str | None = typer.Option(
            None,
            help=f"a PostgreSQL URL (default: $ROSES_DATABASE_URL, else {DEFAULT_DATABASE}, "
            "created if missing)",
        ),
        redis_url: str | None = typer.Option(
            None, help=f"Redis (default: $ROSES_REDIS_URL, else {DEFAULT_REDIS})"
        ),
        workdir: Path = typer.Option(Path("var/cluster"), help="logs and haproxy.cfg go here"),
        print_config: bool = typer.Option(
            False,
            help="print HAProxy's configuration for PROCESSES servers on ports 8001... and stop",
        ),
    ) -> None:
        """Serve through HAProxy on http://127.0.0.1:PORT, with PROCESSES `roses serve`
        processes behind it on one PostgreSQL and one Redis; Ctrl-C stops them all."""
        if print_config:
            servers = [(f"p{i + 1}", f"127.0.0.1:{8001 + i}") for i in range(processes)]
            typer.echo(haproxy_config(f"*:{port}", servers), nl=False)
            return
        # Ctrl-C, and SIGTERM alike, stop everything (even when started in the background).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        url = database_url or os.environ.get("ROSES_DATABASE_URL") or DEFAULT_DATABASE
        ensure_database(url)
        running = Cluster(
            processes,
            url,
            redis_url or os.environ.get("ROSES_REDIS_URL") or DEFAULT_REDIS,
            workdir,
            port=port,
            channel=os.environ.get("ROSES_REDIS_CHANNEL", "roses:game-changed"),
        )
        try:
            running.start()
            for member in running.members:
                typer.echo(f"{member.name}: {member.url} (log: {member.log})")
            typer.echo(f"roses at {running.url}: {processes} processes behind HAProxy")
            typer.echo("Ctrl-C stops them all")
            while True:
                time.sleep(1)
                for member in running.members:
                    if member.process is not None and member.process.poll() is not None:
                        typer.echo(f"{member.name} exited; its games go to the others")
                        member.process = None
        except KeyboardInterrupt:
            typer.echo("stopping")
        finally:
            running.stop()
