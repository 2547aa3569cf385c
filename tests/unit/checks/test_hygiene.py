"""Test-data hygiene on copies of sample_problems/subtasks: each fault gives its one
warning, naming the file; what is intended gives none."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.builders import write
from helpers.packages import describe, verify


def _copy(root: Path, src: str, dst: str) -> None:
    for ext in (".in", ".ans"):
        shutil.copyfile(root / f"{src}{ext}", root / f"{dst}{ext}")


def _same_answers(root: Path) -> None:
    for ans in (root / "data/secret").rglob("*.ans"):
        ans.write_text("0\n")


def _huge(root: Path) -> None:
    with open(root / "data/secret/2-large/03-huge.in", "wb") as handle:
        handle.seek((101 << 20) - 1)  # sparse: the size is what counts
        handle.write(b"\n")
    write(root, "data/secret/2-large/03-huge.ans", "0\n")


FAULTS = {
    "duplicate-input": (
        lambda r: _copy(r, "data/secret/1-small/01-one", "data/secret/2-large/03-again"),
        "data/secret/2-large/03-again.in", "the same input as data/secret/1-small/01-one.in"),
    "same-answers": (_same_answers, "data/secret",
                     "all 4 secret answers are the same: a program printing it would pass"),
    "huge-file": (_huge, "data/secret/2-large/03-huge.in", "101 MiB: over the 100 MiB"),
}


@pytest.mark.parametrize("change,path,text", FAULTS.values(), ids=list(FAULTS))
def test_hygiene_fault(copy_sample: Callable[..., Path], change: Callable[[Path], None],
                       path: str, text: str) -> None:
    root = copy_sample("subtasks")
    change(root)
    found = [(f.severity.value, f.check, f.path, f.message)
             for f in verify(root, ("data",)).findings]
    assert found == [("warning", "hygiene", path, found[0][3] if found else "")], found
    assert text in found[0][3]


def test_a_sample_repeated_in_secret_is_intended(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("subtasks")
    _copy(root, "data/sample/1", "data/secret/1-small/03-sample")
    report = verify(root, ("data",))
    assert report.findings == [], describe(report)


def test_same_answers_are_fine_for_a_custom_validator(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("subtasks")
    _same_answers(root)
    write(root, "output_validator/check.py", "import sys\nsys.exit(42)\n")
    report = verify(root, ("data",))
    assert [f for f in report.findings if f.check == "hygiene"] == [], describe(report)
