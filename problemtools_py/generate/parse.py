"""generators.yaml -> :class:`Plan`: names (numbered lists, counts), seeds, sources, the
solution and salt in scope, includes. Every problem is a :class:`PlanError` with its line;
nothing here raises for bad input."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import yaml

from problemtools_py.generate.plan import (
    CASE_EXTENSIONS,
    LINKABLE,
    ROOT_DIRECTORIES,
    CaseRule,
    DirRule,
    Plan,
    PlanError,
    count_values,
    is_directory,
    numbered_cases,
    numbers,
    parse_command,
)
from problemtools_py.generate.yamltext import block_text
from problemtools_py.model.constants import substitute
from problemtools_py.model.groups import words
from problemtools_py.model.testdata import SAMPLE_ONLY, GroupKind, is_sample, sample_only_here
from problemtools_py.yamlfile import KeyPath, YamlDoc

CASE_NAME = re.compile(r"^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$")


@dataclass(frozen=True)
class Scope:
    """What a directory or test case inherits: the solution, salt and retries."""

    solution: str | None = None
    solution_given: bool = False
    salt: str = ""
    retries: int = 1


class _Parser:
    def __init__(self, doc: YamlDoc, constants: dict[str, str], interactive: bool) -> None:
        self.doc, self.constants, self.interactive = doc, constants, interactive
        try:
            self.text = doc.path.read_text(encoding="utf-8") if doc.exists else ""
        except (OSError, UnicodeDecodeError):
            self.text = ""
        self.cases: list[CaseRule] = []
        self.dirs: list[DirRule] = []
        self.errors: list[PlanError] = []
        self.warnings: list[PlanError] = []
        self.keys: dict[str, list[str]] = {}  # a yaml key -> the paths it named
        self.next_case = itertools.count(1)
        self.total = 0

    def error(self, message: str, at: KeyPath) -> None:
        self.errors.append(PlanError(message, self.doc.line_of(at)))

    def warn(self, message: str, at: KeyPath) -> None:
        self.warnings.append(PlanError(message, self.doc.line_of(at)))

    def scope(self, node: dict[str, Any], at: KeyPath, outer: Scope) -> Scope:
        scope = outer
        if "solution" in node:
            value = node["solution"]
            if value is not None and not (isinstance(value, str) and value.startswith("/")):
                self.error(
                    "solution must be a path from the package root, like "
                    "/submissions/accepted/x.py (or empty for none)",
                    (*at, "solution"),
                )
            else:
                scope = replace(scope, solution=value, solution_given=True)
        if "random_salt" in node:
            scope = replace(scope, salt=str(node["random_salt"]))
        if "retries" in node:
            value = node["retries"]
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                scope = replace(scope, retries=value)
            else:
                self.error("retries must be a positive number", (*at, "retries"))
        return scope

    def directory(self, node: dict[str, Any], path: str, at: KeyPath, outer: Scope) -> None:
        scope = self.scope(node, at, outer)
        group = node.get("test_group.yaml")
        text = None
        if group is not None and not isinstance(group, dict):
            self.error("test_group.yaml must be a mapping", (*at, "test_group.yaml"))
        elif group is not None:
            text = self.block((*at, "test_group.yaml")) or yaml.safe_dump(
                group, sort_keys=False, allow_unicode=True
            )
        args = group.get("output_validator_args") if isinstance(group, dict) else None
        given = None if args is None else tuple(words(args))  # (as the model reads them)
        rule = DirRule(path, self.doc.line_of(at), text, self.includes(node, at), given)
        self.dirs.append(rule)
        data = node.get("data")
        if data is None:
            return
        numbered = isinstance(data, list)
        if not numbered and not isinstance(data, dict):
            self.error("data must be a mapping, or a list of one-entry mappings", (*at, "data"))
            return
        if numbered and not path:
            self.error("the root's data may not be a numbered list", (*at, "data"))
            return
        entries = data if numbered else [data]
        groups = sum(
            1 for e in entries if isinstance(e, dict) for v in e.values() if is_directory(v)
        )
        group_numbers = itertools.count(1)
        for index, entry in enumerate(entries):
            where = (*at, "data", index) if numbered else (*at, "data")
            if not isinstance(entry, dict) or (numbered and len(entry) != 1):
                self.error("each item of a numbered data list is a mapping with one entry", where)
                continue
            for key in self.ordered(entry, path, where):
                self.child(
                    entry[key],
                    key,
                    path,
                    (*where, str(key)),
                    scope,
                    numbered,
                    (group_numbers, groups),
                )

    def ordered(self, entry: dict[Any, Any], path: str, at: KeyPath) -> list[Any]:
        if path:
            return sorted(entry, key=lambda k: "" if k is None else str(k))
        for key in entry:
            if key not in ROOT_DIRECTORIES:
                self.warn(
                    f"'{key}' is not a directory of data/ that is generated; ignored",
                    (*at, str(key)),
                )
        return [k for k in ROOT_DIRECTORIES if k in entry]

    def child(
        self,
        node: object,
        key: Any,
        path: str,
        at: KeyPath,
        scope: Scope,
        numbered: bool,
        groups: tuple[Iterator[int], int],
    ) -> None:
        name = "" if key is None else str(key)
        if numbered:
            names = (
                numbers(name, *groups)
                if is_directory(node)
                else numbers(name, self.next_case, self.total)
            )
        elif not name:
            self.error("an unnumbered test case or group needs a name", at)
            return
        else:
            names = itertools.repeat(name)
        if is_directory(node):
            assert isinstance(node, dict)
            full = f"{path}/{next(names)}" if path else next(names)
            self.keys.setdefault(name, []).append(full)
            self.directory(node, full, at, scope)
        else:
            self.case(node, name, names, path, at, scope)

    def includes(self, node: dict[str, Any], at: KeyPath) -> tuple[str, ...]:
        found: list[str] = []
        raw = node.get("include") or []
        for index, key in enumerate(raw if isinstance(raw, list) else [raw]):
            named = self.keys.get(str(key), [])
            if not isinstance(key, str) or "/" in key or len(named) != 1:
                why = "is no earlier test case or group" if not named else "is ambiguous"
                self.error(f"include '{key}' {why}", (*at, "include", index))
                continue
            prefix = named[0] + "/"
            found += [c.path for c in self.cases if c.path == named[0] or c.path.startswith(prefix)]
        return tuple(found)

    def case(
        self, node: object, key: str, names: Iterator[str], path: str, at: KeyPath, outer: Scope
    ) -> None:
        if node is None:
            self.error("an empty entry: say how to make the test case", at)
            return
        text = str(node)
        spec: dict[str, Any] = (
            node
            if isinstance(node, dict)
            else {"copy": text[:-3]}
            if text.endswith(".in")
            else {"generate": text}
        )
        try:
            values = count_values(spec)
        except ValueError as exc:
            self.error(str(exc), (*at, "count"))
            return
        consecutive = max(values) - min(values) == len(values) - 1
        pad = max(len(str(v)) for v in values) if consecutive else 0
        scope = self.scope(spec, at, outer)
        for value in values:
            name = next(names) + (f"-{value:0{pad}}" if "count" in spec else "")
            full = f"{path}/{name}" if path else name
            rule = self.rule(spec, full, value, at, scope)
            if rule is not None:
                self.keys.setdefault(key, []).append(full)
                self.cases.append(rule)

    def rule(
        self, spec: dict[str, Any], full: str, value: int, at: KeyPath, scope: Scope
    ) -> CaseRule | None:
        name = full.rsplit("/", 1)[-1]
        if not CASE_NAME.match(name) or name == "test_group":
            self.error(f"'{name}' is no valid test case name", at)
            return None
        command = None
        if spec.get("generate") is not None:
            text = self.substitute(str(spec["generate"]), spec, value, at)
            try:
                command = parse_command(text, scope.salt, value)
            except ValueError as exc:
                self.error(f"generate: {exc}", (*at, "generate"))
                return None
        inline, links = self.files(spec, full, at)
        copy = spec.get("copy")
        if copy is not None and (not isinstance(copy, str) or copy.startswith("/") or ".." in copy):
            self.error("copy must be a path below generators/, without extension", (*at, "copy"))
            return None
        if (
            command is None
            and copy is None
            and ".in" not in inline
            and not self.shown(inline, links, full)
        ):
            self.error("nothing makes this test case's input: give generate, copy or in", at)
            return None
        patterns = self.patterns(spec.get("match"), at)
        return CaseRule(
            full,
            self.doc.line_of(at),
            command,
            copy,
            inline,
            links,
            scope.solution if scope.solution_given else None,
            scope.retries,
            patterns,
        )

    def patterns(self, match: object, at: KeyPath) -> tuple[tuple[str, str], ...]:
        """``match``: patterns for the input (a string or a list), or per file
        (``{in: ..., ans: ...}``), as (extension, pattern) pairs."""
        per_ext = match if isinstance(match, dict) else {"in": match} if match else {}
        found: list[tuple[str, str]] = []
        for key, value in per_ext.items():
            if key not in ("in", "ans"):
                self.error(f"match.{key}: only in and ans are matched", (*at, "match", str(key)))
                continue
            for pattern in value if isinstance(value, list) else [value]:
                try:
                    re.compile(str(pattern))
                except re.error:
                    self.error(f"match: '{pattern}' is not a regular expression", (*at, "match"))
                    continue
                found.append((f".{key}", str(pattern)))
        return tuple(found)

    def block(self, at: KeyPath) -> str | None:
        line = self.doc.lines.get(at)
        return block_text(self.text, line) if line is not None else None

    def shown(self, inline: dict[str, str], links: dict[str, str], full: str) -> bool:
        """A sample may be given by what it shows and offers instead of its .in."""
        have = set(inline) | set(links)
        return is_sample(full) and (
            {".in.statement", ".in.download"} <= have or {".interaction", ".in.download"} <= have
        )

    def substitute(self, text: str, spec: dict[str, Any], value: int, at: KeyPath) -> str:
        text = substitute(text, self.constants)
        if "{count}" in text:
            if "count" in spec:
                return text.replace("{count}", str(value))
            self.warn("{count} in a command without count: left as it is", (*at, "generate"))
        return text

    def files(
        self, spec: dict[str, Any], full: str, at: KeyPath
    ) -> tuple[dict[str, str], dict[str, str]]:
        inline: dict[str, str] = {}
        links: dict[str, str] = {}
        for ext in CASE_EXTENSIONS:
            value = spec.get(ext[1:])
            if value is None:
                continue
            if sample_only_here(ext, full) and GroupKind.of(full) is not GroupKind.INVALID_ANSWER:
                self.error(f"{ext[1:]} is for samples only", (*at, ext[1:]))
            elif ext == ".interaction" and not self.interactive:
                self.error("interaction is for interactive and multi-pass problems", (*at, ext[1:]))
            elif ext == ".yaml" and isinstance(value, dict):
                inline[ext] = self.block((*at, "yaml")) or yaml.safe_dump(
                    value, sort_keys=False, allow_unicode=True
                )
            elif isinstance(value, dict) and set(value) == {"link"} and ext[1:] in LINKABLE:
                target = f".{value['link']}"
                if target.split(".")[1] != ext.split(".")[1] or target not in (
                    ".in",
                    ".ans",
                    *SAMPLE_ONLY,
                ):
                    self.error(f"{ext[1:]} may link to its own kind only", (*at, ext[1:]))
                else:
                    links[ext] = target
            elif isinstance(value, str | int | float) and not isinstance(value, bool):
                text = str(value)
                inline[ext] = text if not text or text.endswith("\n") else text + "\n"
            else:
                self.error(f"{ext[1:]} must be text (or {{link: ...}})", (*at, ext[1:]))
        return inline, links


def _generators(doc: YamlDoc, parser: _Parser) -> dict[str, tuple[str, ...]]:
    raw = doc.data.get("generators") if isinstance(doc.data, dict) else None
    found: dict[str, tuple[str, ...]] = {}
    if raw is None:
        return found
    if not isinstance(raw, dict):
        parser.error("generators must map names to lists of files", ("generators",))
        return found
    for name, files in raw.items():
        ok = isinstance(files, list) and files and all(isinstance(f, str) for f in files)
        if not ok or "." in str(name):
            parser.error(
                f"generators.{name}: a name without '.' and a list of files below generators/",
                ("generators", str(name)),
            )
            continue
        found[str(name)] = tuple(files)
    return found


def parse_plan(doc: YamlDoc, constants: dict[str, str], interactive: bool) -> Plan:
    """The plan of generators.yaml ``doc`` (its errors inside the plan)."""
    parser = _Parser(doc, constants, interactive)
    if doc.syntax_error is not None:
        return Plan((), (), {}, (PlanError(doc.syntax_error.message, doc.syntax_error.line),))
    if not isinstance(doc.data, dict):
        return Plan((), (), {}, (PlanError("generators.yaml must be a mapping", 1),))
    generators = _generators(doc, parser)
    parser.total = numbered_cases(doc.data)
    parser.directory(doc.data, "", (), Scope())
    seen: dict[str, int | None] = {}
    for case in parser.cases:
        if case.path in seen:
            parser.errors.append(PlanError(f"two rules make test case {case.path}", case.line))
        seen[case.path] = case.line
    return Plan(
        tuple(parser.cases),
        tuple(parser.dirs),
        generators,
        tuple(parser.errors),
        tuple(parser.warnings),
    )
