"""Rows in the layouts the card's sources publish (see problemtools_py/upstream), written
for the tests: TACO's (``question``, ``solutions`` and ``input_output`` as JSON text,
limits as text) and DeepCoder-Preview's (``problem``, ``solutions`` a list, ``tests`` and
``metadata`` as JSON text), with statements of words no other statement shares (so that
only the rows meant as duplicates are)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

SUM = "a, b = map(int, input().split())\nprint(a + b)\n"
SUM_PY2 = "a, b = map(int, raw_input().split())\nprint a + b\n"
DIFF = "a, b = map(int, input().split())\nprint(a - b)\n"


def words(seed: str, count: int = 40) -> str:
    """Prose of ``count`` made-up words, the same for the same seed and unlike any other's."""
    pick = random.Random(seed)
    return " ".join("".join(pick.choice("bcdfghjklmnprstvz") + pick.choice("aeiou")
                            for _ in range(3)) for _ in range(count))  # fmt: skip


def statement(seed: str, example: tuple[str, str] | None = ("1 2", "3"), extra: str = "") -> str:
    text = (f"{words(seed)}.\n\n-----Input-----\n\nTwo integers a and b.\n\n"
            f"-----Output-----\n\nPrint their sum.{extra}\n")  # fmt: skip
    if example is not None:
        text += f"\n-----Examples-----\nInput\n{example[0]}\n\nOutput\n{example[1]}\n"
    return text


def sum_tests(count: int = 6) -> list[tuple[str, str]]:
    return [(f"{i} {3 * i + 1}\n", f"{4 * i + 1}\n") for i in range(count)]


def taco_row(text: str, solutions: list[str], tests: list[tuple[Any, Any]],
             **fields: Any) -> dict[str, Any]:  # fmt: skip
    io: dict[str, Any] = {"inputs": [i for i, _ in tests], "outputs": [o for _, o in tests]}
    if "fn_name" in fields:
        io["fn_name"] = fields.pop("fn_name")
    return {"question": text, "solutions": json.dumps(solutions), "starter_code": "",
            "input_output": json.dumps(io), "difficulty": "EASY", "raw_tags": "[]",
            "name": None, "source": "codeforces", "tags": "[]", "skill_types": "[]",
            "url": "https://example.org/p", "Expected Auxiliary Space": None,
            "time_limit": "1 second", "date": None, "picture_num": "0",
            "memory_limit": "256 megabytes", "Expected Time Complexity": None,
            **fields}  # fmt: skip


def deepcoder_row(text: str, solutions: list[str], tests: object,
                  metadata: dict[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    return {"problem": text, "solutions": solutions, "tests": json.dumps(tests),
            "starter_code": "", "metadata": json.dumps(metadata or {})}  # fmt: skip


def write_parquet(path: Path, rows: list[dict[str, Any]]) -> Path:
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path
