"""Data files shipped inside the package: JSON Schemas and templates."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from importlib.resources.abc import Traversable
    from typing import Any


def schema_dir() -> Traversable:
    from importlib import resources

    return resources.files("problemtools_py.schemas")


def template_dir() -> Traversable:
    from importlib import resources

    return resources.files("problemtools_py.templates")


@cache
def schema_text(name: str) -> str:
    """The text of the JSON Schema ``schemas/<name>.schema.json`` (read as a plain file
    where the package is one: importlib.resources costs start-up time)."""
    import importlib.util

    spec = importlib.util.find_spec("problemtools_py.schemas")
    where = list(spec.submodule_search_locations or []) if spec is not None else []
    plain = Path(where[0]) / f"{name}.schema.json" if where else None
    try:
        if plain is not None and plain.is_file():
            return plain.read_text(encoding="utf-8")
        return (schema_dir() / f"{name}.schema.json").read_text(encoding="utf-8")
    except OSError as exc:
        raise FatalError(
            f"installation is broken: cannot read schema {name}: {exc}", exit_code=ExitCode.INTERNAL
        ) from exc


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The JSON Schema ``schemas/<name>.schema.json``."""
    try:
        data = json.loads(schema_text(name))
    except ValueError as exc:
        raise FatalError(
            f"installation is broken: cannot read schema {name}: {exc}", exit_code=ExitCode.INTERNAL
        ) from exc
    if not isinstance(data, dict):
        raise FatalError(
            f"installation is broken: schema {name} is not an object", exit_code=ExitCode.INTERNAL
        )
    return data
