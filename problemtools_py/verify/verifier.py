"""verifyproblem's work, apart from its command line: load each package once, run the
checks of the requested parts (the checks, then the runs), and return reports.

The judge and the sandbox are imported only when something runs, so that
the parts that only check start at once (the pre-commit hook, ``-p config``)."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from problemtools_py.checks.registry import PARTS, checks_of
from problemtools_py.findings import Finding, ProblemReport, RunReport, warning
from problemtools_py.model import Problem, load_problem
from problemtools_py.model.archive import is_archive, unpacked
from problemtools_py.model.conventions import as_judged
from problemtools_py.rulesets import Ruleset
from problemtools_py.verify.options import RUNNING_PARTS, Options, Progress, needs_sandboxes

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from concurrent.futures import Future

    from problemtools_py.sandbox.pool import SandboxPool
    from problemtools_py.verify.context import Context

PartHook = Callable[[str, str], None]
CHECKS_WAIT = 5.0  # seconds an interrupted verification waits for its findings of the checks


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a package's running parts, with what had finished by then (every
    finding of the checks, the runs of the parts that ended): reported before the process ends,
    so a user who stops a long verification still learns what it found, such as limits
    that make its runs that long."""

    def __init__(self, report: ProblemReport) -> None:
        super().__init__()
        self.report = report


def verify_problem(
    path: Path,
    parts: Sequence[str] = PARTS,
    bail: bool = False,
    on_part: PartHook | None = None,
    *,
    pool: SandboxPool | None = None,
    options: Options | None = None,
    progress: Progress | None = None,
) -> ProblemReport:
    """Verify one package (a directory, or a ``.zip``/``.kpp`` archive of one). Without a
    sandbox ``pool`` nothing is run (checks only). With ``bail``, stop after the
    first part that found errors."""
    if is_archive(path):
        try:
            with unpacked(path) as root:
                report = verify_problem(
                    root, parts, bail, on_part, pool=pool, options=options, progress=progress
                )
        except Interrupted as stop:
            stop.report.path = str(path)
            raise
        report.path = str(path)
        return report
    start, spent = time.perf_counter(), _runs_cpu()
    prepare = options.prepare if options is not None else None
    made = prepare(path, pool) if prepare is not None and pool is not None else []
    problem = load_problem(path)
    report = ProblemReport(problem.short_name, str(path), problem.format.value, list(parts))
    report.findings.extend(made)
    ctx = None
    unread = pool is not None and problem.yaml.unreadable
    not_run = [p for p in RUNNING_PARTS if p in parts] if unread else []
    if not_run:
        pool = None
    if pool is not None:
        from problemtools_py.verify.context import Context
        from problemtools_py.verify.selection import unmatched

        ctx = Context.create(problem, options or Options(), pool, progress)
        report.findings.extend(unmatched(problem, ctx.options, parts))
    if ctx is not None and "submissions" in parts:
        from problemtools_py.verify.ahead import judge_ahead

        judge_ahead(ctx)  # the runs to the time limit first: the longest chain
    try:
        _run_parts(problem, report, parts, bail, on_part, ctx, start)
    except KeyboardInterrupt as exc:
        raise exc if isinstance(exc, Interrupted) else Interrupted(report) from None
    finally:
        if ctx is not None:
            ctx.close()
    report.runs_cpu = _runs_cpu() - spent  # (the work ahead included, its runs ended)
    if not_run:
        report.findings.append(_not_run(not_run))
    report.findings = by_judge(report.findings, (options or Options()).ruleset)
    return report


def by_judge(findings: list[Finding], judge: Ruleset) -> list[Finding]:
    """``findings`` as ``judge`` sees them (its own extensions are warnings), and a
    warning naming the other judges whose conventions the package follows."""
    found = [as_judged(f, judge) for f in findings]
    names = {id(f): f.convention.split(",") for f in found if f.convention is not None}
    refused = [f for f in found if judge.value not in names.get(id(f), [judge.value])]
    for other in sorted({names[id(f)][0] for f in refused}):  # (a shared one: its first's)
        named = Ruleset(other)
        count = sum(1 for f in refused if names[id(f)][0] == other)
        say = "1 finding says" if count == 1 else f"{count} findings say"
        found.append(
            warning(
                "conventions",
                f"this package follows {named.possessive} "
                f"conventions ({say} which); --judge {named.value} verifies it "
                f"as {named.display} judges it",
            )
        )
    return found


def _not_run(parts: list[str]) -> Finding:
    """Why nothing runs in a package whose problem.yaml cannot be read (as problemtools
    stops there): what it sets decides how every program is judged."""
    return warning(
        "problem-yaml",
        f"{', '.join(parts)} not run: problem.yaml cannot be read, and what it sets "
        "(type, limits, validator flags) decides how programs are judged",
        "problem.yaml",
    )


def _run_parts(
    problem: Problem,
    report: ProblemReport,
    parts: Sequence[str],
    bail: bool,
    on_part: PartHook | None,
    ctx: Context | None,
    start: float,
) -> ProblemReport:
    """The parts in order, each its checks then (with a context) its runs. Without
    ``bail``, a run's checks go in a thread beside the running parts (jsonschema's
    import alone is ~50 ms that programs in the sandbox can overlap); the findings keep
    the parts' order either way."""
    chosen = [part for part in PARTS if part in parts]
    checked = _checks_ahead(problem, chosen) if ctx is not None and not bail else None
    by_part: dict[str, list[Finding]] = {}
    try:
        _each_part(problem, report, chosen, bail, on_part, ctx, checked, by_part)
    except KeyboardInterrupt:
        report.interrupted = True
        if checked is not None:
            with contextlib.suppress(BaseException):  # (a second Ctrl-C ends the wait)
                checked.result(CHECKS_WAIT)
            done = checked.done() and checked.exception() is None
            _merge(report, chosen, checked.result() if done else {}, by_part)
        raise
    if checked is not None:
        _merge(report, chosen, checked.result(), by_part)
    report.seconds = time.perf_counter() - start
    return report


def _runs_cpu() -> float:
    """The CPU time of every run so far (0 before the sandbox is loaded: none ran)."""
    results = sys.modules.get("problemtools_py.sandbox.results")
    return float(results.spent_cpu()) if results is not None else 0.0


def _merge(
    report: ProblemReport,
    chosen: list[str],
    checked: dict[str, list[Finding]],
    by_part: dict[str, list[Finding]],
) -> None:
    """Each part's findings of the checks, then its runs' (of a part whose runs ended), in the
    parts' order: with the checks in a thread beside the runs, they came apart."""
    for part in chosen:
        report.findings.extend(checked.get(part, []) + by_part.get(part, []))


def _each_part(
    problem: Problem,
    report: ProblemReport,
    chosen: list[str],
    bail: bool,
    on_part: PartHook | None,
    ctx: Context | None,
    checked: Future[dict[str, list[Finding]]] | None,
    by_part: dict[str, list[Finding]],
) -> None:
    out = None
    if ctx is not None:
        from problemtools_py.verify.steps import RunOutput

        out = RunOutput()
    for part in chosen:
        if on_part is not None:
            on_part(problem.short_name, part)
        if checked is None:
            report.findings.extend(_checked(problem, part))
        if out is not None and part in RUNNING_PARTS and not (bail and report.errors):
            from problemtools_py.verify.steps import run_part

            assert ctx is not None
            run_part(ctx, part, out)
            by_part[part] = list(out.findings)  # (its runs' findings)
            out.findings.clear()
            if checked is None:
                report.findings.extend(by_part[part])
        if bail and report.errors:
            break
    if out is not None:
        report.time_limit, report.time_limit_source = out.time_limit, out.time_limit_source
        report.time_limit_hard = out.time_limit_hard
        report.submissions = list(out.submissions)
        report.constraints = list(out.constraints)


def _checked(problem: Problem, part: str) -> list[Finding]:
    """A part's checks (pure), and for the statement part its rendering: every statement
    to HTML, and to PDF in draft mode when TeX is installed (plasTeX and pdflatex run, so
    it is a step of verification, not a check; it needs no sandbox)."""
    found = [finding for func in checks_of(part) for finding in func(problem)]
    if part == "statement":
        from problemtools_py.statements.check import render_findings

        found += render_findings(problem)
    return found


def _checks_ahead(problem: Problem, parts: list[str]) -> Future[dict[str, list[Finding]]]:
    """Every part's checks, in a thread of their own, started now."""
    from concurrent.futures import Future  # (here: -p config runs no thread; 6 ms)

    result: Future[dict[str, list[Finding]]] = Future()

    def work() -> None:
        try:
            result.set_result({part: _checked(problem, part) for part in parts})
        except BaseException as exc:  # (raised where the result is asked for)
            result.set_exception(exc)

    threading.Thread(target=work, name="checks", daemon=True).start()
    return result


def verify_all(
    paths: Sequence[Path],
    parts: Sequence[str] = PARTS,
    *,
    bail: bool = False,
    werror: bool = False,
    run_programs: bool = True,
    options: Options | None = None,
    on_part: PartHook | None = None,
    on_report: Callable[[ProblemReport], None] | None = None,
    progress: Progress | None = None,
) -> RunReport:
    run = RunReport(werror=werror)
    options = options or Options()
    needs_pool = needs_sandboxes(parts, run_programs)
    pool = None
    if needs_pool:
        from problemtools_py.sandbox.pool import SandboxPool

        # (jobs more start at the first use: the first builds need them at once; a warm
        # run, everything cached, starts none)
        pool = SandboxPool(options.jobs + 1, ahead=options.jobs)
    try:
        for index, path in enumerate(paths):
            try:
                report = verify_problem(
                    path, parts, bail, on_part, pool=pool, options=options, progress=progress
                )
            except Interrupted as stop:
                run.problems.append(stop.report)
                if on_report is not None:
                    on_report(stop.report)
                raise
            run.problems.append(report)
            if pool is not None and (index == len(paths) - 1 or (bail and run.failed(report))):
                pool.release()  # (its servers end while the report is written)
            if on_report is not None:
                on_report(report)
            if bail and run.failed(report):
                break
    finally:
        if pool is not None:
            pool.close()
    return run


def derived_time_limit(path: Path) -> float | None:
    """The time limit verifyproblem derives for the package at ``path`` (its accepted
    submissions run, the package's version's rule), or None when the runs found errors
    (then no limit can be trusted)."""
    report = verify_all([path], ("submissions",)).problems[0]
    return report.time_limit if not report.errors else None
