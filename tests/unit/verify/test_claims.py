"""verify/claims.py: whether a submission got what it claims, on judged results made by
hand (nothing runs)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.builders import write

from problemtools_py.judging.judged import JudgedCase, SubmissionResult
from problemtools_py.model import load_problem
from problemtools_py.model import problem as model
from problemtools_py.model.problem import CaseRule, Expectation, Program, Submission
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.verdicts import Verdict
from problemtools_py.verify.claims import expectation_findings
from problemtools_py.verify.context import Context, Options

V = Verdict
ACCEPTED = Expectation("directory accepted/", permitted=frozenset({V.AC}))
WRONG = Expectation("directory wrong_answer/", permitted=frozenset({V.AC, V.WA}),
                    required=frozenset({V.WA}))


@pytest.fixture
def ctx(tmp_path: Path) -> Iterator[Context]:
    write(tmp_path, "problem.yaml", "name: x\n")
    with SandboxPool(1) as pool:  # never started: nothing runs here
        yield Context.create(load_problem(tmp_path), Options(jobs=1), pool)


def result(exp: Expectation, *cases: tuple[str, Verdict, Verdict], message: str = "",
           compile_error: str | None = None) -> SubmissionResult:
    sub = Submission(Program("s.py", "submissions/x/s.py", False, ("submissions/x/s.py",), "python3"),
                     "x", (), exp)
    outcomes = [JudgedCase(model.TestCase(name, name.rsplit("/", 1)[0]), verdict, margin, 0.5, None,
                            message) for name, verdict, margin in cases]
    return SubmissionResult(sub, compile_error, outcomes, Verdict.AC)


def messages(ctx: Context, res: SubmissionResult) -> list[tuple[str, str]]:
    return [(f.severity.value, f.message) for f in expectation_findings(ctx, res, None)]


def test_an_accepted_submission_that_is_accepted(ctx: Context) -> None:
    assert messages(ctx, result(ACCEPTED, ("secret/1", V.AC, V.AC))) == []


def test_a_verdict_it_does_not_permit(ctx: Context) -> None:
    found = messages(ctx, result(ACCEPTED, ("sample/1", V.AC, V.AC), ("secret/1", V.WA, V.WA)))
    assert found == [("error", "got WA on secret/1 (CPU 0.50 s); directory accepted/ permits "
                                "only AC")]


def test_a_verdict_it_requires_never_came(ctx: Context) -> None:
    found = messages(ctx, result(WRONG, ("secret/1", V.AC, V.AC), ("secret/2", V.AC, V.AC)))
    assert found == [("error", "got only AC over 2 test cases; directory wrong_answer/ requires "
                                "WA on some test case")]


def test_sensitive_to_the_time_limit(ctx: Context) -> None:
    (found,) = messages(ctx, result(ACCEPTED, ("secret/1", V.AC, V.TLE)))
    assert found[0] == "warning" and found[1].startswith("sensitive to the time limit")


def test_compile_errors(ctx: Context) -> None:
    ce = Expectation("@EXPECTED_RESULT@: CE", compile_error=True)
    assert messages(ctx, result(ce)) == [
        ("error", "compiles, but @EXPECTED_RESULT@: CE expects a compile error")]
    assert messages(ctx, result(ce, compile_error="boom")) == []
    assert messages(ctx, result(ACCEPTED, compile_error="boom")) == [
        ("error", "does not compile: boom")]


def test_a_judge_error_is_the_judges(ctx: Context) -> None:
    found = messages(ctx, result(ACCEPTED, ("secret/1", V.JE, V.JE), message="validator crashed"))
    assert found == [("error", "judge error on secret/1: validator crashed")]


def test_submissions_yaml_rules_per_group_and_message(ctx: Context) -> None:
    exp = Expectation("submissions.yaml 'x'", permitted=frozenset({V.AC, V.WA}),
                      case_rules=(CaseRule("sample", permitted=frozenset({V.AC})),),
                      message="too slow")
    found = messages(ctx, result(exp, ("sample/1", V.WA, V.WA), ("secret/1", V.WA, V.WA),
                                 message="wrong"))
    assert found == [
        ("error", "got WA on sample/1 (CPU 0.50 s): wrong; submissions.yaml for 'sample' "
                  "permits only AC"),
        ("error", "no judge message contains 'too slow', which submissions.yaml requires"),
    ]


def test_a_results_list_with_ce_accepts_either(ctx: Context) -> None:
    """DOMjudge's @EXPECTED_RESULTS@: WRONG-ANSWER, COMPILER-ERROR: a compile error, or
    runs that end in one of the others."""
    from problemtools_py.model.expectations import resolve
    from problemtools_py.model.problem import Tag

    tag = Tag("EXPECTED_RESULTS", "WRONG-ANSWER, COMPILER-ERROR", "submissions/x.c", 1)
    exp, problems = resolve(None, [tag], modern=False, scoring=False)
    assert problems == [] and exp is not None and exp.compile_error_ok
    assert messages(ctx, result(exp, compile_error="boom")) == []
    assert messages(ctx, result(exp, ("secret/1", V.WA, V.WA))) == []
    assert messages(ctx, result(exp, ("secret/1", V.AC, V.AC))) == [
        ("error", "got only AC over 1 test cases; @EXPECTED_RESULTS@: WRONG-ANSWER, "
                  "COMPILER-ERROR requires WA on some test case")]

