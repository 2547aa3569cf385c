"""Every submission on every test case, against what it claims; the time limit.

Accepted submissions run first, under a generous cap, to time them; the time limit
follows (:mod:`.timelimit`). The others then run with the limit times the safety margin,
and each result is judged at the limit itself too: a verdict that differs between the two
is "sensitive to the time limit". Pass-fail submissions stop at their first failure."""

from __future__ import annotations

import contextlib
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

from problemtools_py.findings import Finding, error, warning
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.graders import CaseScore
from problemtools_py.judging.answers import unasked_scores
from problemtools_py.judging.judged import JudgedCase, SubmissionResult
from problemtools_py.judging.rounds import Job, RoundLimits, first_round, times_the_limit
from problemtools_py.judging.scoring import Scorer
from problemtools_py.judging.submission_judge import SubmissionJudge
from problemtools_py.model.conventions import extension
from problemtools_py.model.problem import Submission
from problemtools_py.model.timelimit import LimitKind, TimeLimit
from problemtools_py.rulesets import Ruleset
from problemtools_py.verdicts import Verdict
from problemtools_py.verify.claims import expectation_findings
from problemtools_py.verify.context import Context
from problemtools_py.verify.static_validation import StaticJudge


@dataclass
class Judged:
    """Every submission judged, and the time limit that was decided."""

    results: list[SubmissionResult]
    limit: TimeLimit | None
    findings: list[Finding]


def judge_submissions(ctx: Context) -> Judged:
    subs, skipped = _runnable(ctx, [s for s in ctx.problem.submissions if ctx.selected(s)])
    judge = SubmissionJudge(ctx)
    if judge.checker.error:
        where = ctx.problem.output_validators[0].rel if ctx.problem.output_validators else "."
        return Judged([], None, [error("output-validator", judge.checker.error, where)])
    results = {s.rel: SubmissionResult(s) for s in subs}
    try:
        ready = _build_all(ctx, subs, results)
        limit = _time_and_judge(ctx, judge, subs, ready, results)
        findings = _grade_and_check(ctx, judge, results, ready)
    finally:
        shutil.rmtree(judge.work, ignore_errors=True)  # team outputs and feedback
    return Judged(list(results.values()), limit, skipped + _limit_findings(limit) + findings)


HIGH_LIMIT = 10.0  # seconds: a derived time limit above this is worth a second look


def _limit_findings(limit: TimeLimit) -> list[Finding]:
    if limit.kind is not LimitKind.DERIVED or limit.seconds <= HIGH_LIMIT:
        return []
    return [
        warning(
            "time-limit",
            f"the derived time limit is {limit.seconds:g} s ({limit.source}), far above what "
            "problems use: is that submission meant to be accepted?",
            "submissions",
        )
    ]


BT_SKIPPED = (".disabled", ".template")  # bt's glob leaves these names out (--judge bapctools)
BT_SKIPS = "BAPCtools skips what ends in .disabled or .template"


def _runnable(ctx: Context, subs: list[Submission]) -> tuple[list[Submission], list[Finding]]:
    """The submissions the judge can build here, and one warning per language whose
    compiler is not installed or that the judge has no definition for (a file no language
    claims is the submissions check's)."""
    runnable: list[Submission] = []
    missing: dict[str, list[Submission]] = {}
    for sub in subs:
        if ctx.policy.ruleset is Ruleset.BAPCTOOLS and sub.rel.endswith(BT_SKIPPED):
            missing.setdefault(BT_SKIPS, []).append(sub)
            continue
        language = ctx.submission_language(sub)
        named = sub.expectation.language if sub.expectation is not None else None
        named = named or sub.program.language
        if language is None:  # named by its files (or submissions.yaml), but not buildable
            if named is not None:
                what = f"the judge cannot build '{named}' (see languages.yaml)"
                missing.setdefault(what, []).append(sub)
            continue
        tool = language.missing_tool()
        if tool is None:
            runnable.append(sub)
        else:
            missing.setdefault(f"'{tool}' for {language.name} is not installed", []).append(sub)
    findings = [
        warning("language", f"{what}: {len(out)} submission(s) skipped", out[0].rel)
        for what, out in missing.items()
    ]
    return runnable, findings


def _build_all(
    ctx: Context, subs: list[Submission], results: dict[str, SubmissionResult]
) -> dict[str, Executable]:
    ready: dict[str, Executable] = {}
    with ThreadPoolExecutor(ctx.options.jobs) as pool:
        for sub, build in zip(subs, pool.map(ctx.submission, subs), strict=True):
            if build.executable is None:
                results[sub.rel].compile_error = build.message or "compilation failed"
            else:
                ready[sub.rel] = build.executable
    return ready


def _time_and_judge(
    ctx: Context,
    judge: SubmissionJudge,
    subs: list[Submission],
    ready: dict[str, Executable],
    results: dict[str, SubmissionResult],
) -> TimeLimit:
    """Time the accepted submissions and judge the others at the same time (see
    first_round); when the derived limit turns out larger than the first, the others run
    again."""
    jobs = first_round(ctx, [s for s in subs if s.rel in ready])
    timers = [s for s, _, _ in jobs if times_the_limit(s)]
    others = [s for s, _, _ in jobs if not times_the_limit(s)]
    limits = RoundLimits.of(ctx)

    def run(job: Job) -> list[JudgedCase]:
        ahead = ctx.ahead.get(job[0].rel)
        if ahead is not None:  # its runs are (being) made under these limits: cached
            with contextlib.suppress(Exception):
                ahead.result()
        return judge.run(ready[job[0].rel], job[1], job[2], job[0])

    with ThreadPoolExecutor(ctx.options.jobs) as pool:
        runs = list(pool.map(run, jobs))
    outcomes = {sub.rel: found for (sub, _, _), found in zip(jobs, runs, strict=True)}
    slowest = max(
        (c.cpu for s in timers for c in outcomes[s.rel] if c.at_margin is Verdict.AC), default=None
    )
    limit = limits.final(ctx, slowest)
    if limit.seconds != limits.first.seconds:
        with ThreadPoolExecutor(ctx.options.jobs) as pool:
            again = pool.map(
                lambda s: judge.run(ready[s.rel], limit.hard, limit.seconds, s), others
            )
            outcomes.update({s.rel: found for s, found in zip(others, again, strict=True)})
    for sub in timers:
        results[sub.rel].cases = [_retime(o, limit) for o in outcomes[sub.rel]]
    for sub in others:
        results[sub.rel].cases = outcomes[sub.rel]
    return limit


def _grade_and_check(
    ctx: Context,
    judge: SubmissionJudge,
    results: dict[str, SubmissionResult],
    ready: dict[str, Executable],
) -> list[Finding]:
    static = StaticJudge(ctx, judge.work)
    findings: list[Finding] = list(static.findings)
    graded = [r for r in results.values() if r.compile_error is None]
    cases: list[dict[str, CaseScore]] = []
    for result in graded:
        grades = {c.case.name: CaseScore(c.verdict, c.score, c.multiplier) for c in result.cases}
        rel = result.submission.rel
        if rel in ready:
            grades.update(static.grades(result.submission, ready[rel]))
        findings.extend(
            error("static-validation", g.error, rel) for g in grades.values() if g.error
        )
        cases.append(grades)
    with Scorer(ctx, judge.work) as scorer:  # graders run a few at a time, as cases do
        grades_made = ctx.map(scorer.grade, cases)
    grading_errors = list(scorer.errors)
    for result, (grade, errors) in zip(graded, grades_made, strict=True):
        result.verdict = grade.verdict
        result.score = grade.score if ctx.problem.config.scoring else None
        grading_errors += errors
    best = max(
        (
            r.score
            for r in results.values()
            if r.score is not None
            and r.verdict is Verdict.AC
            and r.submission.expectation is not None
            and r.submission.expectation.accepted
        ),
        default=None,
    )
    for result in results.values():
        findings.extend(expectation_findings(ctx, result, best))
    where = "graders" if ctx.problem.legacy else "output_validator"
    findings.extend(error("grader", message, where) for message in dict.fromkeys(grading_errors))
    findings.extend(_unasked_scores(ctx, graded))
    return findings


def _unasked_scores(ctx: Context, graded: list[SubmissionResult]) -> list[Finding]:
    """One finding when the validator wrote score.txt that legacy does not ask for (see
    answers.unasked_scores): its scores counted, as DOMjudge counts them."""
    if not unasked_scores(ctx.problem) or not any(
        c.score is not None for r in graded for c in r.cases
    ):
        return []
    text = ("the output validator writes score.txt, which legacy reads only with "
            "'validation: custom score'; its scores are used, as DOMjudge uses them")  # fmt: skip
    return [extension(Ruleset.DOMJUDGE, "validators", text, "problem.yaml")]


def _retime(outcome: JudgedCase, limit: TimeLimit) -> JudgedCase:
    """A timing run (under the cap) judged at the derived limit and at its margin."""
    return replace(outcome, verdict=outcome.at(limit.seconds), at_margin=outcome.at(limit.hard))
