"""Deriving the time limit from the accepted submissions' CPU times.

Legacy (problemtools' rule, kept): ``limit = max(1, ceil(t_max * time_multiplier))`` whole
seconds, and every other submission runs with ``limit * time_safety_margin``.
2023-07: ``limit`` is the smallest multiple of ``time_resolution`` at least
``t_max * ac_to_time_limit`` (an explicit ``limits.time_limit`` wins), and the margin is
``time_limit_to_tle``. A ``-t`` option, or a ``.timelimit`` file in the package, fixes it."""

from __future__ import annotations

import math
from dataclasses import dataclass

from problemtools_py.model.problem import Problem


@dataclass(frozen=True)
class TimeLimit:
    seconds: float
    margin: float  # the factor: runs are cut at seconds * margin
    source: str  # how it was decided

    @property
    def hard(self) -> float:
        return self.seconds * self.margin


def fixed_limit(problem: Problem, option: float | None) -> tuple[float, str] | None:
    if option is not None:
        return option, "-t/--fixed-timelim"
    dot = problem.root / ".timelimit"
    if dot.is_file():
        try:
            return float(dot.read_text().split()[0]), ".timelimit"
        except (ValueError, IndexError):
            return None
    if not problem.legacy and problem.config.limits.time_limit:
        return problem.config.limits.time_limit, "limits.time_limit"
    return None


def derive(problem: Problem, slowest_ac: float) -> float:
    limits = problem.config.limits
    if problem.legacy:
        return float(max(1, math.ceil(slowest_ac * limits.time_multiplier)))
    resolution = limits.time_resolution
    steps = max(1, math.ceil(round(slowest_ac * limits.time_multiplier / resolution, 9)))
    return steps * resolution


def time_limit(problem: Problem, option: float | None, slowest_ac: float | None) -> TimeLimit:
    margin = problem.config.limits.time_safety_margin
    fixed = fixed_limit(problem, option)
    if fixed is not None:
        return TimeLimit(fixed[0], margin, fixed[1])
    if slowest_ac is None:
        return TimeLimit(1.0, margin, "no accepted run to time; 1 s")
    return TimeLimit(
        derive(problem, slowest_ac), margin, f"slowest accepted run {slowest_ac:.2f} s"
    )
