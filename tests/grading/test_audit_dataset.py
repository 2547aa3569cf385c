"""auditdata on a dataset (grading.audit): each row's reference mutated and run on the
row's tests one at a time through the grading path; survivors named (a row has no
generator to tell them from equivalent mutants, and a note says so)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from problemtools_py.cli.auditdata import main as auditdata
from problemtools_py.cli.kattis2parquet import main as kattis2parquet
from problemtools_py.cli.newproblem import main as newproblem

Capture = pytest.CaptureFixture[str]
GUARDED = """n = int(input())
values = list(map(int, input().split()))
if n > 5:
    total = 0
    for value in values:
        total += value
else:
    total = sum(values)
print(total)
"""


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("made")
    assert newproblem(["sum", "-d", str(root)]) == 0
    (root / "sum/submissions/accepted/solution.py").write_text(GUARDED)
    out = root / "ds"
    assert kattis2parquet([str(root / "sum"), "-o", str(out), "-q", "--min-tests", "1"]) == 0
    return out


def test_rows_are_audited(dataset: Path, tmp_path: Path, capsys: Capture) -> None:
    wrong = tmp_path / "first.py"
    wrong.write_text("input()\nprint(input().split()[0])\n")
    capsys.readouterr()
    assert auditdata([str(dataset), "--mutants", "50", "--wrong", str(wrong), "--json"]) == 1
    (row,) = json.loads(capsys.readouterr().out)["problems"]
    statuses = {p["change"]: p["status"] for p in row["programs"] if p["kind"] == "mutant"}
    assert statuses["+ -> -"] == "rejected"  # (the loop: n = 10 and 1000 reach it)
    assert statuses["> -> >="] == "survived"  # (n = 5 is in no test: the guard's mutants)
    (given,) = [p for p in row["programs"] if p["kind"] == "given"]
    assert given["status"] == "rejected" and given["rejected_by"]
    assert any("no generator" in note for note in row["notes"])
    assert row["cases"] == [f"test {i}" for i in range(len(row["cases"]))]


def test_a_text_report_has_no_groups(dataset: Path, capsys: Capture) -> None:
    capsys.readouterr()
    auditdata([str(dataset), "--mutants", "3"])
    out = capsys.readouterr().out
    assert "the tests reject" in out and "rejected by group" not in out
