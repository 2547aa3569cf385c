"""Config-part checks (names, layout, encodings, problem.yaml), each triggered on a copy of a
sample broken in one way. The clean sample gives none of these findings."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.broken import Broken, E, W, assert_reported
from helpers.builders import append, move, remove, replace, symlink, write
from helpers.packages import describe, verify


def yaml_append(text: str) -> Callable[[Path], None]:
    return lambda p: append(p, "problem.yaml", text)


# Nine levels of nine aliases each: 9**9 names from 560 bytes (issue 40: 13 s and 1.9 GB
# before every load was bounded).
LAUGHS = 'x0: &x0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n' + "".join(
    f"x{i}: &x{i} [{', '.join([f'*x{i - 1}'] * 9)}]\n" for i in range(1, 10)
)

CASES = [
    Broken("short-name", "hello", lambda p: None, E, "short-name", "must match [a-z0-9]+",
           dest="Hello_World"),
    Broken("auxiliary-leading-dash-legacy", "hello", lambda p: write(p, "data/secret/-05.in",
           "1\n"), W, "auxiliary-file", "'-05.in' is not a legacy file name "
           "(^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,254}$), so the package is read as if it were not "
           "there; it looks like a test case file", "data/secret/-05.in"),
    Broken("auxiliary-statement-figure-legacy", "hello", lambda p: write(
           p, "problem_statement/rat graph.png", b"\x89PNG\r\n"), W, "auxiliary-file",
           "'rat graph.png' is not a legacy file name (^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,254}$), so "
           "the package is read as if it were not there; it looks like a file of the problem "
           "statement", "problem_statement/rat graph.png"),
    Broken("file-name-space-legacy-icpc", "hello", lambda p: (yaml_append(
           "problem_format_version: legacy-icpc\n")(p), write(p, "data/secret/my notes.txt",
           "x\n")), E, "file-name", "file name 'my notes.txt' does not match the legacy-icpc "
           "file-name pattern ^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,253}[a-zA-Z0-9]$"),
    Broken("file-name-single-char-legacy-icpc", "hello", lambda p: (yaml_append(
           "problem_format_version: legacy-icpc\n")(p), write(p, "data/secret/a", "x\n")), E,
           "file-name", "file name 'a' does not match", "data/secret/a"),
    Broken("auxiliary-dot-case-2023-07", "different", lambda p: write(p, "data/secret/.05.in",
           "1\n"), W, "auxiliary-file", "'.05.in' is not a 2025-09 file name",
           "data/secret/.05.in"),
    Broken("symlink-absolute", "hello", lambda p: symlink(p, "data/secret/05.in", "/etc/hostname"),
           E, "symlink", "is absolute", "data/secret/05.in"),
    Broken("symlink-to-a-device", "hello", lambda p: symlink(p, "data/secret/05.in", "/dev/zero"),
           E, "symlink", "is absolute", "data/secret/05.in"),  # (once read without end)
    Broken("symlink-to-a-directory-outside", "hello", lambda p: symlink(p, "data/secret/g",
           "/"), E, "symlink", "is absolute", "data/secret/g"),
    Broken("symlink-dangling", "hello", lambda p: symlink(p, "data/secret/05.in", "../nothing"),
           E, "symlink", "does not exist inside the package", "data/secret/05.in"),
    Broken("symlink-escapes", "hello", lambda p: symlink(p, "notes", "../../"), E, "symlink",
           "does not exist inside the package", "notes"),
    Broken("fifo-is-never-read", "hello", lambda p: os.mkfifo(p / "data/secret/05.in"), E,
           "file-type", "not a regular file", "data/secret/05.in"),
    Broken("fifo-statement", "hello", lambda p: os.mkfifo(p / "problem_statement/problem.sv.tex"),
           E, "file-type", "not a regular file"),
    Broken("yaml-bom", "hello",
           lambda p: write(p, "problem.yaml", b"\xef\xbb\xbf" + (p / "problem.yaml").read_bytes()),
           E, "encoding", "byte order mark", "problem.yaml", 1),
    Broken("yaml-not-utf8", "hello", lambda p: write(p, "problem.yaml", b"name: Hello\n# caf\xe9\n"),
           E, "encoding",
           "not valid UTF-8", "problem.yaml", 2),
    Broken("problem-yaml-missing", "hello", lambda p: remove(p, "problem.yaml"), E,
           "problem-yaml", "problem.yaml is missing", "problem.yaml"),
    Broken("yaml-syntax", "hello", yaml_append("limits: [1, 2\n"), E, "problem-yaml",
           "YAML syntax error", "problem.yaml"),
    Broken("yaml-billion-laughs", "hello", yaml_append(LAUGHS), E, "problem-yaml",
           "aliases expand this document by", "problem.yaml"),
    Broken("yaml-alias-cycle", "hello", yaml_append("keywords: &k [a, *k]\n"), E, "problem-yaml",
           "alias refers to a node that contains it", "problem.yaml", 12),
    Broken("yaml-too-deep", "hello", yaml_append("keywords: " + "[" * 3000 + "]" * 3000 + "\n"),
           E, "problem-yaml", "nested too deeply", "problem.yaml"),
    Broken("yaml-duplicate-key", "hello", yaml_append("name: Again\n"), E, "problem-yaml",
           "duplicate key 'name'", "problem.yaml", 12),
    Broken("yaml-not-mapping", "hello", lambda p: write(p, "problem.yaml", "- a\n- b\n"), E,
           "problem-yaml", "must be a mapping", "problem.yaml", 1),
    Broken("format-version-unknown", "hello", yaml_append("problem_format_version: 2099-01\n"),
           E, "problem-yaml", "unknown version '2099-01'", "problem.yaml", 12),
    Broken("schema-type", "hello", lambda p: replace(p, "problem.yaml", "memory: 1024",
           "memory: lots"), E, "problem-yaml", "limits.memory: 'lots' is not of type 'integer'",
           "problem.yaml", 10),
    Broken("schema-negative", "hello", lambda p: replace(p, "problem.yaml", "time_multiplier: 5",
           "time_multiplier: -1"), E, "problem-yaml", "limits.time_multiplier", "problem.yaml", 8),
    Broken("schema-license", "hello", lambda p: replace(p, "problem.yaml", "cc by-sa", "gpl"), E,
           "problem-yaml", "license: 'gpl' is not one of", "problem.yaml", 5),
    Broken("schema-seed-grader", "average", lambda p: replace(p, "problem.yaml",
           "grader: first_error", "grader: best"), E, "problem-yaml", "grader: 'best'"),
    Broken("schema-seed-libraries", "average", yaml_append("libraries: gmp mpfr\n"), E,
           "problem-yaml", "libraries"),
    Broken("legacy-unknown-key", "hello", yaml_append("colour: blue\n"), W, "problem-yaml",
           "colour: unknown key, ignored", "problem.yaml", 12),
    Broken("legacy-unknown-key-suggest", "hello", yaml_append("autor: Me\n"), W, "problem-yaml",
           "did you mean 'author'?"),
    Broken("legacy-unknown-nested-key", "hello", lambda p: replace(p, "problem.yaml",
           "memory: 1024", "memroy: 1024"), W, "problem-yaml", "limits.memroy: unknown key",
           "problem.yaml", 10),
    Broken("modern-unknown-key", "different", yaml_append("colour: blue\n"), E, "problem-yaml",
           "colour: unknown key", "problem.yaml"),
    Broken("rights-owner-needed", "hello", lambda p: (
        replace(p, "problem.yaml", "author: Astrid Lindgren\n", ""),
        replace(p, "problem.yaml", "source: problemtools_py samples\n", ""),
        replace(p, "problem.yaml", "rights_owner: problemtools_py authors\n", "")),
        E, "license", "license 'cc by-sa' needs a rights owner", "problem.yaml"),
    Broken("public-domain-with-owner", "divisor", yaml_append("rights_owner: Someone\n"), E,
           "license", "must not be given for a public domain license", "problem.yaml", 9),
    Broken("source-url-without-source", "average", lambda p: replace(p, "problem.yaml",
           "source: problemtools_py samples 2026\n", ""), E, "problem-yaml",
           "source-url is given without source"),
    Broken("custom-score-not-scoring", "divisor", lambda p: replace(p, "problem.yaml",
           "validation: custom", "validation: custom score"), E, "problem-yaml",
           "needs type: scoring"),
    Broken("type-list-in-a-list", "different", yaml_append("type:\n- []\n"), E,
           "problem-yaml", "type[0]: [] is not one of"),  # (was a TypeError, exit 3)
    Broken("grading-on-pass-fail", "hello", yaml_append("grading:\n  objective: min\n"), W,
           "problem-yaml", "grading only applies to scoring problems"),
    Broken("validator-and-validation", "divisor", yaml_append("validator: case_sensitive\n"),
           W, "problem-yaml", "both the seed's 'validator' and 'validation'"),
    Broken("seed-validator-custom-not-first", "average", lambda p: replace(p, "problem.yaml",
           "validator: float_tolerance 1e-6", "validator: case_sensitive custom"), E,
           "problem-yaml", "'custom' must be the first value"),
    Broken("seed-validator-bad-flag", "average", lambda p: replace(p, "problem.yaml",
           "float_tolerance 1e-6", "float_tolerance 1e-6 ignore_case"), E, "problem-yaml",
           "unknown flag 'ignore_case'"),
    Broken("seed-validator-tolerance-value", "average", lambda p: replace(p, "problem.yaml",
           "float_tolerance 1e-6", "float_tolerance"), E, "problem-yaml",
           "float_tolerance needs a non-negative number"),
    Broken("legacy-language-unknown", "average", lambda p: replace(p, "problem.yaml",
           "languages: all", "languages: c fortran77"), E, "problem-yaml",
           "unknown language code 'fortran77'"),
    Broken("modern-uuid-missing", "different", lambda p: replace(p, "problem.yaml",
           "uuid: 6b5b3a5e-0d3f-4e8a-9d6c-2f1e7c3b9a10\n", ""), E, "problem-yaml",
           "'uuid' is a required property"),
    Broken("modern-uuid-form", "different", lambda p: replace(p, "problem.yaml",
           "6b5b3a5e-0d3f-4e8a-9d6c-2f1e7c3b9a10", "not-a-uuid"), E, "problem-yaml",
           "uuid: 'not-a-uuid' does not match", "problem.yaml", 4),
    Broken("modern-type-combination", "different", lambda p: replace(p, "problem.yaml",
           "type: pass-fail", "type: [pass-fail, scoring]"), E, "problem-yaml",
           "'pass-fail' and 'scoring' cannot be combined"),
    Broken("modern-type-unknown", "different", lambda p: replace(p, "problem.yaml",
           "type: pass-fail", "type: multiple-choice"), E, "problem-yaml", "type"),
    Broken("modern-type-spaced", "different", lambda p: replace(p, "problem.yaml",
           "type: pass-fail", "type: pass-fail interactive"), E, "problem-yaml",
           "type: 'pass-fail interactive' is one string, not 2 types", "problem.yaml", 5),
    Broken("modern-validation-passes", "different", lambda p: replace(p, "problem.yaml",
           "  memory: 1024", "  memory: 1024\n  validation_passes: 3"), E, "problem-yaml",
           "validation_passes is only for multi-pass"),
    Broken("modern-embargo-not-a-date", "different", yaml_append("embargo_until: 2025-02-30\n"),
           E, "problem-yaml", "'2025-02-30' is not a real date"),
    Broken("modern-embargo-form", "different", yaml_append("embargo_until: tomorrow\n"), E,
           "problem-yaml", "embargo_until: 'tomorrow' does not match"),
    Broken("modern-constant-name", "different", lambda p: replace(p, "problem.yaml",
           "max_value:", "2max:"), E, "problem-yaml", "constants"),
    Broken("modern-name-latex", "different", lambda p: replace(p, "problem.yaml",
           "en: A Different Problem", "en: A $\\Delta$ Problem"), E, "problem-yaml",
           "LaTeX is not allowed in the name"),
    Broken("modern-credits-empty", "different", lambda p: replace(p, "problem.yaml",
           "    - Per Austrin <austrin@kth.se>\n", "    []\n"), E, "problem-yaml", "credits"),
    Broken("modern-limits-float-memory", "different", lambda p: replace(p, "problem.yaml",
           "memory: 1024", "memory: 1.5"), E, "problem-yaml", "limits.memory"),
    Broken("legacy-dir-in-modern", "different", lambda p: move(p, "statement",
           "problem_statement"), W, "layout", "'problem_statement/' is the legacy name",
           "problem_statement"),
    Broken("modern-dir-in-legacy", "hello", lambda p: write(p, "output_validator/v.py",
           "print(1)\n"), W, "layout", "'output_validator/' is the 2023-07 name"),
    # DOMjudge reads a legacy package's custom validator from output_validator/ too
    Broken("domjudge-output-validator", "divisor", lambda p: move(p, "output_validators",
           "output_validator"), E, "layout", "its validator judges this package"),
    Broken("graders-in-modern", "different", lambda p: write(p, "graders/g.py", "print(1)\n"),
           W, "layout", "graders were removed in 2023-07"),
    Broken("top-level-misspelled", "hello", lambda p: move(p, "submissions", "submision"), W,
           "layout", "did you mean 'submissions'?", "submision"),
    Broken("data-misspelled", "hello", lambda p: move(p, "data/sample", "data/samples"), W,
           "layout", "did you mean 'sample'?", "data/samples"),
    # limits that make an expected-TLE run last over a minute (milliseconds for seconds)
    Broken("long-runs-legacy-margin", "hello", lambda p: replace(p, "problem.yaml",
           "time_safety_margin: 2", "time_safety_margin: 100"), W, "problem-yaml",
           "runs up to 100 s per test case (a time limit of 1 s x limits.time_safety_margin 100)",
           "problem.yaml", 9),
    Broken("long-runs-timelimit-file", "hello", lambda p: write(p, ".timelimit", "1000\n"), W,
           "timelimit", "up to 2000 s per test case (a time limit of 1000 s x limits.time_safety"
           "_margin 2); times are in seconds: 1000 ms would be 1 s", ".timelimit"),
    Broken("long-runs-modern-time-limit", "hilo", lambda p: replace(p, "problem.yaml",
           "limits:\n", "limits:\n  time_limit: 1500\n"), W, "problem-yaml",
           "up to 4500 s per test case (a time limit of 1500 s x limits.time_multipliers.time_"
           "limit_to_tle 3); times are in seconds: 1500 ms would be 1.5 s", "problem.yaml", 10),
    Broken("long-runs-modern-margin", "hilo", lambda p: replace(p, "problem.yaml",
           "time_limit_to_tle: 3", "time_limit_to_tle: 90"), W, "problem-yaml",
           "up to 90 s per test case", "problem.yaml", 11),
    Broken("long-runs-modern-resolution", "hilo", lambda p: replace(p, "problem.yaml",
           "limits:\n", "limits:\n  time_resolution: 70\n"), W, "problem-yaml",
           "up to 210 s per test case (a time limit of 70 s x", "problem.yaml", 10),
]


@pytest.mark.parametrize("broken", CASES, ids=[c.id for c in CASES])
def test_broken_package_is_reported(broken: Broken, copy_sample: Callable[..., Path]) -> None:
    assert_reported(broken, copy_sample)


@pytest.mark.parametrize(("timelimit", "margin", "found"), [
    ("30", "2", []),  # 60 s: the longest run a package may ask for without a word
    ("31", "2", ["up to 62 s per test case (a time limit of 31 s x limits.time_safety_margin 2)"]),
    (None, "60", []),
    (None, "61", ["up to 61 s per test case (a time limit of 1 s x"]),
])
def test_long_runs_are_one_warning_over_a_minute(
    copy_sample: Callable[..., Path], timelimit: str | None, margin: str, found: list[str]
) -> None:
    root = copy_sample("hello")
    if timelimit is not None:
        write(root, ".timelimit", f"{timelimit}\n")
    replace(root, "problem.yaml", "time_safety_margin: 2", f"time_safety_margin: {margin}")
    report = verify(root, ("config",))
    assert len(report.findings) == len(found), describe(report)
    for finding, text in zip(report.findings, found, strict=True):
        assert (finding.severity, text in finding.message) == (W, True), describe(report)
        assert "ms would be" not in finding.message  # (under 100 s: not taken for ms)


def test_a_long_run_is_written_without_an_exponent(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("hello")
    replace(root, "problem.yaml", "time_safety_margin: 2", "time_safety_margin: 1000000")
    [finding] = verify(root, ("config",)).findings
    assert "up to 1000000 s per test case" in finding.message
    assert "limits.time_safety_margin 1000000)" in finding.message
