"""A quick "yes" to "is this document valid under this schema?", without jsonschema.

Most YAML files of a package are valid, and importing jsonschema (with attrs, referencing
and its format checkers) costs 50-100 ms, more than all the rest of ``verifyproblem -p
config``. So a document is first checked here, against the JSON Schema keywords our
schemas use, with jsonschema's own semantics (its type checker and its equality, which
tells ``true`` from ``1``); only a document this cannot call valid goes to jsonschema,
which finds the errors and words the messages.

The answer is one-sided by design: True only when jsonschema would find no error. Where
this is unsure (a keyword it does not know, a value JSON has not, such as a YAML date, a
reference it cannot resolve) it says False and jsonschema decides. Tested against
jsonschema on every schema we ship (tests/unit/checks/test_schema_quick.py)."""

from __future__ import annotations

import math
import re
from functools import cache

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from typing import Any

    Schema = dict[str, Any] | bool

# keywords that assert nothing: annotations, and the places subschemas are kept
IGNORED = frozenset(
    {
        "$schema",
        "$id",
        "$comment",
        "$defs",
        "title",
        "description",
        "default",
        "examples",
        "then",
        "else",
    }
)
OBJECT_KEYS = frozenset(
    {
        "properties",
        "additionalProperties",
        "required",
        "propertyNames",
        "minProperties",
        "maxProperties",
    }
)
LIST_KEYS = frozenset({"items", "minItems", "maxItems", "uniqueItems"})
OTHER_KEYS = frozenset(
    {
        "type",
        "enum",
        "const",
        "$ref",
        "allOf",
        "anyOf",
        "oneOf",
        "if",
        "minLength",
        "pattern",
        "minimum",
        "maximum",
        "exclusiveMinimum",
    }
)
KNOWN = IGNORED | OBJECT_KEYS | LIST_KEYS | OTHER_KEYS
JSON_VALUES = (type(None), bool, int, float, str, list, dict)


class _Unsure(Exception):
    """This checker cannot answer for jsonschema here."""


def surely_valid(schema_name: str, data: object) -> bool:
    """True only when jsonschema (Draft 2020-12) finds ``data`` valid under the schema
    ``schemas/<schema_name>.schema.json``; False when it is not, or this cannot tell."""
    from problemtools_py.resources import load_schema

    root = load_schema(schema_name)
    return understood(schema_name) and surely_valid_under(root, data)


@cache
def understood(schema_name: str) -> bool:
    """Whether every keyword of the schema is one this checker implements."""
    from problemtools_py.resources import load_schema

    return _understood(load_schema(schema_name))


def _understood(schema: object) -> bool:
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, dict) or not set(schema) <= KNOWN:
        return False
    subschemas: list[object] = []
    for key in ("properties", "$defs"):
        subschemas.extend(schema.get(key, {}).values())
    for key in ("allOf", "anyOf", "oneOf"):
        subschemas.extend(schema.get(key, []))
    for key in ("additionalProperties", "propertyNames", "items", "if", "then", "else"):
        if key in schema:
            subschemas.append(schema[key])
    ref = schema.get("$ref")
    if ref is not None and not (isinstance(ref, str) and ref.startswith("#/")):
        return False
    return all(_understood(sub) for sub in subschemas)


def surely_valid_under(root: dict[str, Any], data: object) -> bool:
    """:func:`surely_valid` for a schema given as a document (``_understood`` by it)."""
    try:
        return _valid(data, root, root)
    except (_Unsure, RecursionError, KeyError, TypeError, ValueError, re.error):
        return False


def _valid(value: object, schema: Schema, root: dict[str, Any]) -> bool:
    if schema is True or schema is False:
        return schema
    if type(value) not in JSON_VALUES or (type(value) is float and not math.isfinite(value)):
        raise _Unsure  # (a YAML date, set, binary; NaN and infinities compare oddly)
    for key, rule in schema.items():
        if key in IGNORED:
            continue
        if key in OBJECT_KEYS:
            if isinstance(value, dict) and not _object_ok(key, rule, value, schema, root):
                return False
        elif key in LIST_KEYS:
            if isinstance(value, list) and not _list_ok(key, rule, value, root):
                return False
        elif not _other_ok(key, rule, value, schema, root):
            return False
    return True


def _object_ok(
    key: str, rule: Any, value: dict[Any, Any], schema: dict[str, Any], root: dict[str, Any]
) -> bool:
    if key == "properties":
        return all(_valid(value[k], sub, root) for k, sub in rule.items() if k in value)
    if key == "additionalProperties":
        named = schema.get("properties", {})
        extras = [k for k in value if k not in named]
        if rule is False:
            return not extras
        return all(_valid(value[k], rule, root) for k in extras)
    if key == "required":
        return all(k in value for k in rule)
    if key == "propertyNames":
        return all(_valid(k, rule, root) for k in value)
    if key == "minProperties":
        return bool(len(value) >= rule)
    return bool(len(value) <= rule)  # maxProperties


def _list_ok(key: str, rule: Any, value: list[Any], root: dict[str, Any]) -> bool:
    if key == "items":
        return all(_valid(item, rule, root) for item in value)
    if key == "minItems":
        return bool(len(value) >= rule)
    if key == "maxItems":
        return bool(len(value) <= rule)
    if not rule:  # uniqueItems: false
        return True
    # (every pair: stricter than jsonschema's sort-then-neighbours only where that one
    # misses a duplicate, and then jsonschema decides)
    return not any(_equal(a, b) for i, a in enumerate(value) for b in value[i + 1 :])


def _other_ok(
    key: str, rule: Any, value: object, schema: dict[str, Any], root: dict[str, Any]
) -> bool:
    if key == "type":
        return any(_is_type(value, name) for name in ([rule] if isinstance(rule, str) else rule))
    if key == "enum":
        return any(_equal(each, value) for each in rule)
    if key == "const":
        return _equal(value, rule)
    if key == "$ref":
        return _valid(value, _resolve(root, rule), root)
    if key in ("allOf", "anyOf", "oneOf"):
        passed = sum(1 for sub in rule if _valid(value, sub, root))
        return passed == (len(rule) if key == "allOf" else 1) or (key == "anyOf" and passed > 1)
    if key == "if":
        branch = "then" if _valid(value, rule, root) else "else"
        return branch not in schema or _valid(value, schema[branch], root)
    if isinstance(value, str):
        return (
            bool(len(value) >= rule)
            if key == "minLength"
            else (key != "pattern" or re.search(rule, value) is not None)
        )
    if not _is_type(value, "number"):
        return True  # (the numeric keywords say nothing of other values)
    assert isinstance(value, int | float)
    if key == "minimum":
        return bool(value >= rule)
    if key == "maximum":
        return bool(value <= rule)
    return key != "exclusiveMinimum" or bool(value > rule)


def _resolve(root: dict[str, Any], ref: str) -> Schema:
    """A local reference ``#/a/b`` (JSON Pointer, with its ``~0``/``~1`` escapes)."""
    if not ref.startswith("#/"):
        raise _Unsure
    node: Any = root
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    if not isinstance(node, dict | bool):
        raise _Unsure
    return node


def _is_type(value: object, name: str) -> bool:
    """jsonschema's Draft 2020-12 type checker (a bool is no number; 2.0 is an integer)."""
    if name == "integer":
        return (type(value) is int) or (type(value) is float and value.is_integer())
    if name == "number":
        return type(value) in (int, float)
    kinds = {"string": str, "object": dict, "array": list, "boolean": bool, "null": type(None)}
    if name not in kinds:
        raise _Unsure
    return type(value) is kinds[name]


def _equal(one: object, two: object) -> bool:
    """jsonschema's equality: structural, and ``true`` is not ``1`` at any depth."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, list) and isinstance(two, list):
        return len(one) == len(two) and all(_equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, dict) and isinstance(two, dict):
        return len(one) == len(two) and all(k in two and _equal(v, two[k]) for k, v in one.items())
    if isinstance(one, bool) or isinstance(two, bool):
        return False  # (``one is two`` was not)
    return one == two
