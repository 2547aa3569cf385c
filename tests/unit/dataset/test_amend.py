"""dataset.amend: a copy of a dataset whose named rows gain tests, within the card's caps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.dataset_gen import write_rows

from problemtools_py.dataset.amend import amend
from problemtools_py.dataset.reader import Dataset
from problemtools_py.digests import file_digest
from problemtools_py.errors import FatalError

ROWS = [(f"Problem {i}: print the number plus {i}.", f"print(int(input()) + {i})\n",
         [(f"{n}\n", f"{n + i}\n") for n in range(3)]) for i in range(5)]  # fmt: skip


@pytest.fixture
def source(tmp_path: Path) -> tuple[Path, list[str]]:
    ids = write_rows(tmp_path / "src", ROWS)
    return tmp_path / "src", ids


def test_rows_gain_tests_and_nothing_else_changes(source: tuple[Path, list[str]],
                                                  tmp_path: Path) -> None:  # fmt: skip
    root, ids = source
    before = {p.name: p.read_bytes() for p in root.iterdir()}
    done = amend(root, tmp_path / "out", {ids[1]: [("100\n", "101\n"), ("7\n", "8\n")]})
    assert done.added == {ids[1]: 2} and done.left_out == {}
    assert {p.name: p.read_bytes() for p in root.iterdir()} == before
    old, new = Dataset(root), Dataset(tmp_path / "out")
    grown = new.problem("train", ids[1])
    assert grown is not None
    assert grown.tests == (*ROWS[1][2], ("100\n", "101\n"), ("7\n", "8\n"))
    for pid in ids:
        if pid != ids[1]:
            assert new.problem("train", pid) == old.problem("train", pid)
    assert new.ids("train") == old.ids("train")
    assert (tmp_path / "out/references.parquet").read_bytes() == before["references.parquet"]
    report = json.loads((tmp_path / "out/build_report.json").read_text())
    assert report["augmented"]["tests_added"] == {ids[1]: 2}
    assert report["sha256"]["problems-train.parquet"] == file_digest(
        tmp_path / "out/problems-train.parquet")


def test_the_caps_hold(source: tuple[Path, list[str]], tmp_path: Path) -> None:
    root, ids = source
    many = [(f"{n}\n", f"{n}\n") for n in range(40)]
    big = [("x" * (3 << 20) + "\n", "1\n"), ("y" * (2 << 20) + "\n", "1\n"), ("5\n", "5\n")]
    done = amend(root, tmp_path / "out", {ids[0]: many, ids[2]: big})
    assert done.added == {ids[0]: 29, ids[2]: 2}  # (3 + 29 = 32; 3 MiB + 2 MiB > 4 MiB)
    assert done.left_out == {ids[0]: 11, ids[2]: 1}
    data = Dataset(tmp_path / "out")
    first, third = data.problem("train", ids[0]), data.problem("train", ids[2])
    assert first is not None and third is not None
    assert len(first.tests) == 32
    assert [len(a) for a, _ in third.tests[3:]] == [(3 << 20) + 1, 2]


def test_a_failed_or_refused_write_leaves_nothing(source: tuple[Path, list[str]],
                                                  tmp_path: Path) -> None:  # fmt: skip
    root, ids = source
    with pytest.raises(FatalError, match="already exists"):
        amend(root, root, {ids[0]: [("1\n", "1\n")]})
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "problems-train.parquet").write_text("not parquet")
    with pytest.raises(Exception):  # noqa: B017 (pyarrow's own error: the point is the cleanup)
        amend(tmp_path / "bad", tmp_path / "out", {ids[0]: [("1\n", "1\n")]})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad", "src"]
