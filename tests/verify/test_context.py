"""verify/context.Context: builds start longest first; compilers are warmed where it pays."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers.packages import SAMPLES

from problemtools_py import cachedir
from problemtools_py.judge import pch
from problemtools_py.model import load_problem
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.verdicts import Verdict
from problemtools_py.verify.context import Context, Options
from problemtools_py.verify.verifier import verify_all


class Recorder:
    def __init__(self) -> None:
        self.order: list[str] = []

    def submit(self, fn: Callable[..., Any], sub: Any) -> None:
        self.order.append(sub.rel.rsplit("/", 1)[-1])


def test_submissions_are_built_longest_first() -> None:
    """hello's Java programs (a JVM compiler) first, then C++, then C, then Python (the
    in-process compile step), each in the package's order."""
    with SandboxPool(1) as pool:  # (never used: nothing is built here)
        ctx = Context.create(load_problem(SAMPLES / "hello"), Options(jobs=1), pool)
        recorder = Recorder()
        ctx.background = lambda: recorder  # type: ignore[method-assign,assignment,return-value]
        ctx.prefetch_submissions()
    suffixes = [name.rsplit(".", 1)[-1] for name in recorder.order]
    assert suffixes == ["java", "java", "cpp", "cpp", "c", "c", "c", "py", "py", "py", "py"]


def test_the_compilers_are_warmed_only_where_the_cache_outlives_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A verification on a new cache (a CI runner's) makes no precompiled header or class-
    data archive (a few compilations do not pay for one); on a cache an earlier run used,
    it does."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(cachedir, "_used", {})
    warmed = []
    with SandboxPool(1) as pool:  # (never used: nothing is built here)
        for _ in range(2):
            ctx = Context.create(load_problem(SAMPLES / "hello"), Options(jobs=1), pool)
            warmed.append(ctx.builder.warm_compilers)
            monkeypatch.setattr(cachedir, "_used", {})  # (the next one: a new process)
    assert warmed == [False, True]


def test_a_first_verification_on_a_new_cache_makes_no_state_and_a_later_one_does(
    copy_sample: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """End to end on hello's C++ submission (it starts with <iostream>): on a new cache it
    is judged as before with no state made; the next verification (another process) that
    compiles it makes one."""
    root = copy_sample("hello")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    states = tmp_path / "cache" / "problemtools_py" / "pch"
    options = Options(submissions=re.compile(r"accepted/hello\.cpp$"), jobs=1)
    for made in (False, True):
        monkeypatch.setattr(cachedir, "_used", {})  # (each run: a new process)
        monkeypatch.setattr(pch, "_memo", {})
        (report,) = verify_all([root], ("submissions",), options=options).problems
        assert [row.verdict for row in report.submissions] == [Verdict.AC]
        assert bool(list(states.glob(f"*/{pch.state('iostream')}"))) is made
        source = root / "submissions/accepted/hello.cpp"
        source.write_text(source.read_text() + "\n// changed: compiled again\n")
