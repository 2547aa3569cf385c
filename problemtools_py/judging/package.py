"""A program judged on a whole package by the package's own judge, as verifyproblem judges
a submission: every test case (up to the first failure of a pass-fail problem, or all
with ``RunUntil.EVERY_CASE``), each by the package's output validator with its arguments,
interactively or in passes as the package says, then graded over the test groups. What
kattis2parquet's check of a reference and the RL grader's problems with their own judge
ask; verdicts of validators kept in memory by content, never in the user's cache file."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from problemtools_py.judge.compile import Executable
from problemtools_py.judge.graders import CaseScore
from problemtools_py.judge.held import HeldJail
from problemtools_py.judging.judged import JudgedCase
from problemtools_py.judging.policy import Policy
from problemtools_py.judging.scoring import Scorer
from problemtools_py.judging.session import Session
from problemtools_py.judging.submission_judge import SubmissionJudge
from problemtools_py.model import load_problem
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.results import Limits
from problemtools_py.verdicts import Verdict
from problemtools_py.workbench.cache import MemoryVerdicts

Jails = Callable[[Executable, Limits], HeldJail]  # where a program's runs go (see judge.held)


@dataclass(frozen=True)
class PackageVerdict:
    """A program judged on a package: its verdict and score over the test groups, the
    cases judged (in order), the first that failed (its index), the first the machine
    starved on every try (its index), and the judge's own errors."""

    verdict: Verdict
    score: float | None
    judged: list[JudgedCase]
    failed: int | None
    starved: int | None
    error: str

    @property
    def first_failure(self) -> JudgedCase | None:
        return self.judged[self.failed] if self.failed is not None else None


class PackageJudge:
    """One package's judge, used by many threads at once: built once (its validators and
    graders), then :meth:`judge` per program."""

    def __init__(
        self,
        root: Path,
        time_limit: float,
        pool: SandboxPool,
        policy: Policy,
        jails: Jails | None = None,
        retries: int = 2,
    ) -> None:
        """``pool``: where the runs go (a program's jail and its validator's at once, per
        thread); ``jails``: where a program's runs go instead (else jails held for each
        one's cases, as verifyproblem runs them); ``retries``: times a case the machine
        starved runs again."""
        problem = load_problem(root)
        self.time_limit = time_limit
        self.scoring = problem.config.scoring
        self.ctx = Session.start(problem, policy, pool)
        self.ctx.verdicts = MemoryVerdicts()
        self.cases_judge = SubmissionJudge(self.ctx, jails)
        self.cases_judge.starved_retries = retries
        self.error = self.cases_judge.checker.error  # (the validator does not build)
        self.scorer = Scorer(self.ctx, self.cases_judge.work)
        self.error = self.error or "; ".join(self.scorer.errors)
        self._top: float | None = None
        self._lock = threading.Lock()

    def close(self) -> None:
        self.scorer.close()
        self.ctx.close()
        shutil.rmtree(self.cases_judge.work, ignore_errors=True)

    @property
    def cases(self) -> int:
        return len(self.cases_judge.cases)

    def judge(self, exe: Executable) -> PackageVerdict:
        """``exe`` judged on every case (see the module's text) and graded."""
        judged = self.cases_judge.run(exe, self.time_limit, self.time_limit)
        starved = next((i for i, c in enumerate(judged) if c.starved), None)
        results = {c.case.name: CaseScore(c.verdict, c.score, c.multiplier) for c in judged}
        grade, errors = self.scorer.grade(results)
        failed = next((i for i, c in enumerate(judged) if c.verdict is not Verdict.AC), None)
        error = grade.error or "; ".join(errors)
        return PackageVerdict(grade.verdict, grade.score, judged, failed, starved, error)

    def groups(self) -> list[set[str]]:
        """The cases of each test group below data/secret that has cases of its own."""
        problem = self.ctx.problem
        secret = problem.data.child("secret") if problem.data is not None else None
        found = []
        for group in secret.walk() if secret is not None else ():
            cases = {c.name for c in problem.group_cases(group)}
            if group is not secret and cases:
                found.append(cases)
        return found

    def top(self) -> float:
        """The most a program scores: every test case accepted (at its own full score)."""
        with self._lock:
            if self._top is None:
                every = {c.name: CaseScore(Verdict.AC, None, None) for c in self.cases_judge.cases}
                self._top = self.scorer.grade(every)[0].score
            return self._top


@contextmanager
def reference_check(
    root: Path, seconds: float, pool: SandboxPool
) -> Iterator[Callable[[Executable], tuple[float | None, str]]]:
    """A reference judged by the package at ``root`` (kattis2parquet --keep-judges), at
    ``seconds`` of CPU a test: its slowest test's CPU time when it is accepted with full
    marks, else None and why."""
    judge = PackageJudge(root, seconds, pool, Policy(jobs=1))
    try:

        def run(exe: Executable) -> tuple[float | None, str]:
            if judge.error:
                return None, judge.error
            found = judge.judge(exe)
            full = not judge.scoring or (found.score or 0.0) >= judge.top()
            if found.verdict is Verdict.AC and full and found.starved is None:
                return max((c.cpu for c in found.judged), default=0.0), ""
            first = found.first_failure
            why = found.error or (first.message if first is not None else "") or found.verdict.value
            return None, why

        yield run
    finally:
        judge.close()
