"""The first round of the submissions part: which test cases are judged, and which
submissions run first under which limits (expected TLEs, then the runs that time the
limit, then the rest). Kept apart from the judging itself, so that the runs made ahead
(see verify/ahead.py) start before the judge's own modules are imported."""

from __future__ import annotations

from dataclasses import dataclass

from problemtools_py.model.problem import Submission, TestCase
from problemtools_py.model.testdata import GroupKind
from problemtools_py.model.timelimit import TimeLimit, first_limit, fixed_limit, time_limit
from problemtools_py.verdicts import Verdict

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from problemtools_py.judging.session import Session


def cases_of(ctx: Session) -> list[TestCase]:
    """The test cases submissions are judged on: sample and secret ones with an input
    and an answer, as --data selects."""
    return ctx.cases({GroupKind.JUDGED}, (".in", ".ans"))


Job = tuple[Submission, float, float | None]  # a submission, its CPU limit, the time limit


@dataclass(frozen=True)
class RoundLimits:
    """The limits the submissions part starts from: the one something fixes (``-t``, the
    package), if any, and the first, which the others run under until the accepted ones
    are timed (the fixed one, else the smallest the rules allow)."""

    fixed: TimeLimit | None
    first: TimeLimit
    timing_cap: float  # CPU seconds a timing run may take when nothing fixes the limit

    @classmethod
    def of(cls, ctx: Session) -> RoundLimits:
        option = ctx.policy.fixed_time_limit
        return cls(
            fixed_limit(ctx.problem, option),
            first_limit(ctx.problem, option),
            ctx.policy.timing_cap,
        )

    @property
    def timing_runs_cap(self) -> float:
        """The CPU limit the runs that time the limit go under."""
        return self.fixed.hard if self.fixed is not None else self.timing_cap

    def final(self, ctx: Session, slowest: float | None) -> TimeLimit:
        """The time limit: the fixed one, else derived from the slowest timing run."""
        return self.fixed or time_limit(ctx.problem, None, slowest)


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


def first_round(ctx: Session, subs: list[Submission]) -> list[Job]:
    """The submissions' first runs, in the order they start, each with the CPU limit it
    runs under and the time limit its verdict is taken at. Expected TLEs first (they run to
    the limit, and must not be the last to start), then the timing runs of the accepted
    ones (under the timing cap), then the rest. The others run under the smallest limit
    the rules allow (legacy: 1 s; 2023-07: one time_resolution) times the margin until the
    accepted ones are timed: the final limit on most problems."""
    timers = [s for s in subs if times_the_limit(s)]
    others = [s for s in subs if s not in timers]
    limits = RoundLimits.of(ctx)
    guess, cap = limits.first, limits.timing_runs_cap
    slow = [s for s in others if slowness(s) == 0]
    jobs: list[Job] = [(s, guess.hard, guess.seconds) for s in slow]
    jobs += [(s, cap, guess.seconds if limits.fixed is not None else None) for s in timers]
    jobs += [(s, guess.hard, guess.seconds) for s in others if s not in slow]
    return jobs


def slowness(sub: Submission) -> int:
    """0 for a submission expected to time out (its runs go to the limit: started
    first), 1 for the others."""
    exp = sub.expectation
    return 0 if exp is not None and exp.required is not None and Verdict.TLE in exp.required else 1
