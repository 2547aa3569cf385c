"""Issue 40, item 2: nothing of one completion is in another's reach. A scavenger scans
its own address space (every writable mapping: heaps, stacks, libraries' data) for an earlier completion's program and, when it finds it, prints
the answer it holds: 1.0 on a problem it cannot solve means it read another's code. The
scavenger's pattern cannot match its own text (it is a regular expression of classes),
and an honest program longer than the scavenger (whose tail the C loop's main-file buffer
used to keep) is tried as well as a plain one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from problemtools_py import rewards
from problemtools_py.grading import Grader
from problemtools_py.grading.results import Settings
from problemtools_py.grading.testrun import RunLimits
from tests.grading.test_grader import IDS, dataset, py  # noqa: F401 (a fixture)

# The honest program of problem "yes" (answer YES), with a mark the scavenger looks for.
HONEST = 'print("YES")  # 4417-8a1c-scavenge-me'
SCAVENGER = r'''import ctypes, re
found = None
pattern = re.compile(rb'print\("([A-Z]+)"\)  # [0-9]{4}-[0-9a-z]{4}-scavenge-me')
for line in open("/proc/self/maps").read().splitlines():
    span, perms = line.split()[:2]
    if not perms.startswith("rw"):  # (heaps, stacks, the data of libraries: all writable)
        continue
    start, end = (int(x, 16) for x in span.split("-"))
    hit = pattern.search(ctypes.string_at(start, end - start))
    if hit:
        found = hit.group(1).decode()
        break
print(found or "nothing")
'''
# Longer than the scavenger, its mark at the end: the C loop's main-file buffer, written
# only as far as each program goes, used to keep it past a shorter program's bytes.
PADDED = "#" + "x" * (200 << 10) + "\n" + HONEST


@pytest.fixture(scope="module")
def one_sandbox(dataset: Path) -> Iterator[Grader]:  # noqa: F811
    """One worker, so each completion is graded in the same sandbox as the one before."""
    with Grader(dataset, Settings(retries=0), jobs=1) as grader:
        yield grader


@pytest.mark.parametrize("honest", [HONEST, PADDED], ids=["plain", "padded"])
def test_a_scavenger_finds_nothing_of_the_completion_before(one_sandbox: Grader,
                                                            honest: str) -> None:
    for _ in range(2):
        assert one_sandbox.grade(IDS["yes"], py(honest)).reward == 1.0
        assert one_sandbox.grade(IDS["yes"], py(SCAVENGER)).status == "wrong_answer"
        # a run of its own (gradeserver's /run_code): its output says what it found
        assert one_sandbox.grade(IDS["yes"], py(honest)).reward == 1.0
        found = one_sandbox.execute(SCAVENGER, "python3", "", RunLimits(10.0, 1 << 20))
        assert getattr(found, "stdout", b"") == b"nothing\n", found


def test_the_scavenger_does_find_a_program_in_its_own_run(one_sandbox: Grader) -> None:
    """The check can fail: the same scan finds the mark in a program that holds it."""
    found = one_sandbox.execute(SCAVENGER + f"# {HONEST}\n", "python3", "", RunLimits(10.0, 1 << 20))
    assert getattr(found, "stdout", b"") == b"YES\n", found


def test_compute_score_is_not_reachable_either() -> None:
    tests = [["x\n", "YES\n"]]
    for _ in range(2):
        for honest in (HONEST, PADDED):
            assert rewards.compute_score("code", py(honest), tests)["score"] == 1.0
            assert rewards.compute_score("code", py(SCAVENGER), tests)["score"] == 0.0


def test_a_repeated_program_keeps_its_server_of_runs(one_sandbox: Grader,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Rollouts often repeat a program: the same text again reaches nothing new, so the
    session is not renewed for it; any other text is."""
    from problemtools_py.sandbox.client import Sandbox

    renewed = []
    real = Sandbox.renew_lean
    monkeypatch.setattr(Sandbox, "renew_lean", lambda box: (renewed.append(1), real(box)))
    for completion, renews in [(HONEST, 1), (HONEST, 1), (HONEST, 1), (SCAVENGER, 2),
                               (SCAVENGER, 2), (HONEST, 3)]:  # fmt: skip
        one_sandbox.grade(IDS["yes"], py(completion))
        assert len(renewed) == renews
