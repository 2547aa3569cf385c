"""Deriving the time limit from the accepted submissions' CPU times.

Legacy (problemtools' rule, kept): ``limit = max(1, ceil(t_max * time_multiplier))`` whole
seconds, and every other submission runs with ``limit * time_safety_margin``.
2023-07: ``limit`` is the smallest multiple of ``time_resolution`` at least
``t_max * ac_to_time_limit`` (an explicit ``limits.time_limit`` wins), and the margin is
``time_limit_to_tle``. A ``-t`` option, or a ``.timelimit`` file in the package, fixes it."""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from problemtools_py.model.problem import Problem


class LimitKind(enum.Enum):
    FIXED = "fixed"  # -t, .timelimit, or limits.time_limit
    DERIVED = "derived"  # from the slowest accepted run
    DEFAULT = "default"  # no accepted run to time: 1 s


@dataclass(frozen=True)
class TimeLimit:
    """The time limit and its margin, and how they were decided."""

    seconds: float
    margin: float  # the factor: runs are cut at seconds * margin
    kind: LimitKind
    source: str  # how it was decided, for people

    @property
    def hard(self) -> float:
        return self.seconds * self.margin


def fixed_limit(problem: Problem, option: float | None) -> TimeLimit | None:
    """The limit when something fixes it: ``-t``, else what the package declares."""
    margin = problem.config.limits.time_safety_margin
    if option is not None:
        return TimeLimit(option, margin, LimitKind.FIXED, "-t/--fixed-timelim")
    declared = problem.declared_time_limit
    if declared is not None and declared.seconds is not None:
        return TimeLimit(declared.seconds, margin, LimitKind.FIXED, declared.source)
    return None


def derive(problem: Problem, slowest_ac: float) -> float:
    limits = problem.config.limits
    if problem.legacy:
        return float(max(1, math.ceil(slowest_ac * limits.time_multiplier)))
    resolution = limits.time_resolution
    steps = max(1, math.ceil(round(slowest_ac * limits.time_multiplier / resolution, 9)))
    return steps * resolution


def time_limit(problem: Problem, option: float | None, slowest_ac: float | None) -> TimeLimit:
    fixed = fixed_limit(problem, option)
    if fixed is not None:
        return fixed
    margin = problem.config.limits.time_safety_margin
    if slowest_ac is None:
        return TimeLimit(1.0, margin, LimitKind.DEFAULT, "no accepted run to time; 1 s")
    return TimeLimit(
        derive(problem, slowest_ac),
        margin,
        LimitKind.DERIVED,
        f"slowest accepted run {slowest_ac:.2f} s",
    )


def first_limit(problem: Problem, option: float | None) -> TimeLimit:
    """The limit the submissions part runs the others under until the accepted ones are
    timed: the fixed one, else the smallest the rules allow. Expected TLEs run ahead under
    it too (verify/ahead.judge_ahead), so that the part finds those runs in the verdict cache."""
    return time_limit(problem, option, 0.0)
