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


def package_file(package: str, name: str) -> tuple[str, str]:
    """The text of the data file ``name`` of ``package``, and where it is (for messages):
    read as a plain file where the package is one (importlib.resources, with the zipfile
    and typing it loads, costs ~10 ms of start-up), else through importlib.resources.
    OSError when it cannot be read."""
    import importlib.util

    spec = importlib.util.find_spec(package)
    where = list(spec.submodule_search_locations or []) if spec is not None else []
    plain = Path(where[0]) / name if where else None
    if plain is not None and plain.is_file():
        return plain.read_text(encoding="utf-8"), str(plain)
    from importlib import resources

    found = resources.files(package) / name
    return found.read_text(encoding="utf-8"), str(found)


@cache
def schema_text(name: str) -> str:
    """The text of the JSON Schema ``schemas/<name>.schema.json``."""
    return _shipped_text("problemtools_py.schemas", f"{name}.schema.json", f"schema {name}")


def template_text(name: str) -> str:
    """The text of the template ``templates/<name>``."""
    return _shipped_text("problemtools_py.templates", name, f"template {name}")


def _shipped_text(package: str, name: str, what: str) -> str:
    try:
        return package_file(package, name)[0]
    except OSError as exc:
        raise FatalError(
            f"installation is broken: cannot read {what}: {exc}", exit_code=ExitCode.INTERNAL
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
