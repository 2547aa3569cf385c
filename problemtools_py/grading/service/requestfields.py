"""What a gradeserver request's fields mean, and when a request cannot be served
(:class:`BadRequest`: a 400, or on /grade by default an item flagged bad_row): its
seconds, language, tests (any shape compute_score takes), SandboxFusion's stdio cases."""

from __future__ import annotations

import json
from typing import Any

from problemtools_py.errors import FatalError
from problemtools_py.grading.extract import language_named
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.problems import Fetched
from problemtools_py.grading.results import GradeResult
from problemtools_py.grading.rewardargs import MAX_TIME_LIMIT, RewardError, language_code
from problemtools_py.grading.shapes import Suite, seconds_of, suite_of

# the most seconds a SandboxFusion request may ask for one run (run_timeout): one run holds
# a grader for that long, and the queue is bounded, not the time; a test's time_limit
# has compute_score's bound (rewardargs.MAX_TIME_LIMIT)
MAX_SECONDS = 900.0


class BadRequest(ValueError):
    """A request body that cannot be served."""


def seconds(value: object, default: float, name: str) -> float:
    """SandboxFusion's seconds (run_timeout, compile_timeout): absent or 0 is the
    default, as it reads them; else a number in (0, MAX_SECONDS] (shapes.seconds_of)."""
    try:
        return seconds_of(value, default, MAX_SECONDS, name, zero_is_default=True)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None


def time_limit_of(value: object, default: float) -> float:
    """A /grade item's time_limit, read as compute_score reads a row's (one bound)."""
    try:
        return seconds_of(value, default, MAX_TIME_LIMIT)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None


def language_of(value: object) -> str:
    """A /grade item's language, read as compute_score reads a row's
    (rewardargs.language_code); one no judge knows is the caller's error."""
    try:
        code = language_code(value)
    except RewardError as exc:
        raise BadRequest(str(exc)) from None
    if code is None or language_named(code) is None:
        raise BadRequest(f"unknown language {value!r}")
    return code


def by_judge(
    grader: Grader, key: str, found: Fetched, completion: str, language: str | None
) -> GradeResult:
    try:
        return grader.grade_by_judge(key, found, completion, language)
    except FatalError as exc:  # (a judge that does not fit its tests)
        raise BadRequest(f"judge_json: {exc}") from None


def suite_of_item(tests: object, fn_name: object) -> Suite:
    """The tests of a /grade item, in any shape compute_score takes (see grading.shapes)."""
    try:
        suite = suite_of(tests, fn_name if isinstance(fn_name, str) else None)
        for given, wanted in suite.tests:
            f"{given}{wanted}".encode()  # (a lone surrogate: the item flagged, or a 400)
        return suite
    except UnicodeEncodeError:
        raise BadRequest("tests: a string is no valid Unicode (a lone surrogate)") from None
    except (ValueError, TypeError, RecursionError) as exc:
        raise BadRequest(f"tests: {exc or 'nested too deeply'}") from None


def printable(fields: dict[str, Any]) -> dict[str, Any]:
    """Echoed fields without a string that is no valid Unicode (it cannot be answered)."""
    try:
        json.dumps(fields, ensure_ascii=False).encode()
        return fields
    except UnicodeEncodeError:
        return {}


def stdio_cases(data: object) -> list[tuple[str, str]]:
    tests = data.get("test") if isinstance(data, dict) else None
    if isinstance(tests, str):
        try:
            tests = json.loads(tests)
        except ValueError:
            raise BadRequest("provided_data.test is not valid JSON") from None
    if not isinstance(tests, list) or not tests:
        raise BadRequest("config.provided_data.test must list the cases")
    cases = []
    for case in tests:
        given = case.get("input") if isinstance(case, dict) else None
        wanted = case.get("output") if isinstance(case, dict) else None
        stdin = given.get("stdin") if isinstance(given, dict) else None
        stdout = wanted.get("stdout") if isinstance(wanted, dict) else None
        if not isinstance(stdin, str) or not isinstance(stdout, str):
            raise BadRequest("each case is {input: {stdin}, output: {stdout}}")
        f"{stdin}{stdout}".encode()  # (a lone surrogate: 400, see _errors)
        cases.append((stdin, stdout))
    return cases
