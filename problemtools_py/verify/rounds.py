"""The first round of the submissions part: which test cases are judged, and which
submissions run first under which limits (expected TLEs, then the runs that time the
limit, then the rest). Kept apart from the judging itself, so that the runs made ahead
(see ahead.py) start before the judge's own modules are imported."""

from __future__ import annotations

from problemtools_py.model.problem import Submission, TestCase
from problemtools_py.model.testdata import is_judged
from problemtools_py.model.timelimit import first_limit, fixed_limit
from problemtools_py.verdicts import Verdict

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from problemtools_py.verify.context import Context


def cases_of(ctx: Context) -> list[TestCase]:
    """The test cases submissions are judged on: sample and secret ones with an input
    and an answer, as --data selects."""
    if ctx.problem.data is None:
        return []
    return [
        c
        for g in ctx.problem.data.walk()
        if is_judged(g.name)
        for c in g.cases
        if {".in", ".ans"} <= set(c.files) and ctx.data_selected(c.name)
    ]


Job = tuple[Submission, float, float | None]  # a submission, its CPU limit, the time limit


def times_the_limit(sub: Submission) -> bool:
    """Whether ``sub``'s running times decide the time limit (an accepted one, or one
    submissions.yaml says is used as its lower bound)."""
    exp = sub.expectation
    if exp is None or exp.compile_error or exp.time_limit_use in (False, "upper"):
        return False
    if exp.time_limit_use == "lower":
        return True
    return exp.accepted or (
        exp.permitted is not None
        and Verdict.TLE not in exp.permitted
        and Verdict.AC in exp.permitted
        and exp.required is None
    )


def first_round(ctx: Context, subs: list[Submission]) -> list[Job]:
    """The submissions' first runs, in the order they start, each with the CPU limit it
    runs under and the time limit its verdict is taken at. Expected TLEs first (they run to
    the limit, and must not be the last to start), then the timing runs of the accepted
    ones (under the timing cap), then the rest. The others run under the smallest limit
    the rules allow (legacy: 1 s; 2023-07: one time_resolution) times the margin until the
    accepted ones are timed: the final limit on most problems."""
    timers = [s for s in subs if times_the_limit(s)]
    others = [s for s in subs if s not in timers]
    fixed = fixed_limit(ctx.problem, ctx.options.fixed_time_limit)
    guess = first_limit(ctx.problem, ctx.options.fixed_time_limit)
    cap = fixed.hard if fixed is not None else ctx.options.timing_cap
    slow = [s for s in others if slowness(s) == 0]
    jobs: list[Job] = [(s, guess.hard, guess.seconds) for s in slow]
    jobs += [(s, cap, guess.seconds if fixed is not None else None) for s in timers]
    jobs += [(s, guess.hard, guess.seconds) for s in others if s not in slow]
    return jobs


def slowness(sub: Submission) -> int:
    """0 for a submission expected to time out (its runs go to the limit: started
    first), 1 for the others."""
    exp = sub.expectation
    return 0 if exp is not None and exp.required is not None and Verdict.TLE in exp.required else 1
