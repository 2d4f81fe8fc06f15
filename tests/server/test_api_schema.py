"""The OpenAPI description is true: Schemathesis sends generated requests to every
operation of a real server, signed out and signed in, and every answer must be one the
description lists, with the body it describes, and never a 5xx.

``ROSES_API_EXAMPLES`` sets the examples per operation (``make api-check`` runs thousands
of requests in all); the default keeps the test suite quick.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import checks

from roses.server.accounts.users import SESSION_COOKIE

from .live_server import LiveServer, running_server

# Every answer is a described status with the described body; never a 5xx. (A request the
# schema allows may still be refused for a rule the schema cannot state, e.g. the name rule
# or an illegal move: that refusal must itself be described.)
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
    checks.response_headers_conformance,
]
EXAMPLES = int(os.environ.get("ROSES_API_EXAMPLES", "8"))
# Generated requests create many games and accounts: lift the quotas for this server only.
GENEROUS = {
    "ROSES_REGISTRATIONS_PER_ADDRESS": "100000/hour",
    "ROSES_GUESTS_PER_ADDRESS": "100000/hour",
    "ROSES_GAMES_PER_ACCOUNT": "100000/hour",
    "ROSES_INVITATIONS_PER_ACCOUNT": "100000/hour",
    "ROSES_OPEN_GAMES_PER_ACCOUNT": "100000",
    "ROSES_LOGIN_FAILURES_PER_ADDRESS": "100000/hour",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with running_server(tmp_path_factory.mktemp("api"), GENEROUS) as live:
        yield live


@pytest.fixture(scope="module")
def signed_in(server: LiveServer) -> dict[str, str]:
    """A player with a game under way, so that generated ids sometimes hit something."""
    with httpx.Client(base_url=server.url) as client:
        guest = client.post("/api/accounts/guest")
        assert guest.status_code == 201, guest.text
        cookie = {"cookie": f"{SESSION_COOKIE}={guest.cookies[SESSION_COOKIE]}"}
        seats = [{"kind": "me"}, {"kind": "bot", "bot": "random"}]
        created = client.post("/api/games", json={"seats": seats}, headers=cookie)
        assert created.status_code == 201, created.text
    return cookie


def test_every_answer_is_described_and_none_is_a_server_error(
    server: LiveServer, signed_in: dict[str, str]
) -> None:
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
        def answers_as_described(case: schemathesis.Case) -> None:
            for headers in ({}, signed_in):  # signed out, then signed in
                case.call_and_validate(headers=headers, checks=CHECKS)

        answers_as_described()
    assert "Traceback" not in Path(server.log_path).read_text()
