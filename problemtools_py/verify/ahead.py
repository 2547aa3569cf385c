"""Runs made ahead of the part that needs them. The submissions part waits for the parts
before it (validators, data), yet its runs need only the builds: so every submission's
first round (see rounds.first_round) starts as the verification does, in the
background threads, expected TLEs first (their runs are the longest chain), then the
builds of everything else, then the other submissions. The outcomes go into the verdict
cache, where the submissions part finds them (waiting, through ``Context.ahead``, for
those still running)."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable

from problemtools_py.judging.rounds import cases_of, first_round, slowness
from problemtools_py.model.problem import Submission
from problemtools_py.sandbox import native
from problemtools_py.verify.context import Context

# Cases a submission must have left for a thread with nothing else to do to help judge
# them: a helper opens jails of its own (~10-25 ms, see judge/held.py).
HELP_LEFT = 8


def judge_ahead(ctx: Context) -> None:
    """Start judging every selected submission now, in the order and under the limits the
    submissions part will use first; the builds of the others start between the expected
    TLEs and the rest, so compilation overlaps with the checks before that part."""
    subs = [s for s in ctx.problem.submissions if ctx.selected(s) and ctx.runnable(s)]
    cases = cases_of(ctx)
    if not cases:
        ctx.prefetch_submissions()
        return
    # every held jail is lean (see judge/held.py): its C run loop is built (once) meanwhile
    threading.Thread(target=native.library, daemon=True).start()
    pool = ctx.background()
    jobs = first_round(ctx, subs)
    slow = [job for job in jobs if slowness(job[0]) == 0]
    for sub, cpu_limit, time_limit in slow:
        ctx.ahead[sub.rel] = pool.submit(_judge, ctx, sub, cpu_limit, time_limit)
    ctx.prefetch_submissions()
    for sub, cpu_limit, time_limit in jobs:
        if sub.rel not in ctx.ahead:
            ctx.ahead[sub.rel] = pool.submit(_judge, ctx, sub, cpu_limit, time_limit)
    judging = list(ctx.ahead.values())
    for future in judging:
        future.add_done_callback(lambda _: ctx.sharing.wake())
    for _ in range(max(1, ctx.options.jobs)):  # (each starts once every judging has)
        pool.submit(_help, ctx, lambda: ctx.closing.is_set() or all(f.done() for f in judging))


def _judge(ctx: Context, sub: Submission, cpu_limit: float, time_limit: float | None) -> None:
    if ctx.closing.is_set():
        return
    build = ctx.submission(sub)
    if build.executable is None:
        return
    # (imported here, while the first builds run: not on the way to their start)
    from problemtools_py.judging.submission_judge import SubmissionJudge

    judge = SubmissionJudge(ctx)
    try:
        if not judge.checker.error and not judge.visualizer.active:
            judge.run(build.executable, cpu_limit, time_limit, sub)
    finally:
        shutil.rmtree(judge.work, ignore_errors=True)


def _help(ctx: Context, finished: Callable[[], bool]) -> None:
    """A thread with nothing left to start: judge cases of the submissions still running
    (the one with the most left first) while one has HELP_LEFT or more, until every
    submission judged ahead is done. A helper that failed stops (the cases it gave back
    are its submission's own thread's)."""
    while (helper := ctx.sharing.next_helper(HELP_LEFT, finished)) is not None:
        if not helper():
            return
