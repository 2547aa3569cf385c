"""Issue 40, item 4: bounds that hold machine-wide. Descriptors per task (a jail's tasks
times them stay far below fs.file-max) on every path a program takes, and the size of
what one completion may ask the grader to compile."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from problemtools_py import rewards
from problemtools_py.grading import Grader
from problemtools_py.grading.results import MAX_COMPLETION_CHARS, MAX_PROGRAM_BYTES, Settings
from problemtools_py.grading.testrun import RunLimits
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.inside import NOFILE
from problemtools_py.sandbox.protocol import LEAN_LOOP
from problemtools_py.sandbox.results import Limits
from tests.grading.test_grader import IDS, dataset, py  # noqa: F401 (a fixture)

SHOW = "import resource\nprint(*resource.getrlimit(resource.RLIMIT_NOFILE))"
WANT = f"{NOFILE} {NOFILE}\n"


@pytest.fixture(scope="module")
def grader(dataset: Path) -> Iterator[Grader]:  # noqa: F811
    with Grader(dataset, Settings(retries=0), jobs=1) as g:
        yield g


@pytest.mark.skipif(os.geteuid() != 0, reason="jails need root")
def test_descriptors_per_task_are_bounded_in_a_plain_run() -> None:
    with Sandbox() as box:
        ran = box.run(["python3", "-c", SHOW], limits=Limits(5.0, 256 << 20))
    assert ran.stdout.decode() == WANT


@pytest.mark.parametrize("loop", ["c", "python"])
def test_descriptors_per_task_are_bounded_in_lean_runs(loop: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(LEAN_LOOP, loop)
    got = rewards.compute_score("code", py(SHOW), [["x\n", WANT]], details=True)
    assert got["score"] == 1.0, got


def test_a_program_over_the_size_bound_is_code_too_large(grader: Grader) -> None:
    big = "print('YES')\n#" + "x" * MAX_PROGRAM_BYTES + "\n"
    result = grader.grade(IDS["yes"], py(big))
    assert (result.reward, result.status) == (0.0, "code_too_large"), result
    assert "at most 262,144" in result.message
    ran = grader.execute(big, "python3", "", RunLimits(1.0, 1 << 20))
    assert getattr(ran, "status", None) == "code_too_large"
    fits = "print('YES')\n#" + "x" * (MAX_PROGRAM_BYTES - 100) + "\n"
    assert grader.grade(IDS["yes"], py(fits)).reward == 1.0


def test_a_completion_over_the_size_bound_is_refused_unread(grader: Grader) -> None:
    prose = "I think. " * (MAX_COMPLETION_CHARS // 9 + 1)
    result = grader.grade(IDS["yes"], prose + py("print('YES')"))
    assert (result.reward, result.status) == (0.0, "code_too_large"), result
