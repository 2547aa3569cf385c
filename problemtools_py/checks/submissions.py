"""Example submissions: directories of both versions, expected-result tags, at least one
accepted submission, languages, submissions.yaml, and include/ directories."""

from __future__ import annotations

from collections.abc import Iterator

from problemtools_py.checks.config import yaml_doc_findings
from problemtools_py.checks.registry import check
from problemtools_py.checks.schema import validate
from problemtools_py.findings import Finding, error, warning
from problemtools_py.hints import closest
from problemtools_py.model.conventions import extension
from problemtools_py.model.expectations import LEGACY_DIRS, MODERN_DIRS, glob_matches
from problemtools_py.model.language_codes import KNOWN_LANGUAGES
from problemtools_py.model.problem import Problem
from problemtools_py.model.programs import uses_standard_dirs
from problemtools_py.rulesets import Ruleset


@check("submissions")
def submissions_present(problem: Problem) -> Iterator[Finding]:
    # A dataset problem shipped "on upstream tests only" has, by definition, no solution.
    without = problem.dataset_export is not None and not problem.dataset_export.get("reference")
    make = warning if without else error
    why = " (the dataset ships this problem on upstream tests only)" if without else ""
    if problem.file("submissions") is None:
        yield make("submissions", f"submissions/ directory is missing{why}", "submissions")
        return
    if not problem.submissions:
        yield make("submissions", f"there are no submissions{why}", "submissions")
        return
    if not any(s.expectation is not None and s.expectation.accepted for s in problem.submissions):
        text = f"there is no accepted submission: at least one is required{why}"
        if without:
            yield warning("submissions", text, "submissions/accepted")
        else:  # (bt run judges what there is: BAPCtools' hellounix has none)
            yield extension(Ruleset.BAPCTOOLS, "submissions", text, "submissions/accepted")


# What other tools keep in a submissions/ directory the legacy format does not define.
OTHER_TOOLS_DIRS = {
    "mixed": "BAPCtools' and DOMjudge's programs whose verdict depends on the test case",
    "mixed-verdicts": "DOMjudge's programs whose verdict depends on the test case",
    "rejected": "programs any rejection suits; a directory of 2023-07 on, which BAPCtools "
    "and DOMjudge keep in legacy packages",
    "domjudge": "programs meant for DOMjudge only",
    "slow_accepted": "problemtools' examples: accepted programs too slow for the limit",
}


def _foreign_directory(problem: Problem, name: str, rel: str) -> Finding:
    """A legacy package's directory beside the standard ones: its tagged programs are
    judged by their tags (DOMjudge's rule, what BAPCtools exports), the others are not."""
    judged = sum(1 for s in problem.submissions if s.category == name)
    inside = [
        f for f in problem.files if f.rel.rsplit("/", 1)[0] == rel and not f.name.startswith(".")
    ]
    meaning = f" ({OTHER_TOOLS_DIRS[name]})" if name in OTHER_TOOLS_DIRS else ""
    close = closest(name, LEGACY_DIRS, cutoff=0.7) if not meaning else None
    hint = f"; did you mean '{close}'?" if close else ""
    return warning(
        "submissions",
        f"'{name}/' is no directory of the legacy format{meaning}{hint}: its programs with "
        f"an @EXPECTED_RESULTS@ tag are judged by the tag, as DOMjudge judges them "
        f"({judged} tagged; {len(inside) - judged} without a tag not judged)",
        rel,
    )


def _category_findings(problem: Problem, name: str) -> Iterator[Finding]:
    ours, theirs = (LEGACY_DIRS, MODERN_DIRS) if problem.legacy else (MODERN_DIRS, LEGACY_DIRS)
    rel = f"submissions/{name}"
    if problem.legacy and name not in ours and uses_standard_dirs(problem.submission_categories):
        yield _foreign_directory(problem, name, rel)
        return
    if name in ours:
        if name == "partially_accepted" and not problem.config.scoring:
            yield error("submissions", "partially_accepted/ is only for scoring problems", rel)
        return
    rules = problem.submissions_yaml.data
    if (
        not problem.legacy
        and isinstance(rules, dict)
        and any(glob_matches(str(p), name) for p in rules)
    ):
        return
    if name in theirs:
        other = "2023-07" if problem.legacy else "legacy"
        yield warning(
            "submissions",
            f"'{name}/' is a {other} directory; this "
            f"{problem.format.value} package gives it no expectation",
            rel,
        )
        return
    close = closest(name, ours, cutoff=0.7)
    hint = f"; did you mean '{close}'?" if close else ""
    skipped = not any(s.category == name for s in problem.submissions)
    what = "; its programs are not submissions and are skipped" if skipped else ""
    yield warning("submissions", f"unknown submission directory '{name}/'{hint}{what}", rel)


@check("submissions")
def categories(problem: Problem) -> Iterator[Finding]:
    for name in problem.submission_categories:
        yield from _category_findings(problem, name)


@check("submissions")
def expectations(problem: Problem) -> Iterator[Finding]:
    for sub in problem.submissions:
        for tp in sub.tag_problems:
            if tp.is_error and tp.domjudge:  # (its check_manually/ examples have such)
                text = f"{tp.message} ({tp.domjudge})"
                yield extension(Ruleset.DOMJUDGE, "expected-result", text, tp.rel, tp.line)
                continue
            finding = error if tp.is_error else warning
            yield finding("expected-result", tp.message, tp.rel, tp.line)
        if sub.expectation is None and not sub.tag_problems:
            yield warning(
                "expected-result",
                "no expected result: neither its directory, a tag "
                "nor submissions.yaml says what it should get; it is not checked",
                sub.rel,
            )
        if sub.category is None and not problem.legacy and not sub.program.is_dir:
            yield error(
                "submissions",
                "2023-07 submissions belong in a subdirectory of "
                "submissions/ (e.g. submissions/accepted/)",
                sub.rel,
            )


@check("submissions")
def languages(problem: Problem) -> Iterator[Finding]:
    allowed = problem.config.languages
    for sub in problem.submissions:
        given = sub.expectation.language if sub.expectation is not None else None
        lang = given or sub.program.language
        if lang is None:
            if not sub.program.files:
                yield error("submissions", "submission directory is empty", sub.rel)
            else:
                yield warning(
                    "submissions",
                    "no language of the format's list claims this submission's file names "
                    "(a disabled one?); it is skipped",
                    sub.rel,
                )
        elif allowed is not None and lang not in allowed:
            yield warning(
                "submissions",
                f"language '{lang}' is not among the problem's languages ({' '.join(allowed)})",
                sub.rel,
            )


@check("submissions")
def submissions_yaml(problem: Problem) -> Iterator[Finding]:
    doc = problem.submissions_yaml
    if not doc.exists:
        return
    if problem.legacy:
        yield warning(
            "submissions",
            "submissions.yaml is a 2023-07 file; legacy packages use "
            "directories and @EXPECTED_RESULT@ tags, so it is ignored",
            doc.rel,
        )
        return
    yield from yaml_doc_findings(doc, "submissions-yaml")
    if doc.syntax_error is not None or not isinstance(doc.data, dict):
        return
    yield from validate(doc, f"submissions-{problem.format.schema_suffix}", "submissions-yaml")
    paths = [s.rel.removeprefix("submissions/") for s in problem.submissions]
    for pattern in doc.data:
        if not any(glob_matches(str(pattern), p) for p in paths):
            yield warning(
                "submissions-yaml",
                f"'{pattern}' matches no submission",
                doc.rel,
                doc.line_of((str(pattern),)),
            )


@check("submissions")
def include_dirs(problem: Problem) -> Iterator[Finding]:
    for inc in problem.include_dirs:
        if inc.lang not in KNOWN_LANGUAGES and not (inc.lang == "default" and not problem.legacy):
            close = closest(inc.lang, KNOWN_LANGUAGES)
            hint = f"; did you mean '{close}'?" if close else ""
            yield error(
                "include",
                f"include/{inc.lang}/ is not named after a known language code{hint}",
                inc.rel,
            )
        if not inc.files:
            yield (warning if problem.legacy else error)(
                "include", "include directory is empty", inc.rel
            )
    for entry in problem.files:
        if entry.rel.startswith("include/") and entry.rel.count("/") == 1 and not entry.is_dir:
            yield error("include", "files in include/ belong in include/<language>/", entry.rel)
