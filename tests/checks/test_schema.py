"""checks/schema.py: the schemas we ship are valid JSON Schemas (checked here, once, not
each time a package is validated: the check costs 3-17 ms per schema at start-up)."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest

from problemtools_py.resources import load_schema

SCHEMAS = sorted(
    p.name.removesuffix(".schema.json")
    for p in (Path(__file__).resolve().parents[2] / "schemas").glob("*.schema.json")
)


def test_every_schema_is_found() -> None:
    assert {"problem-legacy", "problem-2023-07", "problem-2025-09", "report"} <= set(SCHEMAS)


@pytest.mark.parametrize("name", SCHEMAS)
def test_each_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(load_schema(name))


def test_a_broken_schema_would_be_caught() -> None:
    with pytest.raises(jsonschema.SchemaError):
        jsonschema.Draft202012Validator.check_schema({"type": "no such type"})
