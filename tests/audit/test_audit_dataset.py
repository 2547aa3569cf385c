"""auditdata on a dataset (audit.dataset): each row's reference mutated and run on every
test of the row through the grading path; survivors tried on random inputs made after
the row's own within its statement's bounds (a witness, else an equivalent mutant);
``--augment`` writes a new dataset whose rows gain the witnesses, and the audit of it
has no survivor while correct programs keep their reward."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.dataset_gen import write_rows

from problemtools_py.cli.auditdata import main as auditdata
from problemtools_py.cli.gradecode import main as gradecode
from problemtools_py.cli.kattis2parquet import main as kattis2parquet
from problemtools_py.dataset.reader import Dataset

Capture = pytest.CaptureFixture[str]

# Planted weak tests: every value small, so that an `int` sum never overflows...
SUM = ("Given $n$ ($1 \\le n \\le 1000$) and $n$ integers $a_i$ ($1 \\le a_i \\le 10^9$), "
       "print their sum.",
       "n = int(input())\nprint(sum(map(int, input().split())))\n",
       [(f"{len(v)}\n{' '.join(map(str, v))}\n", f"{sum(v)}\n")
        for v in ([1], [2, 3], [10, 20, 30], [7] * 5, [100, 1, 99, 2])])
# ... and no n a multiple of k, so that a loop one short passes.
COUNT = ("Given $n$ and $k$ ($1 \\le k \\le n \\le 100$), print how many of $1, \\dots, n$ are "
         "divisible by $k$.",
         "n, k = map(int, input().split())\ncount = 0\nfor i in range(1, n + 1):\n"
         "    if i % k == 0:\n        count += 1\nprint(count)\n",
         [(f"{n} {k}\n", f"{n // k}\n") for n, k in ((7, 2), (10, 3), (9, 4), (5, 7), (13, 5))])
# Both branches sum the list: the guard's mutants are equivalent.
GUARDED = ("Given $n$ ($1 \\le n \\le 100$) and $n$ integers $a_i$ ($0 \\le a_i \\le 100$), "
           "print their sum (guarded).",
           "n = int(input())\nvalues = list(map(int, input().split()))\nif n > 5:\n"
           "    total = 0\n    for value in values:\n        total += value\nelse:\n"
           "    total = sum(values)\nprint(total)\n",
           [(f"{len(v)}\n{' '.join(map(str, v))}\n", f"{sum(v)}\n")
            for v in ([1, 2], [3] * 10, [0], list(range(40)))])
INT_SUM = """#include <iostream>
int main() { int n; std::cin >> n; int s = 0;
  for (int i = 0; i < n; ++i) { int a; std::cin >> a; s += a; }
  std::cout << s << std::endl; }
"""
LONG_SUM = INT_SUM.replace("int s = 0", "long long s = 0")


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], Path]:
    root = tmp_path_factory.mktemp("planted")
    ids = write_rows(root / "ds", [SUM, COUNT, GUARDED])
    (root / "int_sum.cpp").write_text(INT_SUM)
    return root / "ds", dict(zip(("sum", "count", "guarded"), ids, strict=True)), root


def _audit(args: list[str], capsys: Capture) -> tuple[int, Any]:
    capsys.readouterr()
    code = auditdata([*args, "--json", "-q"])
    document = json.loads(capsys.readouterr().out)
    return code, document


def test_planted_weak_rows_are_named_with_witnesses(
    planted: tuple[Path, dict[str, str], Path], capsys: Capture
) -> None:
    ds, ids, root = planted
    code, document = _audit([str(ds), "--wrong", str(root / "int_sum.cpp")], capsys)
    assert code == 1
    rows = {row["problem"]: row for row in document["problems"]}
    overflow = [p for p in rows[ids["sum"]]["programs"] if p["kind"] == "given"]
    assert [p["status"] for p in overflow] == ["survived"]
    assert int(max(overflow[0]["witness"].split(), key=len)) > 2**31 // 1000
    count = {p["change"]: p for p in rows[ids["count"]]["programs"] if p["kind"] == "mutant"}
    short = count["bound - 1"]  # (range(1, n): one short)
    assert short["status"] == "survived" and short["witness"], short
    guarded = {p["change"]: p["status"] for p in rows[ids["guarded"]]["programs"]
               if p["kind"] == "mutant"}
    assert guarded["> -> >="] == "equivalent"
    assert "survived" not in guarded.values()


def test_augment_kills_every_survivor_and_keeps_correct_rewards(
    planted: tuple[Path, dict[str, str], Path], tmp_path: Path, capsys: Capture
) -> None:
    ds, ids, root = planted
    out = tmp_path / "stronger"
    wrong = str(root / "int_sum.cpp")
    code, document = _audit([str(ds), "--wrong", wrong, "--augment", "3", "--out", str(out)],
                            capsys)
    added = document["augmented"]["tests_added"]
    assert set(added) == {ids["sum"], ids["count"]}
    survived = [(row["problem"], p["name"]) for row in document["problems"]
                for p in row["programs"] if p["status"] == "survived"]
    assert survived == [(ids["guarded"], wrong)]  # (right where no sum reaches 2^31)
    assert code == 1
    before, after = Dataset(ds), Dataset(out)
    for pid, count in added.items():
        old, new = before.problem("train", pid), after.problem("train", pid)
        assert old is not None and new is not None
        assert new.tests[: len(old.tests)] == old.tests and len(new.tests) == len(old.tests) + count
    assert before.problem("train", ids["guarded"]) == after.problem("train", ids["guarded"])
    report = json.loads((out / "build_report.json").read_text())
    assert report["augmented"]["tests_added"] == added
    completions = tmp_path / "right.jsonl"
    lines = [{"problem_id": pid, "completion": f"```python\n{after.reference(pid)}```"}
             for pid in ids.values()]
    lines.append({"problem_id": ids["sum"], "completion": f"```cpp\n{LONG_SUM}```"})
    completions.write_text("".join(json.dumps(line) + "\n" for line in lines))
    results = tmp_path / "results.jsonl"
    assert gradecode([str(out), str(completions), "-o", str(results), "-q",
                      "--languages", "python3,cpp"]) == 0
    rewards = [json.loads(line)["reward"] for line in results.read_text().splitlines()]
    assert rewards == [1.0] * 4


def test_augment_on_a_dataset_needs_a_new_out(
    planted: tuple[Path, dict[str, str], Path], capsys: Capture
) -> None:
    ds, _ids, _root = planted
    assert auditdata([str(ds), "--augment", "2", "-q"]) == 2
    assert "--out" in capsys.readouterr().err
    assert auditdata([str(ds), "--augment", "2", "--out", str(ds), "-q"]) == 2
    assert "already exists" in capsys.readouterr().err


def test_the_audit_is_the_same_run_to_run(
    planted: tuple[Path, dict[str, str], Path], capsys: Capture
) -> None:
    ds, _ids, _root = planted
    first = _audit([str(ds), "--mutants", "12"], capsys)
    assert _audit([str(ds), "--mutants", "12"], capsys) == first


def test_a_text_report_names_the_weak_rows(
    planted: tuple[Path, dict[str, str], Path], tmp_path: Path, capsys: Capture
) -> None:
    ds, ids, _root = planted
    capsys.readouterr()
    page = tmp_path / "audit.html"
    assert auditdata([str(ds), "--mutants", "6", "-q", "--report", str(page)]) == 1
    out = capsys.readouterr().out
    assert "the tests reject" in out and "rejected by group" not in out
    assert f"weak: {ids['count']}" in out
    survivor = next(line for line in out.splitlines() if "survives: reference:" in line)
    assert ": fails `" in survivor, survivor
    html = page.read_text()
    assert ids["count"] in html and "<svg" in html


def test_a_row_with_its_own_judge_is_audited_as_its_package(
    tmp_path: Path, capsys: Capture
) -> None:
    sample = Path(__file__).resolve().parents[2] / "sample_problems" / "divisor"
    out = tmp_path / "judged"
    assert kattis2parquet([str(sample), "-o", str(out), "-q", "--keep-judges",
                           "--min-tests", "1"]) == 0  # fmt: skip
    code, document = _audit([str(out), "--mutants", "6"], capsys)
    (row,) = document["problems"]
    assert row["path"].endswith(row["problem"]) and row["reference"] == "reference"
    assert "graded by its own judge: audited as its package" in row["notes"]
    mutants = [p for p in row["programs"] if p["kind"] == "mutant"]
    assert mutants and all(p["name"].startswith(row["reference"]) or ":" in p["name"]
                           for p in mutants)  # fmt: skip
    assert any(p["status"] == "rejected" for p in mutants)
    assert code in (0, 1)


def test_inputs_outside_the_statements_bounds_are_listed(tmp_path: Path, capsys: Capture) -> None:
    doubled = ("Given $x$ ($1 \\le x \\le 100$), print twice x.", "print(2 * int(input()))\n",
               [(f"{x}\n", f"{2 * x}\n") for x in (1, 50, 100000, 100)])  # fmt: skip
    write_rows(tmp_path / "ds", [doubled])
    _code, document = _audit([str(tmp_path / "ds"), "--mutants", "3"], capsys)
    (row,) = document["problems"]
    assert row["invalid_inputs"] == ["test 2"]
    assert "test 2 holds 100000, outside every bound the statement states" in row["notes"]


def test_a_dataset_among_packages_or_a_plain_directory_is_refused(
    planted: tuple[Path, dict[str, str], Path], tmp_path: Path, capsys: Capture
) -> None:
    ds, _ids, _root = planted
    assert auditdata([str(ds), str(ds), "-q"]) == 2
    assert "audited alone" in capsys.readouterr().err
    assert auditdata([str(tmp_path), "-q"]) != 0
    assert "neither a problem package" in capsys.readouterr().err
