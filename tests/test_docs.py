"""The documents stay true to the code: settings, rule numbers, the size of the results."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from roses.server.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
CITATION = re.compile(r"\b((?:RK|WR)-\d+)")
# A rule is defined by a list item that starts with its number: "- RK-8 **Play a power card**".
DEFINITION = re.compile(r"^- ((?:RK|WR)-\d+)\b", re.MULTILINE)
RESULTS_LINE_BUDGET = 3_000


class _RecordingEnvironment(dict[str, str]):
    """An empty environment that remembers every variable asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.add(key)
        return default


def _documented_settings() -> dict[str, tuple[str, str]]:
    """Each setting of docs/configuration.md's table: its variable cell and default cell."""
    rows = {}
    text = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    for match in re.finditer(r"^\| `([a-z_]+)` \| ([^|]+) \| ([^|]+) \|", text, re.MULTILINE):
        name, variable, default = match.groups()
        assert name not in rows, f"docs/configuration.md lists {name} twice"
        rows[name] = (variable.strip(), default.strip())
    return rows


def _shown(value: object) -> str:
    """A default as docs/configuration.md writes it (lists as the variable takes them)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return ",".join(value) or "none"
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)


def test_configuration_lists_every_setting_and_nothing_else() -> None:
    documented = set(_documented_settings())
    fields = set(Settings.model_fields)
    assert not fields - documented, f"missing from docs/configuration.md: {fields - documented}"
    assert not documented - fields, f"no such setting: {documented - fields}"


def test_configuration_names_the_variables_the_server_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    environment = _RecordingEnvironment()
    monkeypatch.setattr(os, "environ", environment)
    Settings.from_env()
    for name, (variable, _) in _documented_settings().items():
        expected = f"ROSES_{name.upper()}"
        wanted = f"`{expected}`" if expected in environment.asked else "—"
        assert variable == wanted, f"docs/configuration.md: {name} is read from {wanted}"


def test_configuration_gives_the_defaults() -> None:
    for name, (_, default) in _documented_settings().items():
        field = Settings.model_fields.get(name)
        if field is not None and field.default_factory is None:
            wanted = f"`{_shown(field.default)}`"
            assert default == wanted, f"docs/configuration.md: {name} defaults to {wanted}"


def _defined_rules() -> set[str]:
    return {
        number
        for path in RULES.glob("*.md")
        for number in DEFINITION.findall(path.read_text(encoding="utf-8"))
    }


def test_every_cited_rule_is_defined_in_docs_rules() -> None:
    defined = _defined_rules()
    assert {"RK-1", "RK-23", "WR-1", "WR-20"} <= defined
    unresolved = []
    for folder in ("roses", "tests"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in {".py", ".js", ".md", ".toml", ".html", ".json", ".po"}:
                continue
            for number in set(CITATION.findall(path.read_text(encoding="utf-8"))):
                if number not in defined:
                    unresolved.append(f"{path.relative_to(ROOT)}: {number}")
    assert not unresolved, f"rules cited but not defined in docs/rules: {unresolved}"


def _shared_rules() -> Path | None:
    """``../shared/rules`` beside the repository (beside its main checkout for a worktree)."""
    checkouts = [ROOT]
    try:
        common = subprocess.run(
            ["git", "rev-parse", "--path-format=absolute", "--git-common-dir"],
            cwd=ROOT, capture_output=True, check=True, text=True,
        ).stdout.strip()  # fmt: skip
        checkouts.append(Path(common).parent)
    except (OSError, subprocess.CalledProcessError):  # not a git checkout
        pass
    for checkout in checkouts:
        if (checkout.parent / "shared" / "rules").is_dir():
            return checkout.parent / "shared" / "rules"
    return None


def test_docs_rules_are_the_shared_rules() -> None:
    shared_rules = _shared_rules()
    if shared_rules is None:
        pytest.skip("no ../shared/rules beside the repository")
    shared = {path.name: path.read_bytes() for path in shared_rules.glob("*.md")}
    copied = {path.name: path.read_bytes() for path in RULES.glob("*.md")}
    assert copied.keys() == shared.keys()
    for name, text in shared.items():
        assert copied[name] == text, f"docs/rules/{name} differs from ../shared/rules/{name}"


def _results_files() -> list[Path]:
    folder = ROOT / "benchmarks" / "results"
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "benchmarks/results"],
            cwd=ROOT, capture_output=True, check=True, text=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.CalledProcessError):  # not a git checkout
        return [path for path in folder.rglob("*") if path.is_file()]
    return [ROOT / name for name in listed.split("\0") if name]


def test_benchmark_results_stay_short() -> None:
    """The results keep current figures; game logs are regenerated, not committed."""
    files = _results_files()
    assert files, "benchmarks/results is empty"
    lines = sum(len(path.read_bytes().splitlines()) for path in files if path.exists())
    assert lines <= RESULTS_LINE_BUDGET, f"benchmarks/results holds {lines} lines"


def test_relative_links_of_the_documents_resolve() -> None:
    documents = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").rglob("*.md")]
    broken = []
    for document in documents:
        text = document.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" not in target and not (document.parent / target).exists():
                broken.append(f"{document.relative_to(ROOT)}: {target}")
    assert not broken, f"links to nothing: {broken}"
