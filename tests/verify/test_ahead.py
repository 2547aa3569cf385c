"""verify/ahead.judge_ahead: every submission's first round runs as the verification
starts (an expected TLE first), once, and the submissions part takes the outcomes from
the verdict cache (waiting for runs still under way)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from problemtools_py.judge.judging import CaseJudge
from problemtools_py.model import load_problem
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.verdicts import Verdict
from problemtools_py.verify import ahead
from problemtools_py.verify.context import Context, Options
from problemtools_py.verify.verifier import verify_all


def _count_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each judged case from now on: "ahead" when it ran in judge_ahead's tasks (a
    submission's, or a helper's), else "part"; the first submission judged ahead is
    recorded as "first:<name>"."""
    flag = threading.local()
    runs: list[str] = []
    real_judge, real_ahead = CaseJudge.judge, ahead._judge

    def judge(self: CaseJudge, *args: object, **kwargs: object) -> object:
        runs.append("ahead" if getattr(flag, "on", False) else "part")
        return real_judge(self, *args, **kwargs)  # type: ignore[arg-type]

    def judged_ahead(ctx: Context, sub: object, *args: object) -> None:
        if not any(r.startswith("first:") for r in runs):
            runs.append(f"first:{getattr(sub, 'rel', '')}")
        flag.on = True
        try:
            real_ahead(ctx, sub, *args)  # type: ignore[arg-type]
        finally:
            flag.on = False

    real_help = ahead._help

    def helped(ctx: Context, *args: object) -> None:
        flag.on = True
        try:
            real_help(ctx, *args)  # type: ignore[arg-type]
        finally:
            flag.on = False

    monkeypatch.setattr(CaseJudge, "judge", judge)
    monkeypatch.setattr(ahead, "_judge", judged_ahead)
    monkeypatch.setattr(ahead, "_help", helped)
    return runs


def test_submissions_run_once_ahead_of_the_part_an_expected_tle_first(
    copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_sample("hello")
    monkeypatch.setenv("XDG_CACHE_HOME", str(root.parent / "cache"))  # (nothing judged yet)
    runs = _count_runs(monkeypatch)
    options = Options(submissions=re.compile(r"(spin\.c|accepted/hello\.c)$"), jobs=1)
    (report,) = verify_all([root], ("data", "submissions"), options=options).problems
    rows = {row.submission: row for row in report.submissions}
    assert rows["submissions/time_limit_exceeded/spin.c"].verdict is Verdict.TLE
    assert rows["submissions/accepted/hello.c"].verdict is Verdict.AC
    cases = len(rows["submissions/accepted/hello.c"].cases)
    # spin.c first (its first case, to the limit), then hello.c's cases: all ahead, once
    assert runs[0] == "first:submissions/time_limit_exceeded/spin.c", runs
    assert runs.count("ahead") == 1 + cases and "part" not in runs, runs


def test_nothing_runs_ahead_without_the_submissions_part(
    copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_sample("hello")
    called: list[object] = []
    monkeypatch.setattr(ahead, "_judge", lambda *args: called.append(args))
    verify_all([root], ("data",), options=Options())
    assert called == []


def test_nothing_more_runs_ahead_once_the_verification_closes(
    copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_sample("hello")
    monkeypatch.setenv("XDG_CACHE_HOME", str(root.parent / "cache"))
    runs = _count_runs(monkeypatch)
    with SandboxPool(1) as pool:
        ctx = Context.create(load_problem(root), Options(jobs=1), pool)
        ctx.close()  # (as after a part that found errors, with --bail)
        sub = next(s for s in ctx.problem.submissions if s.rel.endswith("accepted/hello.c"))
        ahead._judge(ctx, sub, 1.0, 1.0)
    assert "ahead" not in runs and "part" not in runs, runs


def _many_cases(root: Path, count: int) -> list[int]:
    """``count`` more secret cases of divisor (products of two numbers); their n."""
    found = []
    for index in range(count):
        n = (index + 3) * (index + 5)
        (root / "data/secret" / f"x{index:02}.in").write_text(f"{n}\n")
        (root / "data/secret" / f"x{index:02}.ans").write_text("3\n" if n % 3 == 0 else "2\n")
        found.append(n)
    return found


def _judged(root: Path, submission: str, jobs: int) -> tuple[Verdict, list[str]]:
    options = Options(submissions=re.compile(re.escape(submission) + "$"), jobs=jobs)
    (report,) = verify_all([root], ("submissions",), options=options).problems
    (row,) = report.submissions
    assert row.verdict is not None
    return row.verdict, [f"{name}:{cell.verdict.value}" for name, cell in row.cases.items()]


@pytest.mark.parametrize("fails_at", [None, 13])
def test_a_thread_with_nothing_left_helps_judge_the_last_submission(
    copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch, fails_at: int | None
) -> None:
    """One submission selected, two jobs: the second thread judges some of its cases,
    and the outcomes are those one thread gives, up to the first failure where there is
    one (a submission claimed accepted that fails on a later case)."""
    root = copy_sample("divisor")
    numbers = _many_cases(root, 30)
    bad = numbers[fails_at] if fails_at is not None else 0
    (root / "submissions/accepted/late.py").write_text(
        f"n = int(input())\nd = 2\nwhile n % d:\n    d += 1\nprint(1 if n == {bad} else d)\n"
    )
    monkeypatch.setenv("XDG_CACHE_HOME", str(root.parent / "alone"))
    alone = _judged(root, "accepted/late.py", jobs=1)
    monkeypatch.setenv("XDG_CACHE_HOME", str(root.parent / "helped"))
    helped_runs: list[str] = []
    real_help, real_judge = ahead._help, CaseJudge.judge
    flag = threading.local()

    def helping(ctx: Context, *args: object) -> None:
        flag.on = True
        real_help(ctx, *args)  # type: ignore[arg-type]

    def judge(self: CaseJudge, *args: object, **kwargs: object) -> object:
        if getattr(flag, "on", False):
            helped_runs.append(threading.current_thread().name)
        return real_judge(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ahead, "_help", helping)
    monkeypatch.setattr(CaseJudge, "judge", judge)
    helped = _judged(root, "accepted/late.py", jobs=2)
    assert helped == alone
    assert alone[0] is (Verdict.AC if fails_at is None else Verdict.WA)
    assert len(alone[1]) == (6 + 30 if fails_at is None else 6 + fails_at + 1), alone
    assert helped_runs, "no case was judged by a helper"


def test_the_report_counts_the_cpu_its_programs_took(
    copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """runs_cpu (bench/'s floor, issue 61): every program's CPU, the work ahead's too,
    at least the submissions' own; none when every verdict came from the cache."""
    root = copy_sample("hello")
    monkeypatch.setenv("XDG_CACHE_HOME", str(root.parent / "cache"))
    options = Options(submissions=re.compile(r"(spin\.c|accepted/hello\.c)$"), jobs=2)
    (report,) = verify_all([root], ("data", "submissions"), options=options).problems
    judged = sum(cell.cpu for row in report.submissions for cell in row.cases.values())
    assert judged > 0.5 and report.runs_cpu >= judged  # (spin.c ran to its limit)
    (again,) = verify_all([root], ("data", "submissions"), options=options).problems
    assert again.runs_cpu < judged / 10  # (cached: at most a probe of the sandbox's)
