"""Names and layout: the short name, every file and directory name, symlinks, and
top-level or data/ entries that belong to the other format version or look misspelled."""

from __future__ import annotations

import re
from collections.abc import Iterator

from problemtools_py.checks.registry import check
from problemtools_py.findings import Finding, Severity, error, warning
from problemtools_py.hints import closest
from problemtools_py.model.conventions import extension
from problemtools_py.model.entrypoints import NAME as ENTRY_POINTS_FILE
from problemtools_py.model.names import name_rule
from problemtools_py.model.problem import Problem
from problemtools_py.model.sidecar import SIDECARS
from problemtools_py.model.testdata import data_directories, group_files
from problemtools_py.rulesets import Ruleset

SHORT_NAME = re.compile(r"^[a-z0-9]+$")
EXEMPT_ANYWHERE = frozenset({".gitignore", ".gitattributes", ".git"})
EXEMPT_AT_ROOT = frozenset({".timelimit", *SIDECARS})  # the sidecars: parquet2kattis

LEGACY_TOP = frozenset(
    {
        "problem.yaml",
        "problem_statement",
        "data",
        "include",
        "submissions",
        "input_validators",
        "input_format_validators",
        "output_validators",
        "graders",
        "attachments",
        "domjudge-problem.ini",
        "languages.yaml",
        # DOMjudge's prebuilt statement (its importer shows the first of these as it is)
        "problem.pdf",
        "problem.html",
        "problem.txt",
    }
)
MODERN_TOP = frozenset(
    {
        "problem.yaml",
        "statement",
        "data",
        "include",
        "submissions",
        "input_validators",
        "output_validator",
        "attachments",
        "solution",
        "generators",
        "static_validator",
        "input_visualizer",
        "output_visualizer",
        "answer_validators",  # BAPCtools' and DOMjudge's: run on every .ans
        "languages.yaml",
    }
)
README_NAMES = frozenset({"README", "README.md", "README.txt"})
# name found -> (name in this version, why), per version of the package.
OTHER_VERSION_LEGACY = {
    "statement": ("problem_statement", "'statement/' is the 2023-07 name"),
    "output_validator": ("output_validators", "'output_validator/' is the 2023-07 name"),
}
OTHER_VERSION_MODERN = {
    "problem_statement": ("statement", "'problem_statement/' is the legacy name"),
    "output_validators": ("output_validator", "'output_validators/' is the legacy name"),
    "input_format_validators": (
        "input_validators",
        "'input_format_validators/' is the legacy name",
    ),
    "graders": (None, "graders were removed in 2023-07; use test_group.yaml score_aggregation"),
}


@check("config")
def short_name(problem: Problem) -> Iterator[Finding]:
    if not SHORT_NAME.match(problem.short_name):
        yield error(
            "short-name",
            f"problem short name '{problem.short_name}' (the directory name) must match [a-z0-9]+",
        )


@check("config")
def file_names(problem: Problem) -> Iterator[Finding]:
    """legacy-icpc: every file name matches its pattern; the other versions' texts make
    other names auxiliary instead (see auxiliary_files)."""
    rule = name_rule(problem.format, problem.format_declared)
    if rule.auxiliary:
        return
    for entry in problem.files:
        name = entry.name
        if name in EXEMPT_ANYWHERE or (name in EXEMPT_AT_ROOT and "/" not in entry.rel):
            continue
        if any(part in EXEMPT_ANYWHERE for part in entry.rel.split("/")[:-1]):
            continue
        if not rule.allows(name, entry.is_dir):
            yield error(
                "file-name",
                f"file name '{name}' does not match the {rule.version} file-name pattern "
                f"{rule.shown}",
                entry.rel,
            )


@check("config")
def auxiliary_files(problem: Problem) -> Iterator[Finding]:
    """legacy and 2025-09 read the package as if auxiliary entries (a name starting with
    '.' or '-', or with characters outside [a-zA-Z0-9_.-]) were not there; say so where
    one looks meant as a test case, a submission or a part of the package."""
    rule = name_rule(problem.format, problem.format_declared)
    for rel in problem.auxiliary:
        what = _looks_meant(rel)
        if what is not None:
            yield warning(
                "auxiliary-file",
                f"'{rel.rsplit('/', 1)[-1]}' is not a {rule.version} file name "
                f"({rule.shown}), so the package is read as if it were not there; it looks "
                f"like {what}",
                rel,
            )


def _looks_meant(rel: str) -> str | None:
    parts = rel.split("/")
    name = parts[-1].lstrip(".-~")
    if not name or parts[-1] in EXEMPT_ANYWHERE or parts[-1] in (".gitkeep", ".timelimit"):
        return None
    if parts[0] == "data" and name.rsplit(".", 1)[-1] in ("in", "ans", "out", "interaction"):
        return "a test case file"
    if parts[0] == "submissions" and len(parts) == 3:
        return "a submission"
    if len(parts) == 1 and name in MODERN_TOP | LEGACY_TOP:
        return f"'{name}'"
    own = parts[-1][:1] not in ".-"  # (not an editor's or a tool's hidden file)
    suffix = name.rsplit(".", 1)[-1].lower()
    if (
        parts[0] in ("problem_statement", "statement")
        and len(parts) == 2
        and own
        and (suffix in STATEMENT_ASSETS)
    ):
        return "a file of the problem statement (a figure it includes, say)"
    return None


# What a statement directory's files are (its sources and the figures they include).
STATEMENT_ASSETS = frozenset({"png", "jpg", "jpeg", "gif", "svg", "pdf", "eps", "tex", "md",
                              "html", "txt", "asy", "tikz", "sty", "cls", "bib"})  # fmt: skip


@check("config")
def special_files(problem: Problem) -> Iterator[Finding]:
    for entry in problem.files:
        if entry.special:
            yield error(
                "file-type",
                "not a regular file or directory (a FIFO, socket or device); it is never read",
                entry.rel,
            )


@check("config")
def symlinks(problem: Problem) -> Iterator[Finding]:
    for entry in problem.files:
        if not entry.is_symlink or entry.link_ok:
            continue
        target = entry.link_target or ""
        if entry.bt_resource:  # (read as bt reads it: BAPCtools' own file)
            text = f"symlink points out of the package to '{target}', a file of BAPCtools' own"
            yield extension(Ruleset.BAPCTOOLS, "symlink", text, entry.rel)
            continue
        if target.startswith("/"):
            why = f"is absolute ('{target}'); symlinks must be relative and stay inside the package"
        else:
            why = f"points to '{target}', which does not exist inside the package"
        yield error("symlink", f"symlink {why}", entry.rel)


def _suggest(name: str, known: frozenset[str]) -> str:
    match = closest(name, known, cutoff=0.7)
    return f"; did you mean '{match}'?" if match else ""


@check("config")
def top_level_entries(problem: Problem) -> Iterator[Finding]:
    known = LEGACY_TOP if problem.legacy else MODERN_TOP
    other = OTHER_VERSION_LEGACY if problem.legacy else OTHER_VERSION_MODERN
    version = problem.format.value
    for entry in problem.top_level():
        name = entry.name
        if name in known or name.startswith(".") or name in EXEMPT_AT_ROOT | README_NAMES:
            continue
        if problem.legacy and name == "output_validator" and _validates(problem, name):
            yield extension(
                Ruleset.DOMJUDGE,
                "layout",
                "'output_validator/' is the 2023-07 "
                "name (legacy's is 'output_validators/'); its validator judges "
                "this package, as DOMjudge's does",
                name,
            )
        elif name == ENTRY_POINTS_FILE:
            yield _entry_points(problem)
        elif name in other:
            ours, why = other[name]
            use = f"; this {version} package uses '{ours}/'" if ours else ""
            yield warning("layout", f"{why}{use}; it is ignored", name)
        else:
            yield warning(
                "layout", f"unknown entry '{name}' is ignored{_suggest(name, known)}", name
            )


def _entry_points(problem: Problem) -> Finding:
    """DOMjudge's submissions.json: read by its rules only (a warning either way)."""
    read = problem.domjudge_entry_points
    if read is None or read.problem is not None:
        why = read.problem if read is not None else "is not a regular file"
        return warning(
            "layout", f"DOMjudge's file of submissions' entry points {why}", ENTRY_POINTS_FILE
        )
    text = (
        f"the entry points of {len(read.by_path)} submission(s), for DOMjudge "
        "(the format reads none: submissions.yaml's 'entrypoint' does that in 2025-09)"
    )
    return Finding(Severity.WARNING, "layout", text, ENTRY_POINTS_FILE, None, "domjudge")


def _validates(problem: Problem, rel: str) -> bool:
    """Whether the program at ``rel`` is the output validator that judges the package."""
    validator = problem.output_validator
    return validator is not None and validator.rel == rel


@check("data")
def data_entries(problem: Problem) -> Iterator[Finding]:
    known = frozenset({*data_directories(problem.legacy), *group_files(problem.legacy)})
    for entry in problem.files:
        if "/" not in entry.rel or entry.rel.rsplit("/", 1)[0] != "data":
            continue
        if entry.name in known or entry.name.startswith("."):
            continue
        yield warning(
            "layout",
            f"unexpected entry '{entry.name}' in data/; test data belongs in "
            f"data/sample or data/secret{_suggest(entry.name, known)}",
            entry.rel,
        )
