"""Data files shipped inside the package: JSON Schemas and templates."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode


def schema_dir() -> Traversable:
    return resources.files("problemtools_py.schemas")


def template_dir() -> Traversable:
    return resources.files("problemtools_py.templates")


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The JSON Schema ``schemas/<name>.schema.json``."""
    entry = schema_dir() / f"{name}.schema.json"
    try:
        data = json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise FatalError(
            f"installation is broken: cannot read schema {name}: {exc}", exit_code=ExitCode.INTERNAL
        ) from exc
    if not isinstance(data, dict):
        raise FatalError(
            f"installation is broken: schema {name} is not an object", exit_code=ExitCode.INTERNAL
        )
    return data
