"""A trainer's data file with one of each row issue 58 found crashing a reward step, beside
good rows: as verl's preprocess scripts write them (``reward_model.ground_truth``,
``extra_info``) and as TRL reads them (columns). Each row comes with a completion and the
score and status its reward must give."""

from __future__ import annotations

import base64
import json
import pickle
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ECHO = "```python\nprint(input())\n```"
WRONG = "```python\nprint(0)\n```"
APPS = json.dumps({"inputs": ["1\n", "2\n"], "outputs": ["1\n", "2\n"]})


def packed(tests: list[dict[str, str]]) -> str:
    """LiveCodeBench's private tests as it ships them: base64 of zlib of pickle of JSON."""
    return base64.b64encode(zlib.compress(pickle.dumps(json.dumps(tests)))).decode()


@dataclass(frozen=True)
class Case:
    """A row, its completion, and what its reward must be (status bad_row: flagged)."""

    why: str
    ground_truth: Any
    extra_info: dict[str, Any]
    completion: Any
    score: float
    status: str

    @property
    def bad(self) -> bool:
        return self.status == "bad_row"


CASES = (
    Case("APPS tests", APPS, {}, ECHO, 1.0, "ok"),
    Case("a wrong program", APPS, {}, WRONG, 0.0, "wrong_answer"),
    Case("LiveCodeBench's packed private tests",
         packed([{"input": "5\n", "output": "5\n", "testtype": "stdin"}]), {}, ECHO, 1.0, "ok"),
    Case("CodeContests' numbered language (3: Python 3)", APPS, {"language": 3}, ECHO, 1.0, "ok"),
    Case("no completion at all", APPS, {}, None, 0.0, "no_code"),
    Case("a None ground truth", None, {}, ECHO, 0.0, "bad_row"),
    Case("call-based tests without a function name",
         json.dumps([{"input": "1\n2", "output": "3", "testtype": "functional"}]), {}, ECHO, 0.0,
         "bad_row"),
    Case("time_limit 0", APPS, {"time_limit": 0.0}, ECHO, 0.0, "bad_row"),
    Case("a language CodeContests does not number", APPS, {"language": 99}, ECHO, 0.0, "bad_row"),
    Case("CodeContests' Python 2", APPS, {"language": 1}, ECHO, 0.0, "bad_row"),
    Case("a memory limit below zero", APPS, {"memory_limit": -5}, ECHO, 0.0, "bad_row"),
    Case("a problem id without a dataset", "a1b2c3d4e5f60718", {}, ECHO, 0.0, "bad_row"),
    Case("tests that are no JSON", "[[1, 2", {}, ECHO, 0.0, "bad_row"),
)  # fmt: skip
BAD = [i for i, case in enumerate(CASES) if case.bad]


def verl_rows() -> list[dict[str, Any]]:
    """The rows as verl's preprocess scripts write them."""
    return [{"data_source": "code", "prompt": [{"role": "user", "content": case.why}],
             "ability": "code", "reward_model": {"style": "rule", "ground_truth": case.ground_truth},
             "extra_info": {"index": i, "split": "train", **case.extra_info}}
            for i, case in enumerate(CASES)]  # fmt: skip


def trl_rows() -> list[dict[str, Any]]:
    """The rows as TRL hands them to a reward function: one column per field."""
    fields = sorted({k for case in CASES for k in case.extra_info})
    return [{"prompt": case.why, "ground_truth": case.ground_truth,
             **{k: case.extra_info.get(k) for k in fields}} for case in CASES]  # fmt: skip


def write_parquet(rows: list[dict[str, Any]], path: Path) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def read_parquet(path: Path) -> list[dict[str, Any]]:
    """The rows as a trainer's dataset loader gives them (Arrow's Python values)."""
    import pyarrow.parquet as pq

    return list(pq.read_table(path).to_pylist())
