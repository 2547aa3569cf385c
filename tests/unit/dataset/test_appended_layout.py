"""The card's train file since v1.1: its v1 rows sorted by problem_id, then the rows
v1.1 appended, sorted among themselves. Every row must still be found by its id, though
the row groups' id ranges then overlap (the reader once bisected them)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from helpers.dataset_gen import filler

from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.reader import Dataset
from problemtools_py.dataset.schema import PROBLEMS, origin_json, split_file
from problemtools_py.dataset.schema import tests_json as encoded


def rows_of(indices: range) -> list[dict[str, object]]:
    made = []
    for index in indices:
        statement, _, tests = filler(index)
        made.append({"problem_id": problem_id(statement), "statement": statement,
                     "tests_json": encoded(tests), "time_limit_s": 1.0,
                     "origin_json": origin_json({"row": index})})  # fmt: skip
    return sorted(made, key=lambda row: str(row["problem_id"]))


def test_every_row_of_an_appended_train_file_is_found(tmp_path: Path) -> None:
    v1, appended = rows_of(range(200)), rows_of(range(200, 330))
    table = pa.Table.from_pylist(v1 + appended, schema=PROBLEMS)
    pq.write_table(table, tmp_path / split_file("train"), row_group_size=64)
    dataset = Dataset(tmp_path)
    for row in v1 + appended:
        found = dataset.problem("train", str(row["problem_id"]))
        assert found is not None, row["problem_id"]
        assert found.statement == row["statement"]
    assert dataset.problem("train", "0" * 16) is None
    assert dataset.ids("train") == [str(r["problem_id"]) for r in v1 + appended]
