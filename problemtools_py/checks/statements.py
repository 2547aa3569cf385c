"""Statements: present, one per language, ``\\problemname`` given, languages matching the
problem name (2023-07)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from problemtools_py.checks.registry import check
from problemtools_py.findings import Finding, error, warning
from problemtools_py.model.conventions import extension
from problemtools_py.model.problem import Problem
from problemtools_py.rulesets import Ruleset

# the statement files DOMjudge imports from a package's top directory
DOMJUDGE_STATEMENTS = ("problem.pdf", "problem.html", "problem.txt")


@check("statement")
def statement_files(problem: Problem) -> Iterator[Finding]:
    directory = "problem_statement" if problem.legacy else "statement"
    if problem.statement_dir is None:
        top = [e.name for e in problem.top_level() if e.name in DOMJUDGE_STATEMENTS]
        if top:
            yield extension(
                Ruleset.DOMJUDGE,
                "statement",
                f"statement directory {directory}/ "
                f"is missing; the statement is {top[0]} at the top, where "
                "DOMjudge reads it",
                top[0],
            )
        else:  # (DOMjudge imports a package with no statement at all)
            yield extension(
                Ruleset.DOMJUDGE,
                "statement",
                f"statement directory {directory}/ is missing",
                directory,
            )
        return
    if not problem.statements:
        pattern = "problem.<lang>.tex" if problem.legacy else "problem.<lang>.{tex,md,pdf}"
        yield error("statement", f"no statement found (expected {pattern})", directory)
        return
    counts = Counter(s.lang for s in problem.statements)
    for statement in problem.statements:
        if counts[statement.lang] > 1:
            yield _more_than_one(problem, statement.lang)
            counts[statement.lang] = 0
        if not problem.legacy and not statement.explicit_lang:
            yield error(
                "statement",
                f"2023-07 statements must name their language, e.g. problem.en.{statement.kind}",
                statement.rel,
            )
        if problem.legacy and statement.kind == "md":
            yield error(
                "statement",
                "Markdown statements are not part of the legacy format (use problem.<lang>.tex)",
                statement.rel,
            )


def _more_than_one(problem: Problem, lang: str) -> Finding:
    """The text asks for one statement file per language. A PDF beside the one source
    (made from it, as contest repositories keep it) is a warning: problemtools reads the
    source and judges the package; two sources are an error."""
    same = [s for s in problem.statements if s.lang == lang]
    sources = [s for s in same if s.kind != "pdf"]
    names = ", ".join(s.rel for s in same)
    if len(sources) == 1:
        return warning(
            "statement",
            f"more than one statement for language '{lang}' ({names}): the format asks for "
            f"one file per language; the PDF is taken as {sources[0].rel} rendered",
            sources[0].rel,
        )
    return error(
        "statement", f"more than one statement for language '{lang}': {names}", same[0].rel
    )


@check("statement")
def problem_names(problem: Problem) -> Iterator[Finding]:
    for statement in problem.statements:
        if statement.kind != "tex" or statement.text is None:
            continue
        name = statement.problemname
        if statement.problemname_line is None:
            yield error("statement", "no \\problemname{...} in the statement", statement.rel)
        elif name is None:
            yield error(
                "statement",
                "\\problemname{ is never closed",
                statement.rel,
                statement.problemname_line,
            )
        elif not name and problem.legacy:
            yield error(
                "statement", "\\problemname{} is empty", statement.rel, statement.problemname_line
            )
        elif name and ("\\" in name or "$" in name) and not statement.plain_name:
            yield warning(
                "statement",
                "the problem name contains LaTeX; add a comment "
                "'%% plainproblemname: <plain name>'",
                statement.rel,
                statement.problemname_line,
            )


@check("statement")
def name_languages(problem: Problem) -> Iterator[Finding]:
    if problem.legacy or not problem.statements:
        return
    names = set(problem.config.names)
    langs = {s.lang for s in problem.statements}
    line = problem.yaml.line_of(("name",))
    for lang in sorted(langs - names):
        yield error(
            "statement",
            f"there is a statement in '{lang}' but problem.yaml has no name for '{lang}'",
            "problem.yaml",
            line,
        )
    for lang in sorted(names - langs):
        yield error(
            "statement",
            f"problem.yaml names the problem in '{lang}' but there is no statement in '{lang}'",
            "problem.yaml",
            line,
        )


@check("statement")
def pdf_statements(problem: Problem) -> Iterator[Finding]:
    """A ready-made PDF statement is a PDF (it starts with ``%PDF-``)."""
    for statement in problem.statements:
        if statement.kind != "pdf":
            continue
        try:
            with (problem.root / statement.rel).open("rb") as handle:
                magic = handle.read(5)
        except OSError as exc:
            yield error("statement", f"cannot be read: {exc.strerror}", statement.rel)
            continue
        if magic != b"%PDF-":
            yield error("statement", "not a PDF file (it does not start with %PDF-)", statement.rel)
