"""Real Chromium (Debian's, through Playwright) against the real server in a subprocess."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from tests.server.live_server import LiveServer, running_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

expect.set_options(timeout=15_000)  # assertions wait as long as a busy page needs


# One browser a module: Playwright's sync API keeps its event loop marked as running in the
# thread while it is open, and a later test of the same worker that calls asyncio.run()
# would fail, so the browser closes with the module that used it.
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: run scripts/system-deps.sh")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    """The server of one test; its games are dealt the same on every run, so a test that
    plays random moves meets no rare deal by chance (one in 3,000 ends by ply 10, RK-13)."""
    with running_server(tmp_path, deals=request.node.nodeid) as live:
        yield live


class Screenshots:
    """Saves numbered screenshots under test-artifacts/browser/<test name>/."""

    def __init__(self, name: str) -> None:
        self.folder = ARTIFACTS / re.sub(r"[^\w.-]+", "_", name)
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True)
        self.count = 0

    def __call__(self, page: Page, label: str) -> Path:
        self.count += 1
        path = self.folder / f"{self.count:02d}-{label}.png"
        page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Screenshots:
    return Screenshots(request.node.name)


@pytest.fixture
def new_page(browser: Browser) -> Iterator[object]:
    """Opens pages in fresh browser contexts (separate cookies: separate people)."""
    contexts: list[BrowserContext] = []

    def open_page(viewport: dict[str, int] | None = None) -> Page:
        context = browser.new_context(viewport=viewport or DESKTOP)  # type: ignore[arg-type]
        # Generous: on a 2-core machine the server, the bots and chromium share the cores.
        context.set_default_timeout(30_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors  # type: ignore[attr-defined]
        return page

    yield open_page
    for context in contexts:
        context.close()
