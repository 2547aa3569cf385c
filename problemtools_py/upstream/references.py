"""The card's steps that run programs, in its order: no passing Python 3 reference, a
reference too slow, references that disagree, too few tests; then the row with the
card's time limit.

Each reference is graded as a completion is (:class:`~problemtools_py.grading.grader.
Grader`: the dataset's comparator, every test in order, CPU time; the machine's load
never decides, see Settings.retries), with REFERENCE_SECONDS of CPU a test. One that does
not compile as Python 3 is no Python 3 reference (the card: most are Python 2); Python 3
references are tried in order until ``tried`` of them ran. They *disagree* when one
passes every test and another answers one wrong (a crash or a timeout is no answer).
The row's reference is its first that passes within the CPU allowed: the same one on
every run, whichever the clock favoured (its time limit depends on its CPU time only past
the card's floor of 4 x the upstream limit)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from problemtools_py.dataset.build import dataset_time_limit
from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.schema import origin_json, tests_json
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.problems import Fetched
from problemtools_py.grading.results import GradeResult, Status
from problemtools_py.judge import python2
from problemtools_py.upstream.curate import (
    DISAGREE,
    FIGURE,
    NO_REFERENCE,
    SEVERAL,
    TOO_FEW,
    TOO_SLOW,
    Dropped,
    Screened,
)
from problemtools_py.upstream.judged import judge_of
from problemtools_py.upstream.problem import Tests, Upstream
from problemtools_py.upstream.python2 import to_python3

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
    # Python 2 references, when no Python 3 one passes, converted with 2to3 and run (the
    # card's v1.1 ``py2to3``); v1 did not.
    convert_python2: bool = False
    wrong_tried: int = 0  # known-wrong programs run on a kept row (its package's)


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
    # known-wrong programs the tests reject: (the package's directory, language, source)
    wrong: tuple[tuple[str, str, str], ...] = ()
    judge_json: str = ""  # its own judge (--keep-judges: a checker the comparator is not)


class _Trial:
    """A row's references graded in turn, sorted by what they did."""

    def __init__(self, grader: Grader, tests: Tests, tried: int, judge: str = "") -> None:
        self.grader, self.tests, self.tried, self.judge = grader, tests, tried, judge
        self.passing: list[tuple[str, float]] = []
        self.wrong: list[tuple[int, GradeResult]] = []
        self.python2: list[tuple[int, str]] = []
        self.failures = 0
        self.first_failure = ""

    def full(self) -> bool:
        return len(self.passing) + len(self.wrong) + self.failures >= self.tried

    def run(self, number: int, code: str) -> None:
        result = graded(self.grader, self.tests, REFERENCE_SECONDS, code, self.judge)
        if result.reward == 1.0:
            self.passing.append((code, result.cpu_seconds))
        elif result.status is Status.WRONG_ANSWER:
            self.wrong.append((number, result))
        elif python2.python2_sign(result.message) is not None:
            self.python2.append((number, code))  # (no Python 3 reference: Python 2's)
        elif result.status is not Status.SYNTAX_ERROR:
            self.failures += 1
            self.first_failure = self.first_failure or f"reference {number}: {_said(result)}"


def graded(
    grader: Grader,
    tests: Tests,
    seconds: float,
    code: str,
    judge: str,
    language: str | None = None,
) -> GradeResult:
    """A program on the row's tests: by the comparator, or by the row's own ``judge``
    (its judge_json; "" for the comparator)."""
    if not judge:
        return grader.grade_tests(tests, seconds, code, language)
    found = Fetched(tests, seconds, judge)
    return grader.grade_by_judge(found.content_key, found, code, language)


def curated(grader: Grader, screened: Screened, options: RowOptions) -> Kept | Dropped:
    problem, tests = screened.problem, screened.tests
    judge = judge_of(screened.judge, len(tests), problem.key) if screened.judge else ""
    if judge is None:
        return Dropped(SEVERAL, "its checker's judge is over 4 MiB")
    trial, kind = _Trial(grader, tests, options.tried, judge), "python_reference"
    for number, code in enumerate(problem.references, start=1):
        if trial.full():
            break
        trial.run(number, code)
    if not trial.passing and options.convert_python2 and trial.python2:
        kind = "py2to3"
        for number, code in list(trial.python2):
            converted = to_python3(code)
            if converted is not None and not trial.full():
                trial.run(number, converted)
    wrong = trial.wrong
    if not trial.passing and options.allow_no_reference and not wrong:
        figure = shows_a_figure(problem)
        if figure is not None:  # (the tests alone, and a figure nobody checked in words)
            return Dropped(FIGURE, figure)
        if len(tests) < options.min_tests:
            return Dropped(TOO_FEW, f"{len(tests)} < {options.min_tests}")
        return _row(screened, options, "", 0.0, (), "upstream_tests_only", judge)
    if not trial.passing:
        given = len(problem.references)
        return Dropped(NO_REFERENCE, _none_passed(given, trial, options.convert_python2))
    fast = [(c, s) for c, s in trial.passing if s <= options.max_reference_seconds]
    if not fast:  # (the bound in the detail, not the clock's reading: the files repeat)
        limit = options.max_reference_seconds
        return Dropped(TOO_SLOW, f"every passing reference takes over {limit:g} s on a test")
    code, slowest = fast[0]  # (the row's first: never which one the clock favoured)
    if wrong:
        number, result = wrong[0]
        return Dropped(DISAGREE, f"reference {number} answers test {result.test} otherwise")
    if len(tests) < options.min_tests:
        return Dropped(TOO_FEW, f"{len(tests)} < {options.min_tests}")
    others = tuple(c for c, _ in trial.passing if c != code)
    row = _row(screened, options, code, slowest, others, kind, judge)
    if not options.wrong_tried or not problem.wrong:
        return row
    rejected = _rejected(grader, screened, row.time_limit_s, options.wrong_tried, judge)
    return replace(row, wrong=rejected)


_FIGURE = re.compile(r"<image>|<img\b|!\[[^\]]*\]\(|\\includegraphics", re.IGNORECASE)


def shows_a_figure(problem: Upstream) -> str | None:
    """How the statement shows a figure (Codeforces' ``<image>``, an HTML or Markdown
    image, LaTeX's ``\\includegraphics``, TACO's ``picture_num``), or None."""
    found = _FIGURE.search(problem.statement)
    if found is not None:
        return f"the statement has {found.group(0)!r}"
    pictures = str(problem.origin.get("picture_num") or "0")
    return None if pictures in ("0", "") else f"{pictures} pictures (picture_num)"


DIRECTORY_OF = {
    Status.WRONG_ANSWER: "wrong_answer",
    Status.TIMEOUT: "time_limit_exceeded",
    Status.RUNTIME_ERROR: "run_time_error",
    Status.MEMORY: "run_time_error",
    Status.OUTPUT_LIMIT: "run_time_error",
}


def _rejected(
    grader: Grader, screened: Screened, time_limit: float, tried: int, judge: str
) -> tuple[tuple[str, str, str], ...]:
    """The first ``tried`` known-wrong programs, each with the directory its verdict on
    the row's tests puts it in; one the tests pass, or that does not build, is left out."""
    found = []
    for language, code in screened.problem.wrong[:tried]:
        result = graded(grader, screened.tests, time_limit, code, judge, language)
        directory = DIRECTORY_OF.get(result.status)
        if directory is not None:
            found.append((directory, language, code))
    return tuple(found)


def _row(
    screened: Screened,
    options: RowOptions,
    code: str,
    slowest: float,
    others: tuple[str, ...],
    kind: str,
    judge: str,
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
        judge_json=judge,
    )


def _said(result: GradeResult) -> str:
    message = " ".join(result.message.split())
    return f"{result.status}" + (f" ({message[:120]})" if message else "")


def _none_passed(given: int, trial: _Trial, converted: bool) -> str:
    if given == 0:
        return "the row has no solution"
    parts = [f"{given} solution(s)"]
    if trial.python2:
        how = ", converted with 2to3" if converted else ""
        parts.append(f"{len({n for n, _ in trial.python2})} Python 2{how}")
    if trial.wrong:
        number, result = trial.wrong[0]
        parts.append(f"reference {number} answers test {result.test} wrong")
    if trial.first_failure:
        parts.append(trial.first_failure)
    return "; ".join(parts)
