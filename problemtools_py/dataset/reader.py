"""Reading a dataset directory lazily: statements without tests, one problem by id from its
row group alone (found through the row-group statistics of the sorted id column), and
whole problems one row group at a time."""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from problemtools_py.dataset.arrow import pq  # (as the process wants it: see arrow)
from problemtools_py.dataset.ids import share
from problemtools_py.dataset.judges import parse
from problemtools_py.dataset.schema import (
    REFERENCES_FILE,
    SPLITS,
    bad_row,
    check_id,
    check_time_limit,
    judged_file,
    parse_origin,
    parse_tests,
    split_file,
)
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode

INFO_COLUMNS = ["problem_id", "statement", "time_limit_s", "origin_json"]


@dataclass(frozen=True)
class ProblemInfo:
    """A dataset problem without its tests: what --ids and listings read."""

    problem_id: str
    statement: str
    time_limit_s: float
    origin: dict[str, Any]
    split: str

    @property
    def share(self) -> str:
        return share(self.problem_id)


@dataclass(frozen=True)
class DatasetProblem(ProblemInfo):
    """A dataset problem with its tests (input, output pairs) as the row has them."""

    tests: tuple[tuple[str, str], ...] = ()
    tests_json: str = ""
    origin_json: str = ""
    judge_json: str = ""  # its own judge (a row of a judged-<split>.parquet; see judges)
    # Which sorted run of its file the row is in: 0, or 1 for rows a later build appended
    # after them (the card's v1.1 rows), and so on.
    run: int = 0


class SplitFile:
    """One ``problems-<split>.parquet`` (or references.parquet), opened lazily."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @cached_property
    def file(self) -> pq.ParquetFile:
        try:
            return pq.ParquetFile(self.path)
        except (OSError, ValueError) as exc:
            raise FatalError(
                f"not a readable parquet file: {exc}", path=self.path, exit_code=ExitCode.FINDINGS
            ) from exc

    @cached_property
    def bounds(self) -> list[tuple[str, str]]:
        """(min, max) problem_id of each row group, from the file's statistics."""
        meta = self.file.metadata
        column = meta.schema.names.index("problem_id")
        found = []
        for index in range(meta.num_row_groups):
            stats = meta.row_group(index).column(column).statistics
            if stats is None or not stats.has_min_max:
                raise FatalError(
                    f"row group {index} has no problem_id statistics",
                    path=self.path,
                    exit_code=ExitCode.FINDINGS,
                )
            found.append((str(stats.min), str(stats.max)))
        return found

    @cached_property
    def sorted_ids(self) -> bool:
        """Whether the row groups' id ranges follow one another (one sorted file); the
        card's train file since v1.1 is two sorted runs, whose ranges overlap."""
        bounds = self.bounds
        return all(bounds[i][1] < bounds[i + 1][0] for i in range(len(bounds) - 1))

    @cached_property
    def run_starts(self) -> list[int]:
        """The row index where each sorted run of ids starts ([0] for one sorted file)."""
        ids = self.file.read(columns=["problem_id"]).column(0).to_pylist()
        return [0, *(i for i in range(1, len(ids)) if str(ids[i]) <= str(ids[i - 1]))]

    def run_of(self, index: int) -> int:
        return bisect.bisect_right(self.run_starts, index) - 1 if self.run_starts else 0

    def groups_of(self, pid: str) -> list[int]:
        """The row groups whose id range holds ``pid`` (one in a sorted file)."""
        bounds = self.bounds
        if not self.sorted_ids:
            return [i for i, (low, high) in enumerate(bounds) if low <= pid <= high]
        index = bisect.bisect_left([high for _, high in bounds], pid)
        if index < len(bounds) and bounds[index][0] <= pid <= bounds[index][1]:
            return [index]
        return []

    def read_group(self, index: int, columns: list[str] | None = None) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self.file.read_row_group(index, columns=columns).to_pylist()
        return rows

    def find(self, pid: str) -> tuple[int, int] | None:
        """(row group, offset in it) of the problem: its group's id column alone is read
        first, so a split that does not hold it decompresses no tests."""
        for group in self.groups_of(pid):
            ids = self.file.read_row_group(group, columns=["problem_id"]).column(0).to_pylist()
            if pid in ids:
                return group, ids.index(pid)
        return None

    def row(self, group: int, offset: int) -> dict[str, Any]:
        """One row, turned into Python values alone (its group is read whole: a Parquet
        row group is the unit of decompression)."""
        rows: list[dict[str, Any]] = self.file.read_row_group(group).slice(offset, 1).to_pylist()
        return rows[0]

    def first_row(self, index: int) -> int:
        meta = self.file.metadata
        return sum(meta.row_group(i).num_rows for i in range(index))


class Dataset:
    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        if not self.root.is_dir():
            raise FatalError("not a dataset directory", path=self.root)
        self._files: dict[str, SplitFile] = {}

    @property
    def splits(self) -> list[str]:
        return [s for s in SPLITS if any(p.is_file() for p in self._paths(s))]

    def _paths(self, split: str) -> list[Path]:
        """The split's files: the card's, and the one of problems with their own judge."""
        return [self.root / split_file(split), self.root / judged_file(split)]

    def _split(self, split: str) -> SplitFile:
        if split not in self._files:
            path = self.root / (REFERENCES_FILE if split == "references" else split_file(split))
            if not path.is_file():
                raise FatalError(f"the dataset has no {split} split", path=path)
            self._files[split] = SplitFile(path)
        return self._files[split]

    def _parts(self, split: str) -> list[SplitFile]:
        """The split's files that are there (one at least, or the split is unknown)."""
        found = []
        for path in self._paths(split):
            if path.is_file():
                found.append(self._files.setdefault(path.name, SplitFile(path)))
        if not found:
            raise FatalError(f"the dataset has no {split} split", path=self._paths(split)[0])
        return found

    def statements(self, split: str) -> Iterator[ProblemInfo]:
        """Every problem's statement and limits, without reading a single test."""
        for part in self._parts(split):
            for group in range(part.file.metadata.num_row_groups):
                base = part.first_row(group)
                for offset, row in enumerate(part.read_group(group, INFO_COLUMNS)):
                    yield _info(row, split, part.path, base + offset)

    def ids(self, split: str) -> list[str]:
        """Every problem_id of a split (the id column alone)."""
        found = []
        for part in self._parts(split):
            column = part.file.read(columns=["problem_id"]).column(0)
            found += [str(pid) for pid in column.to_pylist()]
        return found

    def problem(self, split: str, pid: str) -> DatasetProblem | None:
        """One problem, reading only the row group that holds it."""
        for part in self._parts(split):
            found = part.find(pid)
            if found is not None:
                group, offset = found
                index = part.first_row(group) + offset
                problem = _problem(part.row(group, offset), split, part.path, index)
                return replace(problem, run=part.run_of(index)) if not part.sorted_ids else problem
        return None

    def iter_problems(self, split: str) -> Iterator[DatasetProblem]:
        """Whole problems in file order (the card's file, then the judged one), one row
        group in memory at a time."""
        for part in self._parts(split):
            for group in range(part.file.metadata.num_row_groups):
                base = part.first_row(group)
                for offset, row in enumerate(part.read_group(group)):
                    problem = _problem(row, split, part.path, base + offset)
                    if not part.sorted_ids:
                        problem = replace(problem, run=part.run_of(base + offset))
                    yield problem

    def reference(self, pid: str) -> str | None:
        """The problem's Python 3 reference ("" when it ships on upstream tests only)."""
        part = self._split("references")
        found = part.find(pid)
        return None if found is None else str(part.row(*found)["code"])

    def share_counts(self, split: str) -> Counter[str]:
        return Counter(info.share for info in self.statements(split))

    def metadata(self, split: str) -> dict[str, str]:
        raw = self._split(split).file.schema_arrow.metadata or {}
        return {k.decode(): v.decode() for k, v in raw.items()}


def _info(row: dict[str, Any], split: str, path: Path, index: int) -> ProblemInfo:
    statement = row.get("statement")
    if not isinstance(statement, str):
        raise bad_row(path, index, "statement", "missing")
    return ProblemInfo(
        check_id(row.get("problem_id"), path, index),
        statement,
        check_time_limit(row.get("time_limit_s"), path, index),
        parse_origin(row.get("origin_json"), path, index),
        split,
    )


def _problem(row: dict[str, Any], split: str, path: Path, index: int) -> DatasetProblem:
    info = _info(row, split, path, index)
    tests = parse_tests(row.get("tests_json"), path, index)
    return DatasetProblem(
        info.problem_id,
        info.statement,
        info.time_limit_s,
        info.origin,
        split,
        tuple(tests),
        str(row["tests_json"]),
        str(row["origin_json"]),
        _judge(row.get("judge_json"), len(tests), path, index),
    )


def _judge(text: object, tests: int, path: Path, index: int) -> str:
    """A row's judge_json, checked ("": the row has none)."""
    if text is None or text == "":
        return ""
    if not isinstance(text, str):
        raise bad_row(path, index, "judge_json", "not a string")
    parse(text, tests, path, index)
    return text
