"""What grading a completion gives: its reward and status, and the grader's settings."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from problemtools_py.verdicts import Verdict


class Status(StrEnum):
    """A graded completion's status: one word per outcome, as the dataset names verdicts
    (a ``str``: it is its own value in JSON, in comparisons and in f-strings).

    Four are no verdict of the program's: ``NO_CODE`` (no program in the completion),
    and the three the grader's side caused, which carry no reward at all (None) so that a
    trainer can retry or drop them (``NO_REWARD``): ``HARNESS_OVERLOAD`` (the machine
    starved the program, repeatedly), ``GRADER_ERROR`` (the grader failed) and
    ``JUDGE_ERROR`` (the problem's own validator or grader failed); an
    ``UNKNOWN_PROBLEM`` id and a ``BAD_ROW`` (a reward call's row that cannot be graded)
    are the caller's, also without reward."""

    OK = "ok"
    WRONG_ANSWER = "wrong_answer"
    TIMEOUT = "timeout"
    MEMORY = "memory"
    OUTPUT_LIMIT = "output_limit"
    RUNTIME_ERROR = "runtime_error"
    SYNTAX_ERROR = "syntax_error"  # a Python program that does not compile
    COMPILE_ERROR = "compile_error"  # a built language's program that does not build
    NO_CODE = "no_code"
    CODE_TOO_LARGE = "code_too_large"
    HARNESS_OVERLOAD = "harness_overload"
    GRADER_ERROR = "grader_error"
    JUDGE_ERROR = "judge_error"  # the problem's own judge failed (see grading.own_judge)
    UNKNOWN_PROBLEM = "unknown_problem"
    BAD_ROW = "bad_row"  # a reward call's row that cannot be graded (see rewards)


STATUS_OF = {
    Verdict.AC: Status.OK,
    Verdict.WA: Status.WRONG_ANSWER,
    Verdict.TLE: Status.TIMEOUT,
    Verdict.MLE: Status.MEMORY,
    Verdict.OLE: Status.OUTPUT_LIMIT,
    Verdict.RTE: Status.RUNTIME_ERROR,
    Verdict.CE: Status.SYNTAX_ERROR,
}
NO_REWARD = (Status.HARNESS_OVERLOAD, Status.GRADER_ERROR, Status.JUDGE_ERROR)
# A completion, and the program taken from it, past these sizes is CODE_TOO_LARGE
# (reward 0.0; issue 40): an 8 MB completion held the grader's interpreter for 9 s while
# it was compiled, and an honest program graded beside it timed out unable to write. A
# program of 256 KiB compiles in ~0.15 s (contest judges take 64 to 128 KiB).
MAX_COMPLETION_CHARS = 4 << 20
MAX_PROGRAM_BYTES = 256 << 10


@dataclass(frozen=True)
class GradeResult:
    """One completion graded: its reward and status, and the test that decided it."""

    reward: float | None  # None: the grader's side failed (see NO_REWARD)
    status: Status
    test: int | None = None  # index of the failing test
    cpu_seconds: float = 0.0  # of the failing test, or the most of any test
    wall_seconds: float = 0.0
    tests_run: int = 0
    message: str = ""
    retries: int = 0  # tests run again because the machine starved them
    judge_score: float | None = None  # a scoring problem's, by its judge (grading.own_judge)

    def as_dict(self) -> dict[str, Any]:
        """Every field (all flat); ``judge_score`` only when there is one."""
        found = {f.name: getattr(self, f.name) for f in fields(self)}
        if found["judge_score"] is None:
            del found["judge_score"]
        return found

    @classmethod
    def from_dict(cls, found: dict[str, Any]) -> GradeResult:
        """What ``as_dict`` gave (from another process), the status a Status again."""
        return cls(**{**found, "status": Status(found["status"])})


def too_large(what: str, size: int, cap: int, unit: str) -> GradeResult:
    """A completion or program past its cap (see MAX_COMPLETION_CHARS)."""
    why = f"{what} has {size:,} {unit}; at most {cap:,}"
    return GradeResult(0.0, Status.CODE_TOO_LARGE, message=why)


@dataclass(frozen=True)
class Settings:
    """How completions are graded: memory, output allowance, retries, pinning."""

    memory_mb: int = 2048
    output_factor: int = 4
    output_slack: int = 64 << 10
    raw: bool = False
    retries: int = 2  # per completion: starved tests run again, at most this many times
    pin: bool = True  # a worker's thread runs on the core it leased (see sandbox.cores)
    # Each test a fresh python3 (a new hash() seed per run, exactly as python3), not a
    # fork of the session's warm interpreter (one seed per session): about 5x the cost.
    fresh_python: bool = False
    # Python completions run by this interpreter or virtual environment (with its packages:
    # numpy, say), afresh each test, not by the sandbox's python3 (the standard library
    # only); see judge/interpreter.
    python: str | None = None
    # The reward: "dataset" (1.0 when every test passes, in order; the first failure
    # ends the run), "pass-rate" (the fraction passed, every test run) or "first-n" (the
    # dataset's rule on the first ``first_n`` tests).
    reward_mode: str = "dataset"
    first_n: int | None = None
    # The languages a completion may be in (the fence tag decides; untagged is Python).
    # Only Python is the dataset's rule.
    languages: tuple[str, ...] = ("python3",)
