"""A trainer's data checked before training (``gradecode --check``): every row a reward
call would flag as one that cannot be graded (or raise, with ``on_bad_row="raise"``),
with its index and why, in the time it takes to read the file.

A row is read as the trainer hands it to the reward (the first layout that fits):

- verl's preprocess scripts: ``reward_model.ground_truth``, with ``extra_info``;
- TRL (and any trainer passing columns): the column ``column`` (``ground_truth``), the
  row's :data:`~problemtools_py.grading.rewardargs.ROW_FIELDS` columns as ``extra_info``;
- this dataset's rows: ``tests_json`` and ``time_limit_s``;
- the datasets' own rows: open-r1's and PrimeIntellect's ``verification_info``, an APPS or
  TACO row (``input_output``), CodeContests' splits, a LiveCodeBench row; their limits
  (``time_limit``, ``memory_limit``, ``memory_limit_bytes``) as the reward reads them.

Each row then goes through the reward's own decoding (``rewardargs.row_call``: its tests,
options and limits), its languages are looked up among those this machine grades, and a
problem id is looked up in the dataset (``dataset``, or ``$PROBLEMTOOLS_PY_DATASET``).
The completion is the one thing not checked: the model writes it."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from problemtools_py.errors import FatalError
from problemtools_py.grading.rewardargs import (
    ROW_FIELDS,
    RewardError,
    check_language,
    on_bad_row,
    row_call,
)

BATCH_ROWS = 2048  # rows of a parquet file read at once (its memory, not the file's)
MAX_LINE = 256 << 20  # bytes of one JSON line (a row's tests included)
OWN_COLUMNS = ("verification_info", "input_output", "public_tests", "private_tests",
               "generated_tests", "public_test_cases", "private_test_cases")  # fmt: skip


@dataclass(frozen=True)
class BadRow:
    """A row a reward call cannot grade: its file, index (from 0, as pandas and datasets
    count), line (JSON lines) and why."""

    path: Path
    index: int
    line: int | None
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": str(self.path),
            "index": self.index,
            "line": self.line,
            "reason": self.reason,
        }


@dataclass
class Tally:
    """What a check saw: rows per file, and the bad ones' reasons counted."""

    rows: dict[str, int] = field(default_factory=dict)
    layouts: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.rows.values())

    @property
    def bad(self) -> int:
        return sum(self.reasons.values())


Row = tuple[int, int | None, object]  # index, line (JSON lines), the row as read


def read_rows(path: Path, batch_rows: int = BATCH_ROWS) -> Iterator[Row]:
    """The rows of a parquet file (a batch at a time) or of JSON lines (``.json``: a
    JSON array too). A line that is no JSON object is yielded as its error's text."""
    try:
        with path.open("rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise FatalError(f"cannot read: {exc.strerror}", path=path) from None
    if magic == b"PAR1":
        yield from _parquet_rows(path, batch_rows)
    elif path.suffix == ".json" and magic.lstrip()[:1] == b"[":
        yield from _array_rows(path)
    else:
        yield from _json_lines(path)


def _parquet_rows(path: Path, batch_rows: int = BATCH_ROWS) -> Iterator[Row]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        file = pq.ParquetFile(path)
        index = 0
        for batch in file.iter_batches(batch_size=batch_rows):
            for row in batch.to_pylist():
                yield index, None, row
                index += 1
    except (pa.ArrowException, OSError) as exc:
        raise FatalError(f"not a readable parquet file: {exc}", path=path) from None


def _array_rows(path: Path) -> Iterator[Row]:
    try:
        rows = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError) as exc:
        raise FatalError(f"not a JSON array of rows: {exc}", path=path) from None
    if not isinstance(rows, list):
        raise FatalError("not a JSON array of rows", path=path)
    for index, row in enumerate(rows):
        yield index, None, row


def _json_lines(path: Path) -> Iterator[Row]:
    index = 0
    with path.open("rb") as handle:
        for number, raw in enumerate(iter(lambda: handle.readline(MAX_LINE + 1), b""), 1):
            if not raw.strip():
                continue
            row: object
            if len(raw) > MAX_LINE:
                row = f"a line over {MAX_LINE >> 20} MiB"
                rest = raw
                while rest and not rest.endswith(b"\n"):  # (the rest skipped, a bound each read)
                    rest = handle.readline(MAX_LINE)
            else:
                try:
                    row = json.loads(raw)
                except (ValueError, RecursionError) as exc:
                    row = f"no JSON: {exc}"
            yield index, number, row
            index += 1


def reward_args(row: dict[str, Any], column: str) -> tuple[str, Any, Any]:
    """The layout a row is in, and the ground truth and extra_info a trainer passes."""
    model = row.get("reward_model")
    if isinstance(model, dict) and "ground_truth" in model:
        return "verl", model["ground_truth"], row.get("extra_info")
    own = {k: row[k] for k in ROW_FIELDS if row.get(k) is not None}
    if column in row:
        return "columns", row[column], own
    if "tests_json" in row:  # (its time limit column is time_limit_s)
        return "dataset", row["tests_json"], {**own, "time_limit": row.get("time_limit_s")}
    if "verification_info" in row:
        return "verification_info", row["verification_info"], own
    if any(k in row for k in OWN_COLUMNS):
        return "dataset's own row", row, own
    raise RewardError(
        f"no tests found: the row has {', '.join(sorted(row)) or 'no columns'}; a reward reads "
        f"reward_model.ground_truth (verl), {column!r} (TRL), tests_json, verification_info, "
        "input_output, CodeContests' splits or LiveCodeBench's test cases"
    )


class Preflight:
    """Checks rows as the reward called with ``kwargs`` would read them (the keyword
    arguments checked first: ArgumentError, the trainer's configuration)."""

    def __init__(
        self, kwargs: dict[str, Any], column: str = "ground_truth", dataset: str | None = None
    ) -> None:
        on_bad_row(kwargs)
        self.kwargs = {**kwargs, **({"dataset": dataset} if dataset else {})}
        self.column = column
        self.tally = Tally()
        self._installed: frozenset[str] | None = None
        self._ids: dict[str, Collection[str]] = {}

    def check(self, path: Path) -> Iterator[BadRow]:
        """The bad rows of ``path``, in order (its rows counted in ``tally``)."""
        count = 0
        for index, line, row in read_rows(path):
            count += 1
            reason = self.reason(row)
            if reason is not None:
                self.tally.reasons[reason] = self.tally.reasons.get(reason, 0) + 1
                yield BadRow(path, index, line, reason)
        self.tally.rows[str(path)] = count

    def reason(self, row: object) -> str | None:
        """Why a reward call cannot grade ``row`` (None: it can)."""
        if isinstance(row, str):
            return row  # (a line that is no JSON: read_rows said why)
        if not isinstance(row, dict):
            return f"a row must be an object, not {type(row).__name__}"
        try:
            layout, truth, info = reward_args(row, self.column)
            self.tally.layouts[layout] = self.tally.layouts.get(layout, 0) + 1
            call = row_call(truth, info, self.kwargs)
            check_language(call.options, self.installed)
            if call.problem_id is not None:
                self._known(call.options["dataset"], call.problem_id)
        except (RewardError, TypeError, ValueError, RecursionError, OverflowError) as exc:
            return (str(exc) or type(exc).__name__)[:300]
        return None

    def installed(self) -> frozenset[str]:
        if self._installed is None:
            from problemtools_py.judge.languages import Languages

            self._installed = Languages.load().installed()
        return self._installed

    def _known(self, dataset: str, problem_id: str) -> None:
        ids = self._ids.get(dataset)
        if ids is None:
            ids = self._ids[dataset] = _ids_of(dataset)
        if problem_id not in ids:
            raise RewardError(f"no problem with id {problem_id!r} in {dataset}")


def _ids_of(dataset: str) -> Collection[str]:
    from problemtools_py.grading.problems import open_source

    source = open_source(Path(dataset))
    try:
        return source.ids()
    finally:
        source.close()


def check_files(paths: list[Path], preflight: Preflight, each: Callable[[BadRow], None]) -> Tally:
    """Every file checked in order, ``each`` told of every bad row."""
    for path in paths:
        for bad in preflight.check(path):
            each(bad)
    return preflight.tally
