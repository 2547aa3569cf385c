"""YAML documents that remember where every key came from.

PyYAML node marks are kept as a map from key path (a tuple of keys and list indices)
to a 1-based line number, so a message about ``limits.memory`` can name its line.
Timestamps stay strings (the schemas check their form) and duplicate keys are
reported rather than silently overwritten.

Every load is bounded (issue 40): a document of more than ``MAX_DOCUMENT_BYTES``, one
whose aliases would add more than ``MAX_ALIAS_NODES`` nodes to what is written (the
"billion laughs"), an alias inside its own anchor (a cycle) and nesting deeper than the
parser's stack are each a syntax error with a line, found in time linear in the text;
the line-number walk visits each node once, however many aliases share it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from typing import Any

KeyPath = tuple[str | int, ...]

MAX_DOCUMENT_BYTES = 16 * 1024 * 1024
MAX_ALIAS_NODES = 100_000
_TOO_LARGE = f"larger than {MAX_DOCUMENT_BYTES // 2**20} MiB"


class YamlBoundError(yaml.MarkedYAMLError):
    """A document past one of the bounds above (a ``YAMLError``, so every reader that
    reports bad YAML reports this the same way)."""

    def __init__(self, problem: str, node: yaml.Node | None = None) -> None:
        super().__init__(problem=problem, problem_mark=node.start_mark if node else None)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def check_bounds(root: yaml.Node) -> None:
    """Raise :class:`YamlBoundError` when aliases make ``root`` cyclic or expand it past
    ``MAX_ALIAS_NODES``: one depth-first pass, each node's expanded size counted once."""
    size: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            open_nodes.discard(key)
            size[key] = 1 + sum(size[id(child)] for child in _children(node))
        elif key in open_nodes:
            raise YamlBoundError("an alias refers to a node that contains it (a cycle)", node)
        elif key not in size:
            open_nodes.add(key)
            stack.append((node, True))
            stack.extend((child, False) for child in _children(node))
    added = size[id(root)] - len(size)
    if added > MAX_ALIAS_NODES:
        raise YamlBoundError(
            f"aliases expand this document by {added:,} nodes (at most"
            f" {MAX_ALIAS_NODES:,} are allowed: is it a 'billion laughs' document?)"
        )


def compose_bounded(loader: Any) -> yaml.Node | None:
    """The single document ``loader`` holds, composed and checked against the bounds
    (deep nesting exhausts the composer's stack: that is a bound too)."""
    try:
        node: yaml.Node | None = loader.get_single_node()
    except RecursionError:
        raise YamlBoundError("nested too deeply to read") from None
    if node is not None:
        check_bounds(node)
    return node


def load_bounded(text: str, loader_class: Any = None) -> Any:
    """``yaml.safe_load`` under the bounds (``loader_class`` a SafeLoader, C or Python)."""
    if len(text) > MAX_DOCUMENT_BYTES:
        raise YamlBoundError(_TOO_LARGE)
    loader = (loader_class or yaml.SafeLoader)(text)
    try:
        node = compose_bounded(loader)
        return None if node is None else loader.construct_document(node)
    except RecursionError:
        raise YamlBoundError("nested too deeply to read") from None
    finally:
        loader.dispose()


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
    node: yaml.Node,
    path: KeyPath,
    found: tuple[dict[KeyPath, int], list[YamlProblem], set[int]],
) -> None:
    lines, dups, seen_nodes = found
    lines.setdefault(path, node.start_mark.line + 1)
    if id(node) in seen_nodes:  # an alias: its keys are the anchor's, walked once
        return
    seen_nodes.add(id(node))
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = str(key_node.value)
            if key in seen:
                dups.append(YamlProblem(f"duplicate key '{key}'", key_node.start_mark.line + 1))
            seen.add(key)
            lines[(*path, key)] = key_node.start_mark.line + 1
            _walk(value_node, (*path, key), found)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*path, index), found)


def parse_yaml(text: str, path: Path, rel: str) -> YamlDoc:
    """Parse ``text``; never raises for bad YAML, records the problem instead."""
    try:
        if len(text) > MAX_DOCUMENT_BYTES:
            raise YamlBoundError(_TOO_LARGE)
        loader = _Loader(text)
    except yaml.YAMLError as exc:  # e.g. a control character the reader refuses
        return YamlDoc(path, rel, True, None, syntax_error=_problem(exc, text))
    try:
        node = compose_bounded(loader)
        if node is None:
            return YamlDoc(path, rel, True, None)
        lines: dict[KeyPath, int] = {}
        dups: list[YamlProblem] = []
        _walk(node, (), (lines, dups, set()))
        data = loader.construct_document(node)
    except RecursionError:
        problem = YamlProblem("YAML document refused: nested too deeply to read", None)
        return YamlDoc(path, rel, True, None, syntax_error=problem)
    except yaml.YAMLError as exc:
        return YamlDoc(path, rel, True, None, syntax_error=_problem(exc, text))
    finally:
        loader.dispose()
    return YamlDoc(path, rel, True, data, lines, duplicates=tuple(dups))


def _problem(exc: yaml.YAMLError, text: str) -> YamlProblem:
    if isinstance(exc, YamlBoundError):
        mark = exc.problem_mark
        line = mark.line + 1 if mark is not None else None
        return YamlProblem(f"YAML document refused: {exc.problem}", line)
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
    with path.open("rb") as handle:
        raw = handle.read(MAX_DOCUMENT_BYTES + 1)
    if len(raw) > MAX_DOCUMENT_BYTES:
        problem = YamlProblem(
            f"YAML document refused: larger than {MAX_DOCUMENT_BYTES // 2**20} MiB", None
        )
        return YamlDoc(path, rel, True, None, syntax_error=problem)
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return YamlDoc(path, rel, True, None, syntax_error=YamlProblem("not valid UTF-8", line))
    return parse_yaml(text, path, rel)
