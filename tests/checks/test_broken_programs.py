"""Validator, grader, submission and include checks, each triggered on a broken copy."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.broken import Broken, E, W, assert_reported
from helpers.builders import append, move, remove, replace, write

HELLO_WA = "submissions/wrong_answer/world.py"

VALIDATOR_CASES = [
    Broken("no-input-validators", "hello", lambda p: remove(p, "input_validators"), E,
           "validators", "no input validators found"),
    Broken("both-input-validator-dirs", "hello", lambda p: write(p,
           "input_format_validators/v2.py", "import sys\nsys.exit(42)\n"), W, "validators",
           "both input_validators/ and input_format_validators/"),
    Broken("validator-build-without-run", "average", lambda p: write(p,
           "input_format_validators/checkavg/build", "#!/bin/sh\n"), E, "program",
           "has a 'build' script but no 'run' script", "input_format_validators/checkavg"),
    Broken("validator-unknown-language", "hello", lambda p: write(p, "input_validators/check.xyz",
           "?\n"), E, "program", "cannot tell the language", "input_validators/check.xyz"),
    Broken("validator-header-without-a-program-to-include-it", "hello", lambda p: write(p,
           "input_validators/lonely.h", "#pragma once\n"), E, "program",
           "cannot tell the language", "input_validators/lonely.h"),
    Broken("validator-empty-dir", "hello", lambda p: (p / "input_validators/empty").mkdir(), E,
           "program", "input validator directory is empty"),
    Broken("validator-name-clash", "hello", lambda p: write(p, "input_validators/validate.c",
           "int main(void){return 42;}\n"), E, "program", "share the name 'validate'"),
    Broken("custom-validation-no-validator", "divisor", lambda p: remove(p,
           "output_validators"), E, "validators",
           "validation is custom, but there is no output validator"),
    Broken("output-validator-unused", "hello", lambda p: write(p, "output_validators/v/v.py",
           "import sys\nsys.exit(42)\n"), W, "validators", "validation is not custom"),
    Broken("modern-interactive-no-validator", "different", lambda p: replace(p, "problem.yaml",
           "type: pass-fail", "type: interactive"), E, "validators",
           "the problem is interactive, but there is no output validator"),
]

GRADER_CASES = [
    Broken("custom-grading-no-grader", "bigsum", lambda p: remove(p, "graders"), E, "graders",
           "custom grading is asked for, but graders/ has no grader", "data/testdata.yaml"),
    Broken("seed-custom-grader-missing", "average", lambda p: replace(p, "problem.yaml",
           "grader: first_error", "grader: custom"), E, "graders", "graders/ has no grader",
           "problem.yaml"),
    Broken("two-graders", "bigsum", lambda p: write(p, "graders/other.py", "print('AC 0')\n"), E,
           "graders", "more than one grader"),
    Broken("grader-on-pass-fail", "hello", lambda p: write(p, "graders/g.py", "print('AC 0')\n"),
           W, "graders", "graders only apply to scoring problems"),
    Broken("grader-unused", "bigsum", lambda p: replace(p, "data/testdata.yaml",
           "grading: custom", "grading: default"), W, "graders", "no test group uses"),
]

SUBMISSION_CASES = [
    Broken("submissions-missing", "hello", lambda p: remove(p, "submissions"), E, "submissions",
           "submissions/ directory is missing"),
    Broken("submissions-empty", "hello", lambda p: [remove(p, "submissions"),
           (p / "submissions").mkdir()], E, "submissions", "there are no submissions"),
    Broken("no-accepted", "hello", lambda p: remove(p, "submissions/accepted"), E, "submissions",
           "there is no accepted submission"),
    Broken("no-accepted-seed-tags", "average", lambda p: [replace(p, "submissions/mean.py",
           "@EXPECTED_RESULT@: AC", "@EXPECTED_RESULT@: WA"), replace(p, "submissions/mean.cpp",
           "@EXPECTED_RESULT@: AC", "@EXPECTED_RESULT@: TLE")], E, "submissions",
           "there is no accepted submission"),
    Broken("partially-accepted-pass-fail", "hello", lambda p: write(p,
           "submissions/partially_accepted/x.py", "print(1)\n"), E, "submissions",
           "partially_accepted/ is only for scoring problems"),
    Broken("modern-dir-in-legacy", "hello", lambda p: write(p, "submissions/rejected/x.py",
           "print(1)\n"), W, "submissions", "'rejected/' is no directory of the legacy format "
           "(programs any rejection suits; a directory of 2023-07 on"),
    Broken("legacy-dir-in-modern", "different", lambda p: write(p,
           "submissions/partially_accepted/x.py", "print(1)\n"), W, "submissions",
           "'partially_accepted/' is a legacy directory"),
    Broken("misspelled-category", "hello", lambda p: move(p, "submissions/wrong_answer",
           "submissions/wrong_answers"), W, "submissions", "did you mean 'wrong_answer'?",
           "submissions/wrong_answers"),
    Broken("tag-unknown-value", "average", lambda p: replace(p, "submissions/intdiv.c",
           "@EXPECTED_RESULT@: WA", "@EXPECTED_RESULT@: MAYBE"), E, "expected-result",
           "unknown expected result 'MAYBE'", "submissions/intdiv.c", 1),
    Broken("tag-twice", "average", lambda p: append(p, "submissions/mean.py",
           "# @EXPECTED_RESULT@: AC\n"), E, "expected-result", "more than one", "submissions/mean.py",
           5),
    Broken("tag-score-pass-fail", "average", lambda p: replace(p, "submissions/mean.py",
           "@EXPECTED_RESULT@: AC", "@EXPECTED_RESULT@: 100"), E, "expected-result",
           "a score is only allowed on a scoring problem"),
    Broken("tag-disagrees-with-dir", "hello", lambda p: append(p, HELLO_WA,
           "# @EXPECTED_RESULT@: TLE\n"), W, "expected-result",
           "tag disagrees with directory wrong_answer/", HELLO_WA, 3),
    Broken("results-list-unknown", "average", lambda p: replace(p, "submissions/rounded.py",
           "WRONG-ANSWER", "WRONG-ANSWER, SLOW"), E, "expected-result",
           "unknown verdict(s) in @EXPECTED_RESULTS@: SLOW"),
    Broken("modern-no-expectation", "different", lambda p: write(p, "submissions/extra/x.py",
           "print(1)\n"), W, "expected-result", "no expected result", "submissions/extra/x.py"),
    Broken("modern-top-level-file", "different", lambda p: write(p, "submissions/x.py",
           "print(1)\n"), E, "submissions", "belong in a subdirectory", "submissions/x.py"),
    Broken("submission-unknown-language", "hello", lambda p: write(p,
           "submissions/accepted/hello.py.disabled", "?\n"), W, "submissions",
           "claims this submission's file names (a disabled one?); it is skipped",
           "submissions/accepted/hello.py.disabled"),
    Broken("legacy-unknown-directory-skipped", "hello", lambda p: write(p,
           "submissions/slow_accepted/slow.py", "print('Hello World!')\n"), W, "submissions",
           "'slow_accepted/' is no directory of the legacy format (problemtools' examples: "
           "accepted programs too slow for the limit): its programs with an @EXPECTED_RESULTS@ "
           "tag are judged by the tag, as DOMjudge judges them (0 tagged; 1 without a tag not "
           "judged)", "submissions/slow_accepted"),
    Broken("legacy-mixed-directory-judged-by-tags", "hello", lambda p: (
           write(p, "submissions/mixed/a.py", "# @EXPECTED_RESULTS@: ACCEPTED, TIME_LIMIT_EXCEEDED\n"
                 "print(f'Hello {input()}!')\n"),
           write(p, "submissions/mixed/b.py", "# @EXPECTED_RESULTS@: WRONG_ANSWER\nprint(1)\n")),
           W, "submissions", "'mixed/' is no directory of the legacy format (BAPCtools' and "
           "DOMjudge's programs whose verdict depends on the test case): its programs with an "
           "@EXPECTED_RESULTS@ tag are judged by the tag, as DOMjudge judges them (2 tagged; 0 "
           "without a tag not judged)", "submissions/mixed"),
    Broken("legacy-unknown-directory-near-a-standard-one", "hello", lambda p: write(p,
           "submissions/acepted/x.py", "print(1)\n"), W, "submissions",
           "'acepted/' is no directory of the legacy format; did you mean 'accepted'?"),
    Broken("submission-empty-dir", "hello", lambda p: (p / "submissions/accepted/prog").mkdir(),
           E, "submissions", "submission directory is empty"),
    Broken("submission-language-not-allowed", "average", lambda p: replace(p, "problem.yaml",
           "languages: all", "languages: python3 c"), W, "submissions",
           "language 'cpp' is not among the problem's languages"),
    Broken("submissions-yaml-in-legacy", "hello", lambda p: write(p,
           "submissions/submissions.yaml", "{}\n"), W, "submissions", "submissions.yaml is a 2023-07 file"),
    Broken("submissions-yaml-schema", "different", lambda p: replace(p,
           "submissions/submissions.yaml", "permitted: [AC, WA]", "permitted: [AC, XX]"), E,
           "submissions-yaml", "rejected/nosign.py.permitted[1]: 'XX' is not one of",
           "submissions/submissions.yaml", 5),
    Broken("submissions-yaml-no-match", "different", lambda p: append(p,
           "submissions/submissions.yaml", "accepted/nothing.*:\n  permitted: [AC]\n"), W,
           "submissions-yaml", "'accepted/nothing.*' matches no submission"),
    Broken("submissions-yaml-syntax", "different", lambda p: append(p,
           "submissions/submissions.yaml", "x: [\n"), E, "submissions-yaml", "YAML syntax error"),
    Broken("include-unknown-language", "hello", lambda p: write(p, "include/pyton/util.py", "x=1\n"),
           E, "include", "did you mean 'python3'?", "include/pyton"),
    Broken("include-empty", "hello", lambda p: (p / "include/cpp").mkdir(parents=True), W,
           "include", "include directory is empty", "include/cpp"),
    Broken("include-modern-empty", "different", lambda p: (p / "include/default").mkdir(
           parents=True), E, "include", "include directory is empty", "include/default"),
    Broken("include-loose-file", "hello", lambda p: write(p, "include/util.h", "int x;\n"), E,
           "include", "belong in include/<language>/"),
]


@pytest.mark.parametrize("broken", VALIDATOR_CASES, ids=[c.id for c in VALIDATOR_CASES])
def test_broken_validators(broken: Broken, copy_sample: Callable[..., Path]) -> None:
    assert_reported(broken, copy_sample)


@pytest.mark.parametrize("broken", GRADER_CASES, ids=[c.id for c in GRADER_CASES])
def test_broken_graders(broken: Broken, copy_sample: Callable[..., Path]) -> None:
    assert_reported(broken, copy_sample)


@pytest.mark.parametrize("broken", SUBMISSION_CASES, ids=[c.id for c in SUBMISSION_CASES])
def test_broken_submissions(broken: Broken, copy_sample: Callable[..., Path]) -> None:
    assert_reported(broken, copy_sample)
