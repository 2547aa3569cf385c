"""verifyproblem's work, apart from its command line: load each package once, run the
checks of the requested parts, and return reports."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from problemtools_py.checks import PARTS, REGISTRY
from problemtools_py.findings import ProblemReport, RunReport
from problemtools_py.model import load_problem

PartHook = Callable[[str, str], None]


def verify_problem(
    path: Path,
    parts: Sequence[str] = PARTS,
    bail: bool = False,
    on_part: PartHook | None = None,
) -> ProblemReport:
    """Verify one package. With ``bail``, stop after the first part that found errors."""
    start = time.perf_counter()
    problem = load_problem(path)
    report = ProblemReport(problem.short_name, str(path), problem.format.value, list(parts))
    for part in PARTS:
        if part not in parts:
            continue
        if on_part is not None:
            on_part(problem.short_name, part)
        for func in REGISTRY[part]:
            report.findings.extend(func(problem))
        if bail and report.errors:
            break
    report.seconds = time.perf_counter() - start
    return report


def verify_all(
    paths: Sequence[Path],
    parts: Sequence[str] = PARTS,
    *,
    bail: bool = False,
    werror: bool = False,
    on_part: PartHook | None = None,
    on_report: Callable[[ProblemReport], None] | None = None,
) -> RunReport:
    run = RunReport(werror=werror)
    for path in paths:
        report = verify_problem(path, parts, bail, on_part)
        run.problems.append(report)
        if on_report is not None:
            on_report(report)
        if bail and run.failed(report):
            break
    return run
