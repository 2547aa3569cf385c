"""YAML documents that remember where every key came from.

PyYAML node marks are kept as a map from key path (a tuple of keys and list indices)
to a 1-based line number, so a message about ``limits.memory`` can name its line.
Timestamps stay strings (the schemas check their form) and duplicate keys are
reported rather than silently overwritten."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from typing import Any

KeyPath = tuple[str | int, ...]


class _Loader(yaml.SafeLoader):
    """SafeLoader that leaves timestamps as the strings the author wrote."""


def _timestamp_as_written(loader: yaml.SafeLoader, node: yaml.Node) -> str:
    if not isinstance(node, yaml.ScalarNode):
        raise yaml.constructor.ConstructorError(
            None, None, "a timestamp is a scalar", node.start_mark
        )
    return str(loader.construct_scalar(node))


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp_as_written)


@dataclass(frozen=True)
class YamlProblem:
    """A problem found while reading a YAML file (syntax error or duplicate key)."""

    message: str
    line: int | None


@dataclass(frozen=True)
class YamlDoc:
    """A parsed YAML file: its data (None when absent, empty or broken) and key lines."""

    path: Path
    rel: str
    exists: bool
    data: Any = None
    lines: dict[KeyPath, int] = field(default_factory=dict)
    syntax_error: YamlProblem | None = None
    duplicates: tuple[YamlProblem, ...] = ()

    @property
    def unreadable(self) -> bool:
        """There, but not a mapping of keys to values (a syntax error, another kind of top
        level): nothing it sets is known."""
        return self.exists and (
            self.syntax_error is not None or not isinstance(self.data, dict | None)
        )

    def line_of(self, key_path: KeyPath) -> int | None:
        """Line of the longest prefix of ``key_path`` that has a recorded mark."""
        for end in range(len(key_path), -1, -1):
            line = self.lines.get(tuple(key_path[:end]))
            if line is not None:
                return line
        return None


def _walk(
    node: yaml.Node, path: KeyPath, lines: dict[KeyPath, int], dups: list[YamlProblem]
) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = str(key_node.value)
            if key in seen:
                dups.append(YamlProblem(f"duplicate key '{key}'", key_node.start_mark.line + 1))
            seen.add(key)
            lines[(*path, key)] = key_node.start_mark.line + 1
            _walk(value_node, (*path, key), lines, dups)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*path, index), lines, dups)


def parse_yaml(text: str, path: Path, rel: str) -> YamlDoc:
    """Parse ``text``; never raises for bad YAML, records the problem instead."""
    try:
        loader = _Loader(text)
    except yaml.YAMLError as exc:  # e.g. a control character the reader refuses
        return YamlDoc(path, rel, True, None, syntax_error=_problem(exc, text))
    try:
        node = loader.get_single_node()
        if node is None:
            return YamlDoc(path, rel, True, None)
        lines: dict[KeyPath, int] = {}
        dups: list[YamlProblem] = []
        _walk(node, (), lines, dups)
        data = loader.construct_document(node)
    except yaml.YAMLError as exc:
        return YamlDoc(path, rel, True, None, syntax_error=_problem(exc, text))
    finally:
        loader.dispose()
    return YamlDoc(path, rel, True, data, lines, duplicates=tuple(dups))


def _problem(exc: yaml.YAMLError, text: str) -> YamlProblem:
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        reason = exc.problem or exc.context or "invalid YAML"
        return YamlProblem(f"YAML syntax error: {reason}", line)
    if isinstance(exc, yaml.reader.ReaderError):
        line = text[: exc.position].count("\n") + 1
        return YamlProblem(f"YAML syntax error: {exc.reason} (character {exc.character!r})", line)
    return YamlProblem(f"YAML syntax error: {exc}", None)


def load_yaml(path: Path, rel: str) -> YamlDoc:
    """Read and parse a YAML file. Missing file: ``exists=False``. Bad bytes: a problem."""
    if not path.is_file():
        return YamlDoc(path, rel, False)
    raw = path.read_bytes()
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return YamlDoc(path, rel, True, None, syntax_error=YamlProblem("not valid UTF-8", line))
    return parse_yaml(text, path, rel)
