"""Whether each submission got what it claims: verdicts per test case (permitted,
required, also per test group from submissions.yaml), its judge message, its score, and
whether the claim still holds with the safety margin."""

from __future__ import annotations

from dataclasses import replace

from problemtools_py.findings import Finding, Severity, error, warning
from problemtools_py.judge import python2
from problemtools_py.judging.judged import JudgedCase, SubmissionResult
from problemtools_py.model.expectations import MODERN_RTE, glob_matches
from problemtools_py.rulesets import Ruleset
from problemtools_py.verdicts import Verdict
from problemtools_py.verify.context import Context


def _describe(outcome: JudgedCase) -> str:
    detail = (
        f": {outcome.message[:200]}"
        if outcome.message and outcome.verdict is not Verdict.TLE
        else ""
    )
    return f"{outcome.verdict.value} on {outcome.case.name} (CPU {outcome.cpu:.2f} s){detail}"


def expectation_findings(
    ctx: Context, result: SubmissionResult, best: float | None
) -> list[Finding]:
    """What a submission's results say of its claims; a Python 3 one's errors led by what
    marks it as Python 2 where it fails as Python 2 code does."""
    findings = _expectation_findings(ctx, result, best)
    sign = _python2(result)
    if sign is None:
        return findings
    return [
        replace(f, message=f"Python 2 program ({sign}); {python2.RUNS}: {f.message}")
        if f.severity is Severity.ERROR
        else f
        for f in findings
    ]


def _python2(result: SubmissionResult) -> str | None:
    if result.submission.program.language != "python3":
        return None
    errors = [result.compile_error or ""]
    errors += [c.message for c in result.cases if c.verdict is Verdict.RTE]
    return next(filter(None, map(python2.python2_sign, errors)), None)


def _expectation_findings(
    ctx: Context, result: SubmissionResult, best: float | None
) -> list[Finding]:
    sub, exp = result.submission, result.submission.expectation
    rel = sub.rel
    if exp is None:
        return []
    if exp.compile_error_ok and result.compile_error is not None:
        return []  # a compile error is one of the results it lists
    if exp.compile_error or result.compile_error:
        if exp.compile_error and result.compile_error is None:
            return [error("submission", f"compiles, but {exp.source} expects a compile error", rel)]
        if not exp.compile_error:
            return [
                error("submission", f"does not compile: {str(result.compile_error)[:1500]}", rel)
            ]
        return []
    if ctx.options.ruleset is Ruleset.DOMJUDGE:
        findings = _final_verdict_findings(result, exp.permitted, exp.required, exp.source, rel)
    else:
        findings = _verdict_findings(result, exp.permitted, exp.required, exp.source, rel, False)
    findings.extend(_case_rule_findings(result, rel))
    if not findings and ctx.options.ruleset is not Ruleset.DOMJUDGE:
        sensitive = _verdict_findings(
            result, exp.permitted, exp.required, exp.source, rel, margin=True
        )
        if sensitive:
            findings.append(
                warning(
                    "submission",
                    "sensitive to the time limit: with the safety "
                    f"margin it would fail its expectation ({sensitive[0].message})",
                    rel,
                )
            )
    findings.extend(_score_findings(ctx, result, best))
    for outcome in result.cases:
        if outcome.verdict is Verdict.JE:
            findings.append(
                error("judge", f"judge error on {outcome.case.name}: {outcome.message}", rel)
            )
    return findings


def _final_verdict_findings(
    result: SubmissionResult,
    permitted: frozenset[Verdict] | None,
    required: frozenset[Verdict] | None,
    source: str,
    rel: str,
) -> list[Finding]:
    """DOMjudge's reading: the final verdict is one of the results expected (what a tag
    lists, or what the directory requires), whatever the cases before it gave."""
    wanted = required or permitted
    if wanted is None or result.verdict is None or result.verdict in wanted:
        return []
    text = f"got {_final(result)}; {source} expects {_names(wanted, ' or ')} (the final verdict)"
    return [error("submission", text, rel)]


def _case_rule_findings(result: SubmissionResult, rel: str) -> list[Finding]:
    """submissions.yaml rules for test groups, and the judge message it must produce."""
    exp = result.submission.expectation
    assert exp is not None
    findings: list[Finding] = []
    for rule in exp.case_rules:
        subset = SubmissionResult(
            result.submission,
            None,
            [c for c in result.cases if glob_matches(rule.glob, c.case.name)],
        )
        findings.extend(
            _verdict_findings(
                subset,
                rule.permitted,
                rule.required,
                f"submissions.yaml for '{rule.glob}'",
                rel,
                margin=False,
            )
        )
    if (
        exp.message is not None
        and result.cases
        and not any(exp.message in c.message for c in result.cases)
    ):
        findings.append(
            error(
                "submission",
                f"no judge message contains {exp.message!r}, which submissions.yaml requires",
                rel,
            )
        )
    return findings


def _verdict_findings(
    result: SubmissionResult,
    permitted: frozenset[Verdict] | None,
    required: frozenset[Verdict] | None,
    source: str,
    rel: str,
    margin: bool,
) -> list[Finding]:
    cases = result.cases

    def verdict(outcome: JudgedCase) -> Verdict:
        return outcome.at_margin if margin else outcome.verdict

    if permitted is not None:
        for outcome in cases:
            if verdict(outcome) not in permitted and verdict(outcome) is not Verdict.JE:
                got = replace(outcome, verdict=outcome.at_margin) if margin else outcome
                return [
                    error(
                        "submission",
                        f"got {_describe(got)}; {source} permits only {_names(permitted, ', ')}",
                        rel,
                    )
                ]
    if required is not None and cases and not any(verdict(c) in required for c in cases):
        worst = _names({verdict(c) for c in cases}, ", ")
        return [
            error(
                "submission",
                f"got only {worst} over {len(cases)} test cases; "
                f"{source} requires {_names(required, ' or ')} on some test case",
                rel,
            )
        ]
    return []


def _names(verdicts: frozenset[Verdict] | set[Verdict], sep: str) -> str:
    """The verdicts as a package names them: RTE for the run-time errors (MLE, OLE) that
    the format since 2023-07 counts as RTE when all of them are meant."""
    shown = set(verdicts)
    if shown >= MODERN_RTE:
        shown = (shown - MODERN_RTE) | {Verdict.RTE}
    return sep.join(sorted(v.value for v in shown))


def _score_findings(ctx: Context, result: SubmissionResult, best: float | None) -> list[Finding]:
    exp = result.submission.expectation
    assert exp is not None
    rel = result.submission.rel
    if not ctx.problem.config.scoring or result.score is None:
        return []
    domjudge = ctx.options.ruleset is Ruleset.DOMJUDGE
    if exp.score is not None and DOMJUDGE_SCORE in exp.source and not domjudge:
        if exp.score[0] - 1e-6 <= result.score <= exp.score[1] + 1e-6:
            return []  # (the same score by either judge's rules)
        text = (f"{exp.source}: the score DOMjudge gives by its own scoring rules; by "
                f"this judge's it scores {result.score:g}")  # fmt: skip
        return [Finding(Severity.WARNING, "submission", text, rel, None, Ruleset.DOMJUDGE.value)]
    if exp.score is not None:
        low, high = exp.score
        # legacy: an expected score is an accepted one; 2023-07 and later: the score alone
        # (a scoring problem gives a score, not a verdict); DOMjudge: the score alone too
        rejected = ctx.problem.legacy and not domjudge and result.verdict is not Verdict.AC
        if rejected or not low - 1e-6 <= result.score <= high + 1e-6:
            want = f"{low:g}" if low == high else f"[{low:g}, {high:g}]"
            return [
                error(
                    "submission",
                    f"got {_final(result)} with score {result.score:g}; "
                    f"{exp.source} expects score {want}",
                    rel,
                )
            ]
    if exp.partially_accepted and (
        result.verdict is not Verdict.AC or result.score >= _best(ctx, result)
    ):
        return [
            error(
                "submission",
                f"got {_final(result)} with score {result.score:g}; "
                "partially_accepted/ expects AC with less than the full score",
                rel,
            )
        ]
    return []


DOMJUDGE_SCORE = "@EXPECTED_SCORE@"  # DOMjudge's tag: its score, by its scoring rules


def _best(ctx: Context, result: SubmissionResult) -> float:
    accepted = [r.score for r in [result] if r.score is not None]
    return max(accepted, default=0.0) if not ctx.problem.legacy else float("inf")


def _final(result: SubmissionResult) -> str:
    return result.verdict.value if result.verdict is not None else "nothing"
