"""Runs made ahead of the part that needs them: the submissions that must run to their
time limit (an expected TLE) are the longest chain of a verification, so they start as it
does, beside the statement, validators and data checks. Their outcomes go into the
verdict cache, where the submissions part finds them (waiting, through
``Context.burning``, for those still running)."""

from __future__ import annotations

import shutil

from problemtools_py.model.problem import Submission
from problemtools_py.verify.context import Context
from problemtools_py.verify.submissions import SubmissionJudge, cases_of, slowness
from problemtools_py.verify.timelimit import TimeLimit, first_limit


def burn_ahead(ctx: Context) -> None:
    """Start the submissions that must run to their time limit (an expected TLE) now, ahead
    of the checks before the submissions part, under the limit the part will give them
    first (see _time_and_judge): their runs are the longest chain of the verification,
    and the rest of the work fills the other cores beside them. The outcomes go into the
    verdict cache, where the part finds them (and waits for those still running)."""
    slow = [s for s in ctx.problem.submissions
            if ctx.selected(s) and ctx.runnable(s) and slowness(s) == 0]  # fmt: skip
    if not slow or not cases_of(ctx):
        return
    guess = first_limit(ctx.problem, ctx.options.fixed_time_limit)
    pool = ctx.background()
    for sub in slow:
        ctx.burning[sub.rel] = pool.submit(_burn, ctx, sub, guess)


def _burn(ctx: Context, sub: Submission, guess: TimeLimit) -> None:
    build = ctx.submission(sub)
    if build.executable is None:
        return
    judge = SubmissionJudge(ctx)
    try:
        if not judge.checker.error and not judge.visualizer.active:
            judge.run(build.executable, guess.hard, guess.seconds, sub.rel)
    finally:
        shutil.rmtree(judge.work, ignore_errors=True)
