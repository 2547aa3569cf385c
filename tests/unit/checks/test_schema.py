"""checks/schema.py: the schemas we ship are valid JSON Schemas (checked here, once, not
each time a package is validated: the check costs 3-17 ms per schema at start-up)."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest

from problemtools_py.checks.schema import key_path_text, keyed, validate
from problemtools_py.resources import load_schema
from problemtools_py.yamlfile import YamlDoc, load_yaml

SCHEMAS = sorted(
    p.name.removesuffix(".schema.json")
    for p in (Path(__file__).resolve().parents[3] / "problemtools_py" / "schemas").glob("*.schema.json")
)


def test_every_schema_is_found() -> None:
    assert {"problem-legacy", "problem-2023-07", "problem-2025-09", "report"} <= set(SCHEMAS)


@pytest.mark.parametrize("name", SCHEMAS)
def test_each_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(load_schema(name))


def test_a_broken_schema_would_be_caught() -> None:
    with pytest.raises(jsonschema.SchemaError):
        jsonschema.Draft202012Validator.check_schema({"type": "no such type"})


def _doc(tmp_path: Path, text: str) -> YamlDoc:
    path = tmp_path / "test_group.yaml"
    path.write_text(text, encoding="utf-8")
    return load_yaml(path, "data/secret/test_group.yaml")


def test_keys_that_are_not_strings_are_validated_not_a_crash(tmp_path: Path) -> None:
    # (keys of several types: JSON could not sort them for the cache key)
    doc = _doc(tmp_path, "score_aggregation: sum\n1: x\nnull: y\n2024-01-01: z\nb: [1, {a: 1}]\n")
    messages = [f.message for f in validate(doc, "test_group-2025-09", "test-group")]
    assert messages and all("unknown key" in m for m in messages)
    assert validate(doc, "test_group-2025-09", "test-group") == validate(
        doc, "test_group-2025-09", "test-group"
    )



def test_a_key_yaml_reads_as_a_number_is_named_as_a_key_at_its_line(tmp_path: Path) -> None:
    """``1:`` is a mapping's key (``limits.1``), not a list's index (``keywords[1]``), and
    its finding points at its own line, not its parent's."""
    (tmp_path / "problem.yaml").write_text("name: x\nlimits:\n  1: x\n  memory: [a]\n3: y\n")
    doc = load_yaml(tmp_path / "problem.yaml", "problem.yaml")
    found = {(f.message.split(":")[0], f.line) for f in validate(doc, "problem-2025-09", "x")}
    assert {("limits.1", 3), ("limits.memory", 4), ("3", 5)} <= found


def test_keyed_turns_only_a_lists_position_into_an_index() -> None:
    data = {"a": [{"1": 0}, {1: 0}], 2: {"b": 1}}
    assert keyed(data, ["a", 1, 1]) == ("a", 1, "1")
    assert key_path_text(keyed(data, ["a", 1, 1])) == "a[1].1"
    assert keyed(data, [2, "b"]) == ("2", "b")
    assert keyed(data, ["missing", 0, 5]) == ("missing", "0", "5")
