"""``conteststats``: one table for a contest's problems (BAPCtools' ``bt stats``): per
problem its type, test cases (sample, secret, secret's groups), submissions by the
directory that claims their verdict, and, from a verification of its submissions and
validators (cached verdicts make a second one quick), the time limit against the slowest
accepted run, the lines of the shortest accepted submission and how many of the bounds
the input validators check some test case reaches."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from problemtools_py.findings import ProblemReport
from problemtools_py.model import load_problem
from problemtools_py.model.problem import Problem, Submission
from problemtools_py.model.testdata import GroupKind, cases_in, is_sample
from problemtools_py.verdicts import Verdict, directory_of
from problemtools_py.verify.options import Options, Progress
from problemtools_py.verify.verifier import verify_all

PARTS = ("validators", "submissions")


@dataclass
class ProblemStats:
    """One row of the table."""

    problem: str
    path: str
    type: str
    sample: int
    secret: int
    groups: int  # test groups below data/secret
    submissions: dict[str, int] = field(default_factory=dict)  # claim -> count
    accepted: list[str] = field(default_factory=list)  # the accepted ones' paths
    shortest_accepted: str | None = None
    shortest_accepted_lines: int | None = None
    time_limit: float | None = None
    slowest_accepted: float | None = None
    bounds_reached: int | None = None  # of the input validators' bounds, both ends
    bounds: int | None = None
    errors: int = 0
    warnings: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def contest_stats(
    paths: list[Path], run: bool, jobs: int, progress: Progress | None = None
) -> list[ProblemStats]:
    """Each package's row; with ``run``, its submissions and validators verified."""
    rows = [_static(load_problem(path)) for path in paths]
    if not run:
        return rows
    options = Options(jobs=jobs, constraints=True)
    report = verify_all(paths, PARTS, options=options, progress=progress)
    for row, found in zip(rows, report.problems, strict=True):
        _from_report(row, found)
    return rows


def _static(problem: Problem) -> ProblemStats:
    judged = cases_in(problem.data, {GroupKind.JUDGED}, (".in",))
    secret = problem.data.child("secret") if problem.data is not None else None
    groups = sum(1 for g in secret.walk() if g is not secret) if secret is not None else 0
    kinds = Counter(_claim(sub) for sub in problem.submissions)
    types = problem.config.types - ({"pass-fail"} if len(problem.config.types) > 1 else set())
    kind = "+".join(sorted(types))
    row = ProblemStats(
        problem.short_name,
        str(problem.root),
        kind,
        sum(is_sample(c.name) for c in judged),
        sum(c.name.startswith("secret/") for c in judged),
        groups,
        dict(sorted(kinds.items())),
    )
    accepted = [
        s for s in problem.submissions if s.expectation is not None and s.expectation.accepted
    ]
    row.accepted = [s.rel for s in accepted]
    sized = sorted((_lines(problem.root, s.program.files), s.rel) for s in accepted)
    if sized:
        row.shortest_accepted_lines, row.shortest_accepted = sized[0]
    return row


CLAIMED = {v: str(directory_of(v)) for v in (Verdict.WA, Verdict.TLE, Verdict.RTE)}


def _claim(sub: Submission) -> str:
    """What a submission claims: accepted, one verdict's directory name, or the
    directory it is in (a claim of several verdicts)."""
    exp = sub.expectation
    if exp is not None and exp.accepted:
        return "accepted"
    required = exp.required if exp is not None else None
    if required is not None and len(required) == 1:
        (verdict,) = required
        return CLAIMED.get(verdict, verdict.value)
    parts = Path(sub.rel).parts
    return parts[1] if len(parts) > 2 else "other"


def _lines(root: Path, files: tuple[str, ...] | list[str]) -> int:
    """Non-blank lines of a program's files."""
    total = 0
    for rel in files:
        try:
            text = (root / rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        total += sum(1 for line in text.splitlines() if line.strip())
    return total


def _from_report(row: ProblemStats, report: ProblemReport) -> None:
    row.errors, row.warnings = report.errors, report.warnings
    row.time_limit = report.time_limit
    accepted = [
        s.max_cpu
        for s in report.submissions
        if s.verdict is Verdict.AC and s.submission in row.accepted
    ]
    row.slowest_accepted = max(accepted) if accepted else None
    if report.constraints:
        row.bounds = 2 * len(report.constraints)
        row.bounds_reached = sum(
            int(c.reached_low) + int(c.reached_high) for c in report.constraints
        )
