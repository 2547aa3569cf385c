"""What judging a submission produced: per test case, and in all."""

from __future__ import annotations

from dataclasses import dataclass, field

from problemtools_py.model.problem import Submission, TestCase
from problemtools_py.verdicts import Verdict


@dataclass(frozen=True)
class JudgedCase:
    """A submission's result on one case, at the time limit and with the margin."""

    case: TestCase
    verdict: Verdict  # at the time limit
    at_margin: Verdict  # with the safety margin
    cpu: float
    score: float | None
    message: str
    multiplier: float | None = None  # score_multiplier.txt
    final: bool = False  # decided before the time was used (see CaseResult.final)
    starved: bool = False  # stopped by the wall clock while the machine kept it waiting

    def at(self, seconds: float) -> Verdict:
        """The verdict at a time limit of ``seconds``: over it, every run is a TLE (a judge
        stops it at the limit, before it crashes or answers), unless its verdict was final
        before the time was used (an interactive validator that rejected first) or is the
        judge's own error. The one place this rule is decided."""
        over = self.cpu > seconds and not self.final
        return Verdict.TLE if over and self.at_margin is not Verdict.JE else self.at_margin


@dataclass
class SubmissionResult:
    """A submission judged: its cases, its final verdict and score."""

    submission: Submission
    compile_error: str | None = None
    cases: list[JudgedCase] = field(default_factory=list)
    verdict: Verdict | None = None  # the final verdict (None: not judged)
    score: float | None = None

    @property
    def max_cpu(self) -> float:
        return max((c.cpu for c in self.cases), default=0.0)
