"""Validate a YAML document against one of our JSON Schemas, with lines for every message."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from functools import cache

from problemtools_py.atomicfile import write_bytes
from problemtools_py.cachedir import cache_root
from problemtools_py.checks.schema_quick import surely_valid
from problemtools_py.findings import Finding, error, warning
from problemtools_py.hints import closest
from problemtools_py.resources import load_schema, schema_text
from problemtools_py.yamlfile import KeyPath, YamlDoc

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from typing import Any

SCHEMA_CACHE_VERSION = 4  # (4: a mapping key that YAML reads as a number is a key)


@cache
def _validator(name: str) -> Any:
    import jsonschema  # (here: a cached result needs none of it)

    # (the schemas are ours: tests/unit/checks/test_schema.py checks each is a valid schema)
    return jsonschema.Draft202012Validator(load_schema(name))


def keyed(data: object, raw: Sequence[object]) -> KeyPath:
    """A path into ``data`` as jsonschema gives it (a mapping's key as the YAML read it,
    ``1:`` an int) in our form: every key a string (as the lines are recorded), only a
    list's index an int, so ``1:`` under ``limits`` reads ``limits.1``, at its line."""
    path: list[str | int] = []
    for part in raw:
        if isinstance(data, list) and isinstance(part, int):
            path.append(part)
            data = data[part] if 0 <= part < len(data) else None
        else:
            path.append(str(part))
            data = data.get(part) if isinstance(data, dict) else None
    return tuple(path)


def key_path_text(path: KeyPath) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def _reasons(err: Any) -> list[str]:
    """Each branch's own complaint about the value of a oneOf/anyOf error (flattened)."""
    reasons: list[str] = []
    for sub in err.context:
        if sub.relative_path:
            continue
        found = (
            _reasons(sub) if sub.validator in ("oneOf", "anyOf") and sub.context else [sub.message]
        )
        reasons.extend(r for r in found if r not in reasons)
    return reasons


def _describe(err: Any) -> tuple[KeyPath, str]:
    """The most useful path and message for one validation error. For oneOf/anyOf: the
    deepest branch error when one branch got further into the value, else every branch's
    own complaint, joined with "or"."""
    path: KeyPath = tuple(err.absolute_path)
    if "propertyNames" in err.absolute_schema_path:
        path = (*path, str(err.instance))
    if err.validator in ("oneOf", "anyOf") and err.context:
        deepest = max(err.context, key=lambda e: len(e.absolute_path))
        if len(deepest.absolute_path) > len(err.absolute_path):
            return _describe(deepest)
        return path, f"{_short(err.instance)} is not valid: " + "; or ".join(_reasons(err))
    return path, err.message


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _unknown_key_findings(
    doc: YamlDoc, err: Any, check: str, renamed: Mapping[KeyPath, str]
) -> Iterator[Finding]:
    known = list(err.schema.get("properties", {}))
    for key in err.instance:
        if key in known:
            continue
        path = keyed(doc.data, (*err.absolute_path, key))
        if path in renamed:
            text = f"{key_path_text(path)}: a legacy key, ignored; now {renamed[path]}"
            yield warning(check, text, doc.rel, doc.line_of(path))
            continue
        hint = closest(str(key), known)
        more = f" (did you mean '{hint}'?)" if hint else ""
        yield error(check, f"{key_path_text(path)}: unknown key{more}", doc.rel, doc.line_of(path))


def validate(
    doc: YamlDoc, schema: str, check: str, renamed: Mapping[KeyPath, str] | None = None
) -> list[Finding]:
    """Findings for every way ``doc.data`` breaks ``schema``; a key of ``renamed`` (its
    path -> its successor) is a warning, not an unknown key. Results are kept by content
    (the document with its lines, the schema, the options), so an unchanged file is not
    validated again, and jsonschema is not even imported (the pre-commit hook's start);
    nor is it for a document :func:`surely_valid` calls valid (jsonschema words errors)."""
    key = _key(doc, schema, check, renamed)
    cached = _cached(key)
    if cached is not None:
        return cached
    data = doc.data if doc.data is not None else {}
    findings = [] if surely_valid(schema, data) else _validate(doc, schema, check, renamed)
    told = {f.line for f in findings}
    findings += [f for f in _not_finite(doc, data, (), check) if f.line not in told]
    _store(key, findings)
    return findings


def _not_finite(doc: YamlDoc, data: object, path: KeyPath, check: str) -> Iterator[Finding]:
    """YAML's .nan and .inf where a number belongs: JSON has neither, so no schema bound
    rejects them (NaN compares false with every bound) and the model reads the default."""
    if isinstance(data, float) and not abs(data) < float("inf"):
        text = f"{key_path_text(path)}: {data} is not a finite number"
        yield error(check, text, doc.rel, doc.line_of(path))
    elif isinstance(data, dict):
        for k, v in data.items():
            yield from _not_finite(doc, v, (*path, str(k)), check)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _not_finite(doc, v, (*path, i), check)


def _key(doc: YamlDoc, schema: str, check: str, renamed: Mapping[KeyPath, str] | None) -> str:
    # (repr, not JSON: YAML keys may be numbers, null or dates beside strings, which JSON
    # can neither sort nor tell from the strings they print as; 1 and '1' differ here)
    text = repr(
        [
            SCHEMA_CACHE_VERSION,
            schema,
            schema_text(schema),
            check,
            list((renamed or {}).items()),
            doc.rel,
            doc.data,
            list(doc.lines.items()),
        ]
    )
    try:  # (hashlib's blake2b without hashlib, which loads OpenSSL: ~3 ms of -p config)
        from _blake2 import blake2b
    except ImportError:  # (a Python built without it)
        from hashlib import blake2b
    return blake2b(text.encode(), digest_size=32).hexdigest()


def _cached(key: str) -> list[Finding] | None:
    try:
        raw = json.loads((cache_root() / "schema" / f"{key}.json").read_text(encoding="utf-8"))
        return [Finding.from_json(item) for item in raw]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _store(key: str, findings: list[Finding]) -> None:
    folder = cache_root() / "schema"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_bytes(folder / f"{key}.json", json.dumps([f.to_json() for f in findings]).encode())
    except OSError:
        pass  # a cache that cannot be written is only slower


def _validate(
    doc: YamlDoc, schema: str, check: str, renamed: Mapping[KeyPath, str] | None
) -> list[Finding]:
    data = doc.data if doc.data is not None else {}
    findings: list[Finding] = []
    for err in sorted(_validator(schema).iter_errors(data), key=lambda e: list(map(str, e.path))):
        if (
            err.validator == "additionalProperties"
            and err.schema.get("additionalProperties") is False
        ):
            findings.extend(_unknown_key_findings(doc, err, check, renamed or {}))
            continue
        raw, message = _describe(err)
        path = keyed(data, raw)
        findings.append(
            error(check, f"{key_path_text(path)}: {message}", doc.rel, doc.line_of(path))
        )
    return findings


def unknown_keys_warnings(doc: YamlDoc, schema_name: str, check: str) -> list[Finding]:
    """Warnings for keys the (open) schema does not describe, recursively through objects
    whose schema lists its properties. Used where unknown keys are to be ignored."""
    found: list[Finding] = []

    def walk(data: object, schema: dict[str, Any], path: KeyPath) -> None:
        props = schema.get("properties")
        if not isinstance(data, dict) or props is None or "additionalProperties" in schema:
            return
        for key, value in data.items():
            if key in props:
                walk(value, props[key], (*path, key))
                continue
            hint = closest(str(key), list(props))
            more = f" (did you mean '{hint}'?)" if hint else ""
            at = (*path, str(key))
            text = f"{key_path_text(at)}: unknown key, ignored{more}"
            found.append(warning(check, text, doc.rel, doc.line_of(at)))

    walk(doc.data, load_schema(schema_name), ())
    return found
