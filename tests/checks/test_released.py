"""The released 2025-09 version, on broken copies of sample_problems/subtasks (which
verifies clean: tests/unit/verify/test_samples.py): each rule that differs from the drafts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.broken import Broken, E, W, assert_reported
from helpers.builders import append, case, replace, write
from helpers.packages import describe, verify

from problemtools_py.findings import Severity
from problemtools_py.verify.verifier import verify_all

RELEASED = [
    Broken("auxiliary-test-case", "subtasks", lambda p: write(p, "data/secret/1-small/.03.in",
           "1\n5\n"), W, "auxiliary-file", "it looks like a test case file",
           "data/secret/1-small/.03.in"),
    Broken("auxiliary-submission", "subtasks", lambda p: write(p, "submissions/accepted/-x.py",
           "print(1)\n"), W, "auxiliary-file", "it looks like a submission",
           "submissions/accepted/-x.py"),
    Broken("drafts-group-file", "subtasks", lambda p: write(p, "data/secret/2-large/testdata.yaml",
           "max_score: 70\n"), W, "test-group", "2025-09 reads test_group.yaml only",
           "data/secret/2-large/testdata.yaml"),
    Broken("time-limit-off-resolution", "subtasks", lambda p: replace(p, "problem.yaml",
           "  time_resolution: 0.5\n", "  time_resolution: 0.5\n  time_limit: 0.7\n"), E,
           "problem-yaml", "0.7 is not a multiple of limits.time_resolution 0.5", "problem.yaml"),
    Broken("time-limit-infinite", "subtasks", lambda p: replace(p, "problem.yaml",
           "  time_resolution: 0.5\n", "  time_resolution: 0.5\n  time_limit: .inf\n"), E,
           "problem-yaml", "limits.time_limit: inf is not a finite number", "problem.yaml"),
    Broken("time-resolution-nan", "subtasks", lambda p: replace(p, "problem.yaml",
           "  time_resolution: 0.5\n", "  time_resolution: .nan\n"), E,
           "problem-yaml", "limits.time_resolution: nan is not a finite number", "problem.yaml"),
    Broken("unknown-constant-variant", "subtasks", lambda p: append(p, "statement/problem.en.md",
           "\n{{max_n.roman}}\n"), E, "statement", "defines no constant 'max_n.roman'"),
    Broken("source-url-is-a-legacy-key", "subtasks", lambda p: append(p, "problem.yaml",
           "source_url: https://example.org\n"), W, "problem-yaml",
           "source_url: a legacy key, ignored; now source.url", "problem.yaml"),
    Broken("legacy-limit-key", "subtasks", lambda p: replace(p, "problem.yaml",
           "  time_resolution: 0.5\n", "  time_resolution: 0.5\n  time_multiplier: 3\n"), W,
           "problem-yaml", "limits.time_multiplier: a legacy key, ignored; now "
           "limits.time_multipliers.ac_to_time_limit", "problem.yaml"),
    Broken("unknown-key", "subtasks", lambda p: append(p, "problem.yaml", "colour: red\n"), E,
           "problem-yaml", "colour: unknown key", "problem.yaml"),
    Broken("older-draft-key-is-a-warning", "different", lambda p: write(p,
           "data/sample/testdata.yaml", "on_reject: continue\n"), W, "test-group",
           "on_reject: an earlier draft's key; 2023-07 uses nothing", "data/sample/testdata.yaml"),
    Broken("shown-input-not-downloadable", "hilo", lambda p: (p / "data/sample/1.in.download")
           .unlink(), E, "data", "its input is shown differently, so it needs .in.download",
           "data/sample/1.in"),
    Broken("two-ways-to-show-input", "hilo", lambda p: write(p, "data/sample/1.in.statement",
           "412345\n"), E, "data", "has .in.statement and .interaction: one way to show its input",
           "data/sample/1.in"),
    Broken("two-ways-to-download-output", "subtasks", lambda p: (
           write(p, "data/sample/1.out", "6\n"), write(p, "data/sample/1.ans.download", "6\n")),
           E, "data", "has .out and .ans.download: one way to download its output"),
    Broken("plain-directory-beside-groups", "subtasks", lambda p: case(p, "data/secret/plain/x",
           "1\n5\n"), E, "data", "every directory in it must be one", "data/secret/plain"),
    Broken("group-inside-a-group", "subtasks", lambda p: (case(p, "data/secret/1-small/in/x",
           "1\n5\n"), write(p, "data/secret/1-small/in/test_group.yaml", "max_score: 1\n")), E,
           "data", "may not hold one inside a group", "data/secret/1-small/in/test_group.yaml"),
    Broken("attachment-directory", "subtasks", lambda p: write(p, "attachments/tools/t.py", "1\n"),
           E, "attachments", "zip a directory to attach it", "attachments/tools"),
    Broken("template-not-a-language", "subtasks", lambda p: write(p,
           "attachments/templates/pyhton3/t.py", "1\n"), E, "attachments",
           "'pyhton3' is not a language code of the format's list; did you mean 'python3'?",
           "attachments/templates/pyhton3"),
    Broken("empty-template", "subtasks", lambda p: write(p, "attachments/templates/cpp/.gitkeep",
           ""), E, "attachments", "may not be empty", "attachments/templates/cpp"),
    Broken("solution-without-description", "subtasks", lambda p: write(p, "solution/notes.txt",
           "x\n"), E, "solution", "solution/ holds no solution", "solution"),
    Broken("fuzz-cases-are-no-test-data", "subtasks", lambda p: case(p, "data/fuzz/1",
           "1\n5\n"), W, "layout", "unexpected entry 'fuzz' in data/", "data/fuzz"),
    Broken("unknown-version-lists-2025-09", "subtasks", lambda p: replace(p, "problem.yaml",
           "2025-09", "2026-01"), E, "problem-yaml", "2023-07, 2025-09); read as legacy"),
]


@pytest.mark.parametrize("broken", RELEASED, ids=[b.id for b in RELEASED])
def test_released_rule(broken: Broken, copy_sample: Callable[..., Path]) -> None:
    assert_reported(broken, copy_sample)


ACCEPTED = {
    "any-uuid": lambda p: replace(p, "problem.yaml", "0d4b8f3e-2f9c-4c51-b7e2-5f0c1d9b6e21",
                                  "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"),
    "gitkeep-and-editor-files": lambda p: (write(p, "data/secret/.gitkeep", ""),
                                           write(p, "statement/.problem.en.md.swp", b"\0\1")),
    "constant-variants": lambda p: append(p, "statement/problem.en.md", "\n{{max_n.value}}\n"),
    "single-language-string": lambda p: append(p, "problem.yaml", "languages: python3\n"),
    "languages-all": lambda p: append(p, "problem.yaml", "languages: all\n"),
    # (BAPCtools' own directories, which generatedata makes and verifyproblem reads: issue 59
    # found them warned about as unexpected entries)
    "bapctools-data-directories": lambda p: (write(p, "data/invalid_answer/1.in", "1\n5\n"),
                                             write(p, "data/invalid_answer/1.ans", "x\n"),
                                             write(p, "data/testing_tool_test/1.in", "1\n5\n")),
    "templates-and-solution": lambda p: (write(p, "attachments/templates/python3/sum.py", "\n"),
                                         write(p, "attachments/templates/default/sum.txt", "\n"),
                                         write(p, "attachments/tool.py", "\n"),
                                         write(p, "solution/solution.en.md", "Add.\n")),
}


@pytest.mark.parametrize("change", ACCEPTED.values(), ids=list(ACCEPTED))
def test_what_2025_09_allows_gives_no_finding(change: Callable[[Path], object],
                                              copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("subtasks")
    change(root)
    report = verify(root, ("config", "statement", "data"))
    assert report.findings == [], describe(report)


def test_a_language_without_its_compiler_is_skipped_with_one_warning(
        copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("subtasks")
    # (a compiler no machine has: this one may have Zig, from setup.sh --languages)
    (root.parent / "languages.yaml").write_text("zig:\n  compile: [zig-not-here, \"{files}\"]\n")
    for name in ("a", "b"):
        write(root, f"submissions/accepted/{name}.zig", "pub fn main() void {}\n")
    write(root, "submissions/accepted/sum.py.disabled", "print(0)\n")
    (report,) = verify_all([root], ("submissions",)).problems  # (with the judge)
    found = [(f.severity, f.check, f.path) for f in report.findings]
    assert found == [
        (Severity.WARNING, "submissions", "submissions/accepted/sum.py.disabled"),
        (Severity.WARNING, "language", "submissions/accepted/a.zig"),
    ], describe(report)
    assert "'zig-not-here' for Zig is not installed: 2 submission(s) skipped" in report.findings[1].message


def test_submissions_yaml_names_the_entry_point_and_language(
        copy_sample: Callable[..., Path]) -> None:
    """2025-09: submissions.yaml's entrypoint and language keys decide how a submission is
    built where its files do not say (two Python files, neither main.py; no extension)."""
    root = copy_sample("subtasks")
    write(root, "submissions/accepted/two/helper.py", "def total(v):\n    return sum(v)\n")
    write(root, "submissions/accepted/two/solve.py",
          "from helper import total\ninput()\nprint(total(map(int, input().split())))\n")
    write(root, "submissions/accepted/plain", "input()\nprint(sum(map(int, input().split())))\n")
    append(root, "submissions/submissions.yaml",
           "accepted/two:\n  entrypoint: solve.py\naccepted/plain:\n  language: python3\n"
           "  entrypoint: plain\n")
    (report,) = verify_all([root], ("submissions",)).problems
    assert report.findings == [], describe(report)
    verdicts = {row.submission: row.verdict for row in report.submissions}
    assert verdicts["submissions/accepted/two"] is verdicts["submissions/accepted/plain"]
    assert verdicts["submissions/accepted/two"].value == "AC"


# An output validator that checks the sum itself: the answer file is not read.
SUM_VALIDATOR = """import sys
values = open(sys.argv[1]).read().split()[1:]
said = sys.stdin.read().split()
sys.exit(42 if said == [str(sum(map(int, values)))] else 43)
"""


@pytest.mark.parametrize(("version", "found"), [
    ("2025-09", []),  # a secret answer may be anything the validator reads
    ("2023-07-draft", [("warning", "answer", "data/secret/1-small/01-one.ans")]),
])
def test_secret_answers_are_outputs_only_in_the_drafts(
        copy_sample: Callable[..., Path], version: str, found: list[tuple[str, str, str]]) -> None:
    root = copy_sample("subtasks")
    replace(root, "problem.yaml", "2025-09", version)
    write(root, "output_validator/validate.py", SUM_VALIDATOR)
    write(root, "data/secret/1-small/01-one.ans", "see the input\n")
    (report,) = verify_all([root], ("validators",)).problems
    got = [(f.severity.value, f.check, f.path) for f in report.findings if f.check == "answer"]
    assert got == found, describe(report)


def test_a_sample_out_file_must_pass_the_validator(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("subtasks")
    write(root, "data/sample/1.out", "7\n")
    (report,) = verify_all([root], ("validators",)).problems
    got = [(f.severity.value, f.path) for f in report.findings if f.check == "answer"]
    assert got == [("error", "data/sample/1.out")], describe(report)
    assert "does not accept this sample output" in report.findings[0].message


def test_directories_that_are_not_groups_hold_test_cases(copy_sample: Callable[..., Path]) -> None:
    """2025-09: a directory without test_group.yaml organises test cases; its cases are
    its parent's (data/secret's directly, or a group's), at any depth."""
    root = copy_sample("hilo")
    case(root, "data/secret/more/deeper/x", "7\n")
    report = verify(root, ("config", "data"))
    assert report.findings == [], describe(report)
    tasks = copy_sample("subtasks")
    write(tasks, "data/secret/1-small/extra/03-two.in", "2\n1 2\n")
    write(tasks, "data/secret/1-small/extra/03-two.ans", "3\n")
    (report,) = verify_all([tasks], ("data", "submissions")).problems
    assert report.findings == [], describe(report)
    row = next(r for r in report.submissions if r.submission.endswith("int32.c"))
    assert row.score == 30  # its three cases in 1-small pass: the extra one counts there
