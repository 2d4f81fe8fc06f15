"""Reading and writing game records as JSON files, shared by both games' engines."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def read_json_object(path: str | Path, error: Callable[[str], Exception]) -> dict[str, Any]:
    """The JSON object in ``path``; any fault raises ``error(message)`` naming the file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as fault:
        raise error(f"cannot read {path}: {fault.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as fault:
        raise error(f"{path} is not JSON: {fault}") from None
    if not isinstance(data, dict):
        raise error(f"{path} does not hold a JSON object")
    return data


def write_json(data: dict[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
