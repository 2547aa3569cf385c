"""attachments/ and solution/ (2023-07 and later): attachments are files, save the code
templates (``attachments/templates/<language or default>/``, each non-empty), and
solution/ holds ``solution[.<lang>].{tex,md,pdf}`` files, at least one."""

from __future__ import annotations

import re
from collections.abc import Iterator

from problemtools_py.checks.registry import check
from problemtools_py.findings import Finding, error, warning
from problemtools_py.hints import closest
from problemtools_py.model.language_codes import KNOWN_LANGUAGES
from problemtools_py.model.problem import Problem

SOLUTION_RE = re.compile(r"^solution(?:\.([a-z]{2,3}(?:-[A-Z]{2})?))?\.(tex|md|pdf)$")
TEMPLATES = "attachments/templates"


def _children(problem: Problem, rel: str) -> list[tuple[str, bool]]:
    prefix = rel + "/"
    return [
        (e.rel, e.is_dir)
        for e in problem.files
        if e.rel.startswith(prefix) and "/" not in e.rel[len(prefix) :]
    ]


def _templates(problem: Problem) -> Iterator[Finding]:
    for rel, is_dir in _children(problem, TEMPLATES):
        name = rel.rsplit("/", 1)[-1]
        if not is_dir:
            yield warning(
                "attachments",
                "a code template belongs in attachments/templates/<language>/ (or default/)",
                rel,
            )
            continue
        if name not in KNOWN_LANGUAGES and name != "default":
            close = closest(name, KNOWN_LANGUAGES)
            hint = f"; did you mean '{close}'?" if close else ""
            yield error(
                "attachments", f"'{name}' is not a language code of the format's list{hint}", rel
            )
        if not any(e.rel.startswith(rel + "/") and not e.is_dir for e in problem.files):
            yield error("attachments", "a code template directory may not be empty", rel)


@check("config")
def attachments(problem: Problem) -> Iterator[Finding]:
    if problem.legacy:
        return
    for rel, is_dir in _children(problem, "attachments"):
        if is_dir and rel != TEMPLATES:
            yield error(
                "attachments",
                "attachments/ may hold files and templates/ only: zip a directory to attach it",
                rel,
            )
    yield from _templates(problem)


@check("statement")
def solutions(problem: Problem) -> Iterator[Finding]:
    if problem.legacy or problem.file("solution") is None:
        return
    found = _children(problem, "solution")
    if not any(SOLUTION_RE.match(rel.rsplit("/", 1)[-1]) for rel, is_dir in found if not is_dir):
        yield error(
            "solution",
            "solution/ holds no solution.<language>.{tex,md,pdf} (or solution.{tex,md,pdf})",
            "solution",
        )
