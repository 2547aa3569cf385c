"""What grading a completion gives: its reward and status, and the grader's settings."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from problemtools_py.verdicts import Verdict

# The dataset's names for verdicts. Three statuses are no verdict of the program's:
# "no_code" (no program in the completion), and the two the grader's side caused, which
# carry no reward at all (None), so a trainer can retry or drop them: "harness_overload"
# (the machine starved the program, repeatedly) and "grader_error" (the grader failed).
STATUS_OF = {
    Verdict.AC: "ok",
    Verdict.WA: "wrong_answer",
    Verdict.TLE: "timeout",
    Verdict.MLE: "memory",
    Verdict.OLE: "output_limit",
    Verdict.RTE: "runtime_error",
    Verdict.CE: "syntax_error",
}
NO_REWARD = ("harness_overload", "grader_error")
# A completion, and the program taken from it, past these sizes is "code_too_large"
# (reward 0.0; issue 40): an 8 MB completion held the grader's interpreter for 9 s while
# it was compiled, and an honest program graded beside it timed out unable to write. A
# program of 256 KiB compiles in ~0.15 s (contest judges take 64 to 128 KiB).
MAX_COMPLETION_CHARS = 4 << 20
MAX_PROGRAM_BYTES = 256 << 10
TOO_LARGE = "code_too_large"


@dataclass(frozen=True)
class GradeResult:
    """One completion graded: its reward and status, and the test that decided it."""

    reward: float | None  # None: the grader's side failed (see NO_REWARD)
    status: str
    test: int | None = None  # index of the failing test
    cpu_seconds: float = 0.0  # of the failing test, or the most of any test
    wall_seconds: float = 0.0
    tests_run: int = 0
    message: str = ""
    retries: int = 0  # tests run again because the machine starved them

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}  # (all flat)


@dataclass(frozen=True)
class Settings:
    """How completions are graded: memory, output allowance, retries, pinning."""

    memory_mb: int = 2048
    output_factor: int = 4
    output_slack: int = 64 << 10
    raw: bool = False
    retries: int = 2  # per completion: starved tests run again, at most this many times
    pin: bool = True  # when the workers take every core: worker k runs on core k
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
