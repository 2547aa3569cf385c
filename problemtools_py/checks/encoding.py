"""Text encodings: UTF-8 without a byte order mark, LF line endings, a final newline.

Statements and YAML files must be clean (errors); test data gets warnings for CR and a
missing final newline, as problemtools does, and errors for bytes that are not UTF-8 in
files meant for people (.desc, .hint)."""

from __future__ import annotations

from collections.abc import Iterator

from problemtools_py.checks.registry import check
from problemtools_py.findings import Finding, Severity, warning
from problemtools_py.model.files import FileEntry
from problemtools_py.model.problem import Problem
from problemtools_py.model.testdata import DATA_EXTENSIONS


def _part(entry: FileEntry, problem: Problem) -> str:
    top = entry.rel.split("/", 1)[0]
    if top == "data" and not entry.rel.endswith((".yaml", ".yml")):
        return "data"
    if top == problem.statement_dir:
        return "statement"
    return "config"


def _scan(entry: FileEntry, strict: bool) -> Iterator[Finding]:
    scan = entry.text
    if scan is None:
        return
    severity = Severity.ERROR if strict else Severity.WARNING
    if not scan.utf8:
        yield Finding(severity, "encoding", "not valid UTF-8", entry.rel, scan.bad_line)
    if scan.bom:
        yield Finding(
            severity, "encoding", "starts with a UTF-8 byte order mark (BOM)", entry.rel, 1
        )
    if scan.cr_line is not None:
        yield warning(
            "encoding",
            "contains carriage return characters (use LF line endings)",
            entry.rel,
            scan.cr_line,
        )
    if not scan.final_newline:
        yield warning("encoding", "does not end with a newline", entry.rel)


def _findings(problem: Problem, part: str) -> Iterator[Finding]:
    for entry in problem.files:
        if entry.text is None or _part(entry, problem) != part:
            continue
        strict = not entry.rel.endswith(DATA_EXTENSIONS)
        yield from _scan(entry, strict)


@check("config")
def config_encoding(problem: Problem) -> Iterator[Finding]:
    yield from _findings(problem, "config")


@check("statement")
def statement_encoding(problem: Problem) -> Iterator[Finding]:
    yield from _findings(problem, "statement")


@check("data")
def data_encoding(problem: Problem) -> Iterator[Finding]:
    yield from _findings(problem, "data")
