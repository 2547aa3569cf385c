"""The dataset's files and columns, and row validation with clear errors."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pyarrow as pa

from problemtools_py.dataset.ids import ID_PATTERN
from problemtools_py.dataset.splits import SPLITS as SPLIT_NAMES
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode

SPLITS = SPLIT_NAMES  # (defined in the package, so that the command lines need no pyarrow)
ROW_GROUP_ROWS = 64
COMPRESSION = "zstd"
PROBLEMS = pa.schema(
    [
        ("problem_id", pa.string()),
        ("statement", pa.string()),
        ("tests_json", pa.string()),
        ("time_limit_s", pa.float64()),
        ("origin_json", pa.string()),
    ]
)
# A problem graded by its own judge (kattis2parquet --keep-judges): the card's five
# columns and the judge (see dataset.judges), in judged-<split>.parquet beside the card's
# files, which the card's readers (reading problems-*.parquet) never meet.
JUDGED = PROBLEMS.append(pa.field("judge_json", pa.string()))
REFERENCES = pa.schema([("problem_id", pa.string()), ("code", pa.string())])
REFERENCES_FILE = "references.parquet"
REPORT_FILE = "build_report.json"


def split_file(split: str) -> str:
    return f"problems-{split}.parquet"


def judged_file(split: str) -> str:
    return f"judged-{split}.parquet"


def bad_row(path: Path, row: int, column: str, why: str) -> FatalError:
    return FatalError(f"row {row}, column {column}: {why}", path=path, exit_code=ExitCode.FINDINGS)


def check_id(value: object, path: Path, row: int) -> str:
    if not isinstance(value, str) or not ID_PATTERN.match(value):
        raise bad_row(path, row, "problem_id", f"not 16 lower-case hex digits: {value!r:.40}")
    return value


def parse_tests(text: object, path: Path, row: int) -> list[tuple[str, str]]:
    """``tests_json``: a JSON list of [stdin, stdout] string pairs."""
    if not isinstance(text, str):
        raise bad_row(path, row, "tests_json", "missing")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise bad_row(path, row, "tests_json", f"not valid JSON: {exc}") from None
    if not isinstance(data, list):
        raise bad_row(path, row, "tests_json", "not a list of [stdin, stdout] pairs")
    for index, pair in enumerate(data):
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
        ):
            raise bad_row(path, row, "tests_json", f"test {index} is not a pair of strings")
    return [(a, b) for a, b in data]


def parse_origin(text: object, path: Path, row: int) -> dict[str, Any]:
    if not isinstance(text, str):
        raise bad_row(path, row, "origin_json", "missing")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise bad_row(path, row, "origin_json", f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise bad_row(path, row, "origin_json", "not a JSON object")
    return data


def check_time_limit(value: object, path: Path, row: int) -> float:
    if (
        not isinstance(value, float | int)
        or isinstance(value, bool)
        or not math.isfinite(value)
        or value <= 0
    ):
        raise bad_row(path, row, "time_limit_s", f"not a positive number of seconds: {value!r}")
    return float(value)


def tests_json(tests: list[tuple[str, str]]) -> str:
    """Tests as the dataset writes them: JSON with non-ASCII kept as is."""
    return json.dumps([list(pair) for pair in tests], ensure_ascii=False)


def origin_json(origin: dict[str, Any]) -> str:
    return json.dumps(origin, ensure_ascii=False, sort_keys=True)
