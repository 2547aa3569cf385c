"""judging/rounds.py: the cases submissions are judged on, and the first round's order and
limits (expected TLEs first, then the accepted ones timing the limit, then the rest)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from problemtools_py.judging.rounds import cases_of, first_round, slowness, times_the_limit
from problemtools_py.model import load_problem
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.verify.context import Context
from problemtools_py.verify.options import Options

SAMPLES = Path(__file__).resolve().parents[3] / "sample_problems"


def context(name: str, **options: object) -> Context:
    """A verification's Context on a sample (its pool never used: nothing runs here)."""
    opts = Options(**options)  # type: ignore[arg-type]
    return Context.create(load_problem(SAMPLES / name), opts, SandboxPool(1))


def test_expected_tles_run_first_then_the_timers_under_the_cap_then_the_rest() -> None:
    ctx = context("hello", timing_cap=30.0)
    subs = list(ctx.problem.submissions)
    jobs = first_round(ctx, subs)
    names = [sub.rel.split("/", 1)[1] for sub, _, _ in jobs]
    assert sorted(names) == sorted(s.rel.split("/", 1)[1] for s in subs)
    first_two = {n.split("/")[0] for n in names[:2]}
    assert first_two == {"time_limit_exceeded"}
    assert {n.split("/")[0] for n in names[2:6]} == {"accepted"}
    assert {n.split("/")[0] for n in names[6:]} == {"run_time_error", "wrong_answer"}
    by_name = dict(zip(names, jobs, strict=True))
    tle, timer, other = (by_name[n] for n in ("time_limit_exceeded/spin.c",
                                               "accepted/hello.c", "wrong_answer/world.py"))  # fmt: skip
    # legacy: the others run under the smallest limit (1 s) times the margin until the
    # accepted ones are timed; those run under the timing cap, their limit not yet known
    assert tle[1:] == other[1:] and tle[2] == 1.0 and tle[1] > tle[2]
    assert timer[1:] == (30.0, None)


def test_a_fixed_limit_is_the_limit_of_every_first_run() -> None:
    ctx = context("hello", fixed_time_limit=3.0)
    jobs = first_round(ctx, list(ctx.problem.submissions))
    assert {time for _, _, time in jobs} == {3.0}
    assert {cpu for _, cpu, _ in jobs} == {jobs[0][1]} and jobs[0][1] > 3.0


@pytest.mark.parametrize(
    ("rel", "slow", "timer"),
    [
        ("time_limit_exceeded/spin.c", 0, False),
        ("accepted/hello.py", 1, True),
        ("wrong_answer/world.py", 1, False),
        ("run_time_error/crash.py", 1, False),
    ],
)
def test_slowness_and_who_times_the_limit(rel: str, slow: int, timer: bool) -> None:
    (sub,) = [s for s in context("hello").problem.submissions if s.rel.endswith(rel)]
    assert (slowness(sub), times_the_limit(sub)) == (slow, timer)


def test_cases_are_sample_and_secret_ones_with_an_answer_as_data_selects() -> None:
    every = [c.name for c in cases_of(context("average"))]
    assert every == ["sample/1", "sample/2", "secret/1", "secret/2", "secret/3", "secret/4"]
    chosen = cases_of(context("average", data=re.compile("secret/[12]")))
    assert [c.name for c in chosen] == ["secret/1", "secret/2"]
