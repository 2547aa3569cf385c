"""The running parts of verifyproblem, per part: what executes, and the findings."""

from __future__ import annotations

from dataclasses import dataclass, field

from problemtools_py.findings import Cell, ConstraintRow, Finding, SubmissionRow, error
from problemtools_py.judging.judged import SubmissionResult
from problemtools_py.judging.validators import validators
from problemtools_py.sandbox.results import SandboxError
from problemtools_py.verdicts import Verdict
from problemtools_py.verify.answer_validation import check_answer_files
from problemtools_py.verify.context import Context
from problemtools_py.verify.inputs import check_inputs
from problemtools_py.verify.outputs import check_answers
from problemtools_py.verify.submissions import Judged, judge_submissions
from problemtools_py.verify.testing_tool import check_testing_tools
from problemtools_py.verify.visualizers import check_visualizers


@dataclass
class RunOutput:
    """What the running parts produce: findings, the time limit, results tables."""

    findings: list[Finding] = field(default_factory=list)
    time_limit: float | None = None
    time_limit_source: str | None = None
    time_limit_hard: float | None = None
    submissions: list[SubmissionRow] = field(default_factory=list)
    constraints: list[ConstraintRow] = field(default_factory=list)


def run_part(ctx: Context, part: str, out: RunOutput) -> None:
    try:
        if part == "validators":
            out.findings.extend(check_inputs(ctx))
            out.findings.extend(check_answers(ctx))
            out.findings.extend(check_answer_files(ctx))
            out.findings.extend(check_visualizers(ctx))
            if ctx.options.constraints:  # (its patterns compiled only when asked: ~5 ms)
                from problemtools_py.verify.constraints import coverage

                found = coverage(ctx, validators(ctx)[0])
                out.findings.extend(found.findings)
                out.constraints = [b.row() for b in found.bounds.values()]
        elif part == "graders":
            for grader in ctx.problem.graders if ctx.problem.legacy else ():
                build = ctx.build(grader)
                if build.executable is None:
                    out.findings.append(
                        error(
                            "grader", f"grader does not build: {build.message[:1500]}", grader.rel
                        )
                    )
        elif part == "submissions":
            judged = judge_submissions(ctx)
            out.findings.extend(judged.findings)
            out.findings.extend(check_testing_tools(ctx, judged.results))
            _table(judged, out)
    except SandboxError as exc:
        out.findings.append(error("sandbox", f"the sandbox failed: {exc}", None))


def _groups(result: SubmissionResult) -> dict[str, Cell]:
    """Per top-level group (and secret's subgroups): the first verdict that is not AC (else
    AC) and the largest CPU time."""
    cells: dict[str, Cell] = {}
    for outcome in result.cases:
        parts = outcome.case.name.split("/")
        group = "/".join(parts[:2]) if len(parts) > 2 else parts[0]
        cell = cells.get(group, Cell(Verdict.AC, 0.0, 0))
        cells[group] = Cell(
            outcome.verdict if cell.verdict is Verdict.AC else cell.verdict,
            max(cell.cpu, round(outcome.cpu, 3)),
            cell.cases + 1,
        )
    return cells


def _table(judged: Judged, out: RunOutput) -> None:
    if judged.limit is not None:
        out.time_limit = judged.limit.seconds
        out.time_limit_source = judged.limit.source
        out.time_limit_hard = judged.limit.hard
    for result in judged.results:
        exp = result.submission.expectation
        out.submissions.append(
            SubmissionRow(
                submission=result.submission.rel,
                expected=exp.source if exp is not None else None,
                compile_error=result.compile_error,
                verdict=Verdict.CE if result.compile_error else result.verdict,
                score=result.score,
                max_cpu=round(result.max_cpu, 3),
                groups=_groups(result),
                cases={o.case.name: Cell(o.verdict, round(o.cpu, 4), 1) for o in result.cases},
            )
        )
