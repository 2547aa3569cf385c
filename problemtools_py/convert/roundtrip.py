"""YAML edited in place: comments, key order and quoting survive (ruamel.yaml's round
trip), for upgradeproblem, which rewrites files people wrote by hand. Reading for
checks stays with :mod:`problemtools_py.yamlfile` (PyYAML, faster); this module only
edits."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import yaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode
from problemtools_py.yamlfile import YamlBoundError, load_bounded


def _yaml() -> YAML:
    yaml = YAML()  # round trip
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 100
    return yaml


def load_map(text: str, where: str) -> CommentedMap:
    """A YAML document that must be a map (an empty file is an empty map), within the
    bounds every YAML read here keeps (:func:`problemtools_py.yamlfile.load_bounded`)."""
    try:
        load_bounded(text)
    except YamlBoundError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark is not None else None
        raise FatalError(
            f"YAML document refused: {exc.problem}",
            path=where,
            line=line,
            exit_code=ExitCode.FINDINGS,
        ) from None
    except yaml.YAMLError:
        pass  # (ruamel reports it below, in its own words)
    try:
        data = _yaml().load(text)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise FatalError(
            f"not valid YAML: {getattr(exc, 'problem', exc)}",
            path=where,
            line=line,
            exit_code=ExitCode.FINDINGS,
        ) from None
    if data is None:
        return CommentedMap()
    if not isinstance(data, CommentedMap):
        raise FatalError("must be a YAML map", path=where, exit_code=ExitCode.FINDINGS)
    return data


def dump(data: CommentedMap) -> str:
    out = io.StringIO()
    _yaml().dump(data, out)
    return out.getvalue()


def rename(data: CommentedMap, old: str, new: str, value: Any = None) -> None:
    """``old`` becomes ``new`` at the same place, its comments kept (``value`` replaces
    its value when given)."""
    position = list(data.keys()).index(old)
    comment = data.ca.items.pop(old, None)
    kept = data.pop(old)
    data.insert(position, new, kept if value is None else value)
    if comment is not None:
        data.ca.items[new] = comment


def put(data: CommentedMap, key: str, value: Any, after: str | None = None) -> None:
    """Set ``key``: where it is, else after ``after`` (if there), else at the end."""
    if key in data:
        data[key] = value
        return
    keys = list(data.keys())
    position = keys.index(after) + 1 if after in keys else len(keys)
    data.insert(position, key, value)


def seq(items: list[Any]) -> CommentedSeq:
    return CommentedSeq(items)


def flow_seq(items: list[Any]) -> CommentedSeq:
    """A sequence written on one line (``[a, b]``), as args usually are."""
    made = CommentedSeq(items)
    made.fa.set_flow_style()
    return made


def new_map(items: dict[str, Any] | None = None) -> CommentedMap:
    return CommentedMap(items or {})


def words(value: object) -> list[str]:
    """A YAML value read as a list of words: a list item by item, a scalar split on
    whitespace, nothing for null (legacy flags are strings, 2025-09 args lists)."""
    if isinstance(value, list):
        return [str(v) for v in value]
    return str(value).split() if value is not None else []


def child_map(data: CommentedMap, key: str, path: Path, purpose: str) -> CommentedMap:
    """``data[key]``, a map, made (empty, at the end) when it is not there; anything else
    there is an error naming ``path`` and what the map is wanted for (``purpose``)."""
    found = data.get(key)
    if found is None:
        found = CommentedMap()
        put(data, key, found)
    if not isinstance(found, CommentedMap):
        raise FatalError(
            f"{key} must be a map to {purpose}", path=path, exit_code=ExitCode.FINDINGS
        )
    return found
