"""axe-core (bundled by axe-playwright-python) on a page: no serious or critical violation."""

from __future__ import annotations

import json

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from tests.browser.conftest import ARTIFACTS

_AXE = Axe()
BLOCKING = ("serious", "critical")


def assert_accessible(page: Page, name: str) -> None:
    """Runs axe-core on what the page shows now; writes the whole report to
    test-artifacts/axe/<name>.json and fails on any serious or critical violation."""
    results = _AXE.run(page)
    violations = results.response["violations"]
    folder = ARTIFACTS.parent / "axe"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(violations, indent=1))
    blocking = [v for v in violations if v.get("impact") in BLOCKING]
    summary = [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(node["target"][0] if node["target"] else "?" for node in v["nodes"][:5])
        for v in blocking
    ]
    assert not blocking, f"axe-core on {name} ({page.url}):\n" + "\n".join(summary)
