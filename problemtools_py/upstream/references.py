"""The card's steps that run programs, in its order: no passing Python 3 reference, a
reference too slow, references that disagree, too few tests; then the row with the
card's time limit.

Each reference is graded as a completion is (:class:`~problemtools_py.grading.grader.
Grader`: the dataset's comparator, every test in order, CPU time; the machine's load
never decides, see Settings.retries), with REFERENCE_SECONDS of CPU a test. One that does
not compile as Python 3 is no Python 3 reference (the card: most are Python 2); Python 3
references are tried in order until ``tried`` of them ran. They *disagree* when one
passes every test and another answers one wrong (a crash or a timeout is no answer)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from problemtools_py.dataset.build import dataset_time_limit
from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.schema import origin_json, tests_json
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.results import GradeResult, Status
from problemtools_py.judge import python2
from problemtools_py.upstream.curate import (
    DISAGREE,
    NO_REFERENCE,
    TOO_FEW,
    TOO_SLOW,
    Dropped,
    Screened,
)

REFERENCE_SECONDS = 10.0


@dataclass(frozen=True)
class RowOptions:
    """How a screened row becomes a row: its split, the least tests, the slowest
    reference allowed, and how many Python 3 references run."""

    split: str = "train"
    min_tests: int = 5
    max_reference_seconds: float = 2.0
    tried: int = 3  # Python 3 references run per problem
    # A row no reference passes is kept on its upstream tests alone (the card's v1.1
    # ``upstream_tests_only``), unless a reference answers a test wrong.
    allow_no_reference: bool = False


@dataclass(frozen=True)
class Kept:
    """A curated row: the card's columns, its reference and the other passing ones."""

    problem_id: str
    split: str
    statement: str
    tests_json: str
    time_limit_s: float
    origin_json: str
    reference: str
    others: tuple[str, ...] = ()  # further references that passed (the package's accepted/)


def curated(grader: Grader, screened: Screened, options: RowOptions) -> Kept | Dropped:
    problem, tests = screened.problem, screened.tests
    passing: list[tuple[str, float]] = []
    wrong: list[tuple[int, GradeResult]] = []
    python2_count = failures = 0
    first_failure = ""
    for number, code in enumerate(problem.references, start=1):
        if len(passing) + len(wrong) + failures >= options.tried:
            break
        result = grader.grade_tests(tests, REFERENCE_SECONDS, code)
        if result.status is Status.SYNTAX_ERROR:
            python2_count += python2.python2_sign(result.message) is not None
            continue
        if result.reward == 1.0:
            passing.append((code, result.cpu_seconds))
        elif result.status is Status.WRONG_ANSWER:
            wrong.append((number, result))
        elif python2.python2_sign(result.message) is not None:
            python2_count += 1  # (Python 2 that compiles, e.g. raw_input: no Python 3 one)
        else:
            failures += 1
            first_failure = first_failure or f"reference {number}: {_said(result)}"
    if not passing and options.allow_no_reference and not wrong:
        if len(tests) < options.min_tests:
            return Dropped(TOO_FEW, f"{len(tests)} < {options.min_tests}")
        return _row(screened, options, "", 0.0, (), "upstream_tests_only")
    if not passing:
        return Dropped(
            NO_REFERENCE, _none_passed(len(problem.references), python2_count, wrong, first_failure)
        )
    code, slowest = min(passing, key=lambda item: item[1])
    if slowest > options.max_reference_seconds:
        return Dropped(TOO_SLOW, f"{slowest:.2f} s of CPU on a test")
    if wrong:
        number, result = wrong[0]
        return Dropped(DISAGREE, f"reference {number} answers test {result.test} otherwise")
    if len(tests) < options.min_tests:
        return Dropped(TOO_FEW, f"{len(tests)} < {options.min_tests}")
    return _row(screened, options, code, slowest, tuple(c for c, _ in passing if c != code))


def _row(
    screened: Screened,
    options: RowOptions,
    code: str,
    slowest: float,
    others: tuple[str, ...],
    kind: str = "python_reference",
) -> Kept:
    problem = screened.problem
    upstream = problem.time_limit_s
    origin: dict[str, Any] = {
        **problem.origin,
        "source": problem.source,
        "row": problem.key,
        "reference_kind": kind,
        "upstream_time_limit_s": upstream,
    }
    return Kept(
        problem_id(problem.statement),
        options.split,
        problem.statement,
        tests_json(list(screened.tests)),
        dataset_time_limit(upstream if upstream is not None else 1.0, slowest),
        origin_json(origin),
        code,
        others,
    )


def _said(result: GradeResult) -> str:
    message = " ".join(result.message.split())
    return f"{result.status}" + (f" ({message[:120]})" if message else "")


def _none_passed(
    given: int, python2_count: int, wrong: list[tuple[int, GradeResult]], failure: str
) -> str:
    if given == 0:
        return "the row has no solution"
    parts = [f"{given} solution(s)"]
    if python2_count:
        parts.append(f"{python2_count} Python 2")
    if wrong:
        parts.append(f"reference {wrong[0][0]} answers test {wrong[0][1].test} wrong")
    if failure:
        parts.append(failure)
    return "; ".join(parts)
