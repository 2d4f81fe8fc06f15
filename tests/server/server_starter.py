"""Starts test servers (``roses serve``) by forking one process that has imported the server
already: a new interpreter spends seconds importing it, and the browser tests start a
server for each test. One starter runs per test process (``live_server.LiveServer``).

It reads one JSON request per line on standard input, ``{"argv", "env", "cwd", "log",
"deals"}``, forks, and answers the child's pid on a line of its own. The child is what
``python -m roses <argv>`` (or ``tests.server.seeded_roses``, with ``deals``) would be, with
that environment and working directory, writing to ``log``. The starter reaps its children
as they end, so that a child's pid is gone once it has stopped.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any

# What ``roses serve`` imports, done once here and shared by every child.
import uvicorn.protocols.websockets.websockets_sansio_impl  # noqa: F401

import roses.cli
import roses.cli.serve
import roses.server.app
from roses.server.lobby import creating
from tests.server.seeded_roses import seeded_deals


def _reap(*_: Any) -> None:
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _serve(request: dict[str, Any]) -> None:
    """In the child: become the server the request asks for; never returns."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # its own children are its own
        os.setpgid(0, 0)  # out of the starter's group: a signal to one is not to all
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        sys.stdin = open(os.devnull)  # noqa: SIM115 - for the life of the process
        sys.stdout = os.fdopen(1, "w", buffering=1)
        sys.stderr = os.fdopen(2, "w", buffering=1)
        if request["deals"] is not None:
            creating.deal_seed = seeded_deals(request["deals"])
        code = roses.cli.main(request["argv"])
    except BaseException:  # whatever happens, the child ends here
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def main() -> None:
    signal.signal(signal.SIGCHLD, _reap)
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _serve(request)
        print(pid, flush=True)


if __name__ == "__main__":
    main()
