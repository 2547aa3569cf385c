"""verify/context.Context: builds start longest first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conftest import SAMPLES

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
