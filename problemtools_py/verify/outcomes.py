"""What judging a submission produced: per test case, and in all."""

from __future__ import annotations

from dataclasses import dataclass, field

from problemtools_py.model.problem import Submission, TestCase
from problemtools_py.verdicts import Verdict


@dataclass(frozen=True)
class CaseOutcome:
    """A submission's result on one case, at the time limit and with the margin."""

    case: TestCase
    verdict: Verdict  # at the time limit
    at_margin: Verdict  # with the safety margin
    cpu: float
    score: float | None
    message: str
    multiplier: float | None = None  # score_multiplier.txt


@dataclass
class SubmissionResult:
    """A submission judged: its cases, its final verdict and score."""

    submission: Submission
    compile_error: str | None = None
    cases: list[CaseOutcome] = field(default_factory=list)
    verdict: Verdict | None = None  # the final verdict (None: not judged)
    score: float | None = None

    @property
    def max_cpu(self) -> float:
        return max((c.cpu for c in self.cases), default=0.0)
