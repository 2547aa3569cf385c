"""The dataset API: problem ids (golden vectors), the SFT/RL rule, lazy reading by row
group, streaming writes that leave nothing half-written, and clear errors for bad rows."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers.dataset_gen import BIG, FLOAT, UNICODE, YES_NO, write_dataset

from problemtools_py.dataset import Dataset, normalize_v1, problem_id, share
from problemtools_py.dataset.schema import PROBLEMS, split_file
from problemtools_py.dataset.writer import RowWriter
from problemtools_py.errors import FatalError

# Expected ids: sha256 of the normalised text, computed outside Python (printf | sha256sum).
GOLDEN = [
    ("Hello, World!", "hello world", "b94d27b9934d3e08"),
    ("Compute $\\frac{a}{b}$ for\n\tEACH   query.", "compute a b for each query", "68b9f144870627d1"),
    ("Écrire « bonjour » — 3×", "crire bonjour 3", "cdbc7405ae09108c"),  # noqa: RUF001
    ("\\alpha\\Beta2", "2", "d4735e3a265e16ee"),
    ("", "", "e3b0c44298fc1c14"),
]


@pytest.mark.parametrize(("statement", "normalized", "pid"), GOLDEN)
def test_problem_id_v1_golden_vectors(statement: str, normalized: str, pid: str) -> None:
    assert normalize_v1(statement) == normalized
    assert problem_id(statement) == pid


def test_sft_rl_rule() -> None:
    assert share("9999999999999998") == "sft"
    assert share("9999999999999999") == "rl"
    assert share("0000000000000000") == "sft" and share("ffffffffffffffff") == "rl"


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> tuple[Dataset, dict[str, str]]:
    root = tmp_path_factory.mktemp("dataset")
    ids = write_dataset(root)
    return Dataset(root), ids


def test_layout_follows_the_card(dataset: tuple[Dataset, dict[str, str]]) -> None:
    data, ids = dataset
    assert data.splits == ["train", "eval"]
    path = data.root / split_file("train")
    meta = pq.ParquetFile(path).metadata
    assert meta.num_rows == len(ids) and meta.num_row_groups == -(-len(ids) // 64)
    assert all(meta.row_group(i).num_rows == 64 for i in range(meta.num_row_groups - 1))
    assert meta.row_group(0).column(0).compression == "ZSTD"
    assert pq.read_schema(path).remove_metadata() == PROBLEMS
    assert data.metadata("train") == {"problem_id_rule": "v1"}
    assert [p.problem_id for p in data.statements("train")] == sorted(ids)


def test_one_problem_reads_one_row_group(dataset: tuple[Dataset, dict[str, str]],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The group that may hold it: its id column first, then (only when the id is there)
    the whole group."""
    data, _ = dataset
    reads: list[tuple[int, object]] = []
    real = pq.ParquetFile.read_row_group

    def counting(self: pq.ParquetFile, i: int, *args: object, **kwargs: object) -> pa.Table:
        reads.append((i, kwargs.get("columns")))
        return real(self, i, *args, **kwargs)

    monkeypatch.setattr(pq.ParquetFile, "read_row_group", counting)
    for statement, code, tests in (YES_NO, FLOAT, UNICODE, BIG):
        reads.clear()
        found = data.problem("train", problem_id(statement))
        assert found is not None and len(reads) == 2
        assert reads[0][1] == ["problem_id"] and reads[1] == (reads[0][0], None)
        assert found.statement == statement and list(found.tests) == tests
        assert data.reference(found.problem_id) == code
    assert data.problem("train", "0" * 16) is None  # before every id
    reads.clear()
    pid = problem_id(BIG[0])
    near = pid[:-1] + ("1" if pid[-1] == "0" else "0")  # no such problem, in pid's group
    assert data.problem("train", near) is None
    assert reads and all(columns == ["problem_id"] for _, columns in reads)


def test_statements_never_read_tests(dataset: tuple[Dataset, dict[str, str]],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    data, ids = dataset
    columns: list[object] = []
    real = pq.ParquetFile.read_row_group

    def spy(self: pq.ParquetFile, i: int, **kwargs: object) -> pa.Table:
        columns.append(kwargs.get("columns"))
        return real(self, i, **kwargs)

    monkeypatch.setattr(pq.ParquetFile, "read_row_group", spy)
    infos = list(data.statements("train"))
    assert {i.problem_id: i.statement for i in infos} == ids
    assert all(c is not None and "tests_json" not in c for c in columns)  # type: ignore[operator]


def test_iteration_and_share(dataset: tuple[Dataset, dict[str, str]]) -> None:
    data, ids = dataset
    problems = list(data.iter_problems("train"))
    assert [p.problem_id for p in problems] == sorted(ids)
    counts = data.share_counts("train")
    assert counts["sft"] == sum(1 for pid in ids if int(pid, 16) < 0x9999999999999999)
    assert counts["sft"] + counts["rl"] == len(ids)
    unicode = next(p for p in problems if p.statement == UNICODE[0])
    assert "名前" in unicode.tests_json  # non-ASCII kept as is


def test_a_failed_write_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / split_file("train")
    with pytest.raises(RuntimeError), RowWriter(target, PROBLEMS) as writer:
        for i in range(100):
            writer.add({"problem_id": f"{i:016x}", "statement": "s", "tests_json": "[]",
                        "time_limit_s": 1.0, "origin_json": "{}"})
        raise RuntimeError("interrupted")
    assert list(tmp_path.iterdir()) == []


def test_rows_out_of_order_are_refused(tmp_path: Path) -> None:
    with pytest.raises(FatalError, match="sorted by problem_id"), \
            RowWriter(tmp_path / "x.parquet", PROBLEMS) as writer:
        for pid in ("00000000000000b0", "00000000000000a0"):
            writer.add({"problem_id": pid, "statement": "s", "tests_json": "[]",
                        "time_limit_s": 1.0, "origin_json": "{}"})
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("column", "value", "message"), [
    ("problem_id", "XYZ", "not 16 lower-case hex digits"),
    ("tests_json", "[[1, 2]]", "test 0 is not a pair of strings"),
    ("tests_json", "{oops", "not valid JSON"),
    ("time_limit_s", -1.0, "not a positive number"),
    ("origin_json", "[]", "not a JSON object"),
])
def test_malformed_rows_name_file_row_and_column(tmp_path: Path, column: str, value: object,
                                                 message: str) -> None:
    row = {"problem_id": "00000000000000a0", "statement": "s", "tests_json": "[]",
           "time_limit_s": 1.0, "origin_json": "{}", column: value}
    pq.write_table(pa.Table.from_pylist([row], schema=PROBLEMS), tmp_path / split_file("train"))
    with pytest.raises(FatalError) as info:
        list(Dataset(tmp_path).iter_problems("train"))
    text = str(info.value)
    assert "problems-train.parquet" in text and f"row 0, column {column}" in text and message in text
