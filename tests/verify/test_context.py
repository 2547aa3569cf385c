"""verify/context.Context: builds start longest first; compilers are warmed where it pays."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import SAMPLES

from problemtools_py import cachedir
from problemtools_py.model import load_problem
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.verify.context import Context, Options


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
