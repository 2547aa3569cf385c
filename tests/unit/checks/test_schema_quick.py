"""checks/schema_quick.py: its "valid" is jsonschema's, keyword by keyword and on documents
drawn from every schema we ship; where it cannot tell it says no (jsonschema decides)."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from helpers.packages import SAMPLES
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from problemtools_py.checks.schema_quick import surely_valid, surely_valid_under, understood
from problemtools_py.resources import load_schema

SCHEMAS = sorted(
    p.name.removesuffix(".schema.json")
    for p in (Path(__file__).resolve().parents[3] / "problemtools_py" / "schemas").glob("*.schema.json")
)

# (schema, document, valid): each keyword where jsonschema's semantics are easy to miss
CASES: list[tuple[dict[str, Any], object, bool]] = [
    ({"type": "integer"}, 2, True),
    ({"type": "integer"}, 2.0, True),  # (an integral float is an integer)
    ({"type": "integer"}, 2.5, False),
    ({"type": "integer"}, True, False),  # (a bool is no number)
    ({"type": "number"}, False, False),
    ({"type": ["string", "null"]}, None, True),
    ({"type": "object"}, [], False),
    ({"enum": [1, "a"]}, True, False),  # (true is not 1)
    ({"enum": [1, "a"]}, 1.0, True),
    ({"const": [1, {"a": False}]}, [1, {"a": 0}], False),
    ({"const": {"a": [1]}}, {"a": [1.0]}, True),
    ({"uniqueItems": True}, [1, True], True),
    ({"uniqueItems": True}, [1, 1.0], False),
    ({"uniqueItems": True}, [{"a": 1}, {"a": 1}], False),
    ({"uniqueItems": False}, [1, 1], True),
    ({"minItems": 2, "maxItems": 3}, [1], False),
    ({"minItems": 2, "maxItems": 3}, "ab", True),  # (array keywords ignore strings)
    ({"items": {"type": "string"}}, ["a", 1], False),
    ({"minLength": 2}, "é", False),
    ({"minLength": 2}, 5, True),
    ({"pattern": "b"}, "abc", True),  # (a search, not a match)
    ({"pattern": "^b"}, "abc", False),
    ({"minimum": 0}, True, True),  # (numeric keywords ignore bools)
    ({"minimum": 0}, -1, False),
    ({"maximum": 1.5}, 2, False),
    ({"exclusiveMinimum": 0}, 0, False),
    ({"exclusiveMinimum": 0}, 0.001, True),
    ({"properties": {"a": {"type": "string"}}}, {"a": 1}, False),
    ({"properties": {"a": {"type": "string"}}, "additionalProperties": False}, {"b": 1}, False),
    ({"properties": {"a": True}, "additionalProperties": {"type": "integer"}}, {"b": 1}, True),
    ({"required": ["a"]}, {"b": 1}, False),
    ({"required": ["a"]}, [], True),
    ({"propertyNames": {"type": "string"}}, {1: 1}, False),
    ({"propertyNames": {"pattern": "^x"}}, {1: 1}, True),
    ({"minProperties": 1}, {}, False),
    ({"maxProperties": 1}, {"a": 1, "b": 2}, False),
    ({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, 1, False),  # (both branches pass)
    ({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, -1, True),
    ({"anyOf": [{"type": "integer"}, {"minimum": 0}]}, "x", True),
    ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, "x", False),
    ({"allOf": [{"type": "integer"}, {"minimum": 0}]}, -1, False),
    ({"if": {"type": "string"}, "then": {"minLength": 2}, "else": {"type": "null"}}, "a", False),
    ({"if": {"type": "string"}, "then": {"minLength": 2}, "else": {"type": "null"}}, None, True),
    ({"if": {"type": "string"}, "then": {"minLength": 2}}, 5, True),
    ({"$defs": {"p": {"minimum": 1}}, "$ref": "#/$defs/p", "type": "integer"}, 0, False),
    ({"$defs": {"p": {"minimum": 1}}, "$ref": "#/$defs/p", "type": "integer"}, 1.5, False),
    ({"$defs": {"a/b": {"type": "null"}}, "$ref": "#/$defs/a~1b"}, None, True),
    ({"properties": {"a": False}}, {"a": 1}, False),
]


@pytest.mark.parametrize(("schema", "document", "valid"), CASES)
def test_each_keyword_as_jsonschema_reads_it(
    schema: dict[str, Any], document: object, valid: bool
) -> None:
    assert jsonschema.Draft202012Validator(schema).is_valid(document) is valid  # (the case)
    assert surely_valid_under(schema, document) is valid


@pytest.mark.parametrize(
    ("schema", "document"),
    [
        ({"type": "string"}, datetime.date(2025, 9, 1)),  # YAML's dates: not JSON
        ({"properties": {"when": {}}}, {"when": datetime.date(2025, 9, 1)}),
        ({"propertyNames": {}}, {datetime.date(2025, 9, 1): 1}),
        ({"minimum": 0}, float("nan")),
        ({"$ref": "https://example.invalid/elsewhere"}, 1),
        ({"$ref": "#/$defs/missing"}, 1),
    ],
)
def test_what_it_cannot_tell_goes_to_jsonschema(schema: dict[str, Any], document: object) -> None:
    assert surely_valid_under(schema, document) is False


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_schema_we_ship_is_understood(name: str) -> None:
    assert understood(name)  # (else every document would go to jsonschema: slow, not wrong)


def test_an_unknown_keyword_is_not_understood() -> None:
    from problemtools_py.checks.schema_quick import _understood

    assert _understood({"properties": {"a": {"type": "string"}}})
    assert not _understood({"properties": {"a": {"format": "email"}}})
    assert not _understood({"$ref": "other.json#/x"})
    assert not _understood({"prefixItems": [True]})


@pytest.mark.parametrize(
    ("name", "rel"),
    [
        ("problem-legacy", "hello/problem.yaml"),
        ("problem-legacy", "bigsum/problem.yaml"),
        ("problem-2023-07", "different/problem.yaml"),
        ("problem-2025-09", "subtasks/problem.yaml"),
        ("test_group-2025-09", "subtasks/data/secret/test_group.yaml"),
        ("submissions-2025-09", "subtasks/submissions/submissions.yaml"),
        ("generators", "gensum/generators/generators.yaml"),
    ],
)
def test_the_samples_take_the_quick_path(name: str, rel: str) -> None:
    document = yaml.safe_load((SAMPLES / rel).read_text(encoding="utf-8"))
    assert jsonschema.Draft202012Validator(load_schema(name)).is_valid(document)
    assert surely_valid(name, document)


JSON_LEAF = st.none() | st.booleans() | st.integers(-3, 10) | st.sampled_from([0.0, 2.0, 1.5]) | (
    st.text(alphabet="ab-_.1 ", max_size=4))
ANY_JSON = st.recursive(
    JSON_LEAF,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text("abc", max_size=2), inner,
                                                                max_size=3),
    max_leaves=6,
)


def _drawn(
    schema: object, root: dict[str, Any], depth: int, noise: bool = True
) -> st.SearchStrategy[object]:
    """Documents near the schema (its branches, enums, patterns, types, bounds and
    properties), with ``noise`` one value in eight of any kind, so both sides of each
    keyword are drawn."""
    if not isinstance(schema, dict) or depth > 6:
        return ANY_JSON
    near = _near(schema, root, depth, noise)
    if not near:
        return ANY_JSON
    if not noise:
        return st.one_of(near)
    return st.integers(0, 7).flatmap(lambda i: ANY_JSON if i == 0 else st.one_of(near))


def _near(
    schema: dict[str, Any], root: dict[str, Any], depth: int, noise: bool
) -> list[st.SearchStrategy[Any]]:
    options: list[st.SearchStrategy[Any]] = []
    if "$ref" in schema:
        target = root
        for part in schema["$ref"][2:].split("/"):
            target = target[part]
        options.append(st.deferred(lambda: _drawn(target, root, depth + 1, noise)))
    options += [st.sampled_from(schema["enum"])] if "enum" in schema else []
    options += [st.just(schema["const"])] if "const" in schema else []
    for key in ("oneOf", "anyOf", "allOf"):
        options += [_drawn(sub, root, depth + 1, noise) for sub in schema.get(key, [])]
    for key in ("then", "else"):
        options += [_drawn(schema[key], root, depth + 1, noise)] if key in schema else []
    if "properties" in schema or "required" in schema:
        options += _objects(schema, root, depth, noise)
    types = schema.get("type", [])
    for name in [types] if isinstance(types, str) else types:
        options += [_of_type(name, schema, root, depth, noise)]
    if "pattern" in schema:
        options.append(st.from_regex(schema["pattern"], fullmatch=True))
    return options


def _objects(schema: dict[str, Any], root: dict[str, Any], depth: int, noise: bool) -> list[Any]:
    fields = {k: _drawn(v, root, depth + 1, noise) for k, v in schema.get("properties", {}).items()}
    fields |= {k: ANY_JSON for k in schema.get("required", []) if k not in fields}
    need = {k: fields[k] for k in schema.get("required", [])}
    rest = {k: v for k, v in fields.items() if k not in need}
    with_need = st.fixed_dictionaries(need, optional=rest)
    if not noise:
        return [with_need]
    return [with_need, st.fixed_dictionaries({}, optional=fields | {"zz": ANY_JSON})]


def _of_type(
    name: str, schema: dict[str, Any], root: dict[str, Any], depth: int, noise: bool
) -> Any:
    off = int(noise)  # (with noise, from one below each bound to one above)
    low = schema.get("minimum", schema.get("exclusiveMinimum", -3))
    high = schema.get("maximum", low + 5)
    if name == "integer":
        return st.integers(int(low) + 1 - off, int(high) + off) | st.just(float(int(low) + 1))
    if name == "number":
        return st.floats(low + 1 - off, high + off) | st.integers(int(low) + 1 - off, int(high) + off)
    if name == "string" and "pattern" in schema and not noise:
        return st.from_regex(schema["pattern"], fullmatch=True)
    if name == "string":
        return st.text(alphabet="ab-_.1 /", min_size=max(0, schema.get("minLength", 0) - off),
                       max_size=5)
    if name == "array":
        item = _drawn(schema.get("items", True), root, depth + 1, noise)
        low_n = max(0, schema.get("minItems", 0) - off)
        return st.lists(item, min_size=low_n, max_size=max(low_n, schema.get("maxItems", 3)) + 1)
    if name == "object" and not noise and ("properties" in schema or "required" in schema):
        return st.nothing()  # (_objects draws these)
    if name == "object":
        extra = schema.get("additionalProperties", True)
        keys = _drawn(schema["propertyNames"], root, depth + 1, noise).filter(
            lambda k: isinstance(k, str)) if "propertyNames" in schema else st.text("abc", max_size=3)
        least = max(0, schema.get("minProperties", 0) - off)
        return st.dictionaries(keys, _drawn(extra, root, depth + 1, noise), min_size=least,
                               max_size=least + 2)
    return {"boolean": st.booleans(), "null": st.none()}[name]


@pytest.mark.parametrize("name", SCHEMAS)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_documents_drawn_from_each_schema_get_jsonschemas_answer(name: str, data: Any) -> None:
    root = load_schema(name)
    document = data.draw(_drawn(root, root, 0, data.draw(st.booleans())))
    expected = jsonschema.Draft202012Validator(root).is_valid(document)
    event("valid" if expected else "invalid")
    assert surely_valid(name, document) is expected
