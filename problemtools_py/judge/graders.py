"""Graders: the legacy default grader and custom grader programs, and the 2023-07 score
aggregation (which has no grader program)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from problemtools_py.judge.compile import Executable
from problemtools_py.judge.held import HeldJail
from problemtools_py.sandbox.results import Limits, SandboxError
from problemtools_py.verdicts import Verdict

# The default grader's worst-first order (problemtools' default_grader).
WORST_FIRST = (Verdict.JE, Verdict.RTE, Verdict.MLE, Verdict.TLE, Verdict.OLE, Verdict.WA)
GRADER_LINE = re.compile(r"^(AC|WA|TLE|RTE|MLE|OLE|JE)\s+(-?[0-9.]+)\s*$")


@dataclass(frozen=True)
class Grade:
    """A grader's verdict and score for a test group."""

    verdict: Verdict
    score: float
    error: str = ""  # why it is JE


def default_grader(results: Sequence[tuple[Verdict, float]], flags: Sequence[str]) -> Grade:
    """The legacy default grader. Conflicting modes: the last flag wins."""
    verdict_mode, score_mode = "worst_error", "sum"
    ignore_sample = accept_if_any = False
    for flag in flags:
        if flag in ("worst_error", "no_errors", "first_error", "always_accept"):
            verdict_mode = "worst_error" if flag == "no_errors" else flag
        elif flag in ("sum", "avg", "min", "max"):
            score_mode = flag
        elif flag == "ignore_sample":
            ignore_sample = True
        elif flag == "accept_if_any_accepted":
            accept_if_any = True
        else:
            return Grade(Verdict.JE, 0.0, f"default grader: unknown flag '{flag}'")
    if ignore_sample:
        if not 1 <= len(results) <= 2:
            return Grade(
                Verdict.JE, 0.0, f"ignore_sample expects 1 or 2 subresults, got {len(results)}"
            )
        results = results[-1:]
    if not results:
        return (
            Grade(Verdict.AC, 0.0)
            if score_mode == "sum"
            else Grade(Verdict.JE, 0.0, f"{score_mode} of nothing")
        )
    scores = [score for _, score in results]
    score = {
        "sum": sum(scores),
        "avg": sum(scores) / len(scores),
        "min": min(scores),
        "max": max(scores),
    }[score_mode]
    verdicts = [verdict for verdict, _ in results]
    if accept_if_any and Verdict.AC in verdicts:
        return Grade(Verdict.AC, score)
    if verdict_mode == "always_accept" or all(v == Verdict.AC for v in verdicts):
        return Grade(Verdict.AC, score)
    if verdict_mode == "first_error":
        return Grade(next(v for v in verdicts if v != Verdict.AC), score)
    worst = next(
        (v for v in WORST_FIRST if v in verdicts), next(v for v in verdicts if v != Verdict.AC)
    )
    return Grade(worst, score)


def parse_range(text: str) -> tuple[float, float]:
    """A testdata.yaml ``range: "lo hi"`` (inf, -inf, +inf allowed)."""
    lo, hi = text.split()
    return float(lo), float(hi)


@dataclass(frozen=True)
class CustomGrader:
    """A legacy grader program, run in a held jail on its group's results."""

    executable: Executable
    limits: Limits

    def grade(
        self,
        jail: HeldJail,
        results: Sequence[tuple[Verdict, float]],
        flags: Sequence[str],
        feed: Path,
    ) -> Grade:
        """``<grader> [flags] < results``: one ``VERDICT score`` line out, exit 0. The
        results are written to ``feed`` (a file of the caller's) first."""
        feed.parent.mkdir(parents=True, exist_ok=True)
        feed.write_text("".join(f"{v.value} {s:g}\n" for v, s in results))
        try:
            run = jail.run(flags, limits=self.limits, stdin=feed)
        except SandboxError as exc:
            return Grade(Verdict.JE, 0.0, f"grader could not run: {exc}")
        output = run.stdout.decode("utf-8", "replace")
        match = GRADER_LINE.match(output.strip()) if output.count("\n") <= 1 else None
        if not run.ok or match is None:
            why = run.describe() if not run.ok else f"printed {output[:80]!r}"
            return Grade(
                Verdict.JE,
                0.0,
                f"grader failed ({why}; it must print one 'VERDICT score' line and exit 0)",
            )
        try:
            return Grade(Verdict(match.group(1)), float(match.group(2)))
        except ValueError:
            return Grade(Verdict.JE, 0.0, f"grader printed a bad score {match.group(2)!r}")


# -- 2023-07: aggregation without a grader --------------------------------------------
@dataclass(frozen=True)
class CaseScore:
    """One case's verdict and score as its group's grading reads them (2023-07
    aggregation, and verification's scoring of every version)."""

    verdict: Verdict
    score: float | None = None  # score.txt
    multiplier: float | None = None  # score_multiplier.txt
    error: str = ""  # why it is a judge error (a static validator's failure)


def aggregate(
    cases: Sequence[CaseScore],
    aggregation: str,
    max_score: float | None,
    static: tuple[CaseScore, float | None] | None = None,
) -> Grade:
    """A 2023-07 group: ``pass-fail``, ``sum`` or ``min`` of its cases. ``max_score`` None
    means unbounded (then every accepted case needs score.txt). ``static``: the group's
    static validation test case and its maximum score, which a ``sum`` group's cases
    share what is left of ``max_score`` after."""
    everything = [*cases, static[0]] if static is not None else list(cases)
    first_bad = next((c.verdict for c in everything if c.verdict != Verdict.AC), None)
    verdict = first_bad or Verdict.AC
    if aggregation == "pass-fail":
        if any(c.score is not None or c.multiplier is not None for c in everything):
            return Grade(Verdict.JE, 0.0, "a validator scored a case of a pass-fail group")
        return Grade(verdict, (max_score or 0.0) if first_bad is None else 0.0)
    if not everything:
        return Grade(Verdict.AC, 0.0)
    static_max = static[1] or 0.0 if static is not None else 0.0
    per_case = (
        None
        if max_score is None
        else ((max_score - static_max) / max(len(cases), 1) if aggregation == "sum" else max_score)
    )
    maxima = [per_case] * len(cases) + ([static[1]] if static is not None else [])
    scores: list[float] = []
    for case, most in zip(everything, maxima, strict=True):
        value = _case_score(case, most)
        if isinstance(value, str):
            return Grade(Verdict.JE, 0.0, value)
        scores.append(value)
    total = sum(scores) if aggregation == "sum" else min(scores)
    return Grade(verdict, total)


def _case_score(case: CaseScore, most: float | None) -> float | str:
    """One case's score under its maximum (None: unbounded), or why it is a judge error."""
    if case.verdict != Verdict.AC:
        return 0.0
    if most is None:
        if case.multiplier is not None:
            return "score_multiplier.txt for a case with unbounded maximum score"
        if case.score is None:
            return "an unbounded group needs score.txt for every case"
        return case.score
    if case.score is not None and case.multiplier is not None:
        return "score.txt and score_multiplier.txt together"
    if case.multiplier is not None:
        if not 0.0 <= case.multiplier <= 1.0:
            return f"score_multiplier.txt says {case.multiplier:g}, outside [0, 1]"
        return case.multiplier * most
    value = case.score if case.score is not None else most
    if value > most + 1e-9:
        return f"score {value:g} is over the case's maximum {most:g}"
    return value
