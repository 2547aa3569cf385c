"""grading.problems.RecentProblems: a problem fetched once and kept; one its source
cannot grade (Unavailable) tried once, its failure raised again for every completion
with a traceback of its own (a kept exception raised again grew one per raise)."""

from __future__ import annotations

import traceback

import pytest

from problemtools_py.errors import FatalError
from problemtools_py.grading.problems import Fetched, RecentProblems, Unavailable


class _Source:
    """A source of one problem, one package it cannot grade, and nothing else."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def fetch(self, pid: str) -> Fetched | None:
        self.asked.append(pid)
        if pid == "left-out":
            raise Unavailable("kattis2parquet leaves this package out (too few tests)")
        return Fetched(((("1\n", "1\n"),)), 1.0, "") if pid == "kept" else None

    def ids(self) -> set[str]:
        return {"kept", "left-out"}

    def close(self) -> None:
        pass


def test_a_problem_is_fetched_once() -> None:
    source, recent = _Source(), RecentProblems()
    assert recent.get(source, "kept") is recent.get(source, "kept")  # type: ignore[arg-type]
    assert source.asked == ["kept"]
    with pytest.raises(FatalError, match="no problem with id 'nothing'"):
        recent.get(source, "nothing")  # type: ignore[arg-type]


def test_a_problem_that_cannot_be_graded_is_tried_once_and_its_traceback_stays_short() -> None:
    source, recent = _Source(), RecentProblems()
    depths = []
    for _ in range(50):
        with pytest.raises(Unavailable, match="too few tests") as raised:
            recent.get(source, "left-out")  # type: ignore[arg-type]
        depths.append(len(traceback.extract_tb(raised.value.__traceback__)))
    assert source.asked == ["left-out"]
    assert max(depths) <= depths[0], depths  # (was 3, 5, 7, ...: one more frame a raise)
