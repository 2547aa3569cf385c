"""verify/ahead.burn_ahead: an expected TLE runs as the verification starts, once,
and the submissions part takes its outcomes from the verdict cache (waiting for it)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from problemtools_py.judge.judging import CaseJudge
from problemtools_py.verdicts import Verdict
from problemtools_py.verify import ahead
from problemtools_py.verify.context import Options
from problemtools_py.verify.verifier import verify_all


def test_an_expected_tle_runs_once_ahead_of_the_part(
    copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_sample("hello")
    monkeypatch.setenv("XDG_CACHE_HOME", str(root.parent / "cache"))  # (nothing judged yet)
    flag = threading.local()
    runs: list[bool] = []  # each judged case: whether it ran ahead (in burn_ahead's task)
    real_judge, real_burn = CaseJudge.judge, ahead._burn

    def judge(self: CaseJudge, *args: object, **kwargs: object) -> object:
        runs.append(getattr(flag, "on", False))
        return real_judge(self, *args, **kwargs)  # type: ignore[arg-type]

    def burn(*args: object) -> None:
        flag.on = True
        try:
            real_burn(*args)  # type: ignore[arg-type]
        finally:
            flag.on = False

    monkeypatch.setattr(CaseJudge, "judge", judge)
    monkeypatch.setattr(ahead, "_burn", burn)
    options = Options(submissions=re.compile(r"(spin\.c|accepted/hello\.c)$"))
    (report,) = verify_all([root], ("data", "submissions"), options=options).problems
    rows = {row.submission: row for row in report.submissions}
    assert rows["submissions/time_limit_exceeded/spin.c"].verdict is Verdict.TLE
    assert rows["submissions/accepted/hello.c"].verdict is Verdict.AC
    cases = len(rows["submissions/accepted/hello.c"].cases)
    # spin.c once, ahead (its first case, to the limit); hello.c's cases in the part
    assert runs.count(True) == 1 and runs.count(False) == cases, runs


def test_nothing_runs_ahead_without_the_submissions_part(
    copy_sample: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_sample("hello")
    called: list[object] = []
    monkeypatch.setattr(ahead, "_burn", lambda *args: called.append(args))
    verify_all([root], ("data",), options=Options())
    assert called == []
