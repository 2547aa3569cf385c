"""A small dataset in the exact competitive-code-curated schema, with real problems and
real Python references: a yes/no problem, a float problem, a unicode statement, a 1 MiB
test, and enough filler problems for several row groups."""

from __future__ import annotations

import json
import random
from pathlib import Path

from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.schema import (
    PROBLEMS,
    REFERENCES,
    REFERENCES_FILE,
    origin_json,
    split_file,
    tests_json,
)
from problemtools_py.dataset.writer import RowWriter

YES_NO = ("Given an integer n, print YES if n is even and NO otherwise.",
          "n = int(input())\nprint('YES' if n % 2 == 0 else 'NO')\n",
          [(f"{n}\n", "YES\n" if n % 2 == 0 else "NO\n") for n in (1, 2, 7, 10, 0)])
FLOAT = ("Print the square root of the given number $x$ ($0 \\le x \\le 10^9$).",
         "import math\nprint(math.sqrt(float(input())))\n",
         [(f"{x}\n", f"{x ** 0.5:.9f}\n") for x in (0, 2, 10, 12345, 10**9)])
UNICODE = ("Écrivez « bonjour » suivi du nom donné — 名前 — sur une ligne.",
           "print('bonjour', input())\n",
           [(f"{name}\n", f"bonjour {name}\n") for name in ("Zoë", "名前", "Ångström", "a", "b")])
BIG = ("Print the number of characters on the single input line.",
       "print(len(input()))\n",
       [("x" * (1 << 20) + "\n", f"{1 << 20}\n")] + [(f"{'y' * k}\n", f"{k}\n") for k in range(1, 5)])


# Shipped on upstream tests only: no Python reference ("" in references.parquet).
NO_REFERENCE = ("Read a word and print it backwards (tests only; no reference solution).", "",
                [(f"{w}\n", f"{w[::-1]}\n") for w in ("abc", "kattis", "x", "level", "ab")])


def filler(index: int) -> tuple[str, str, list[tuple[str, str]]]:
    rng = random.Random(index)
    k = rng.randint(2, 9)
    statement = f"Problem {index}: read two integers and print their sum plus {k}."
    tests = []
    for _ in range(5):
        a, b = rng.randint(-100, 100), rng.randint(-100, 100)
        tests.append((f"{a} {b}\n", f"{a + b + k}\n"))
    return statement, f"a, b = map(int, input().split())\nprint(a + b + {k})\n", tests


def problems(count: int = 150) -> list[tuple[str, str, list[tuple[str, str]]]]:
    return [YES_NO, FLOAT, UNICODE, BIG, NO_REFERENCE, *(filler(i) for i in range(count))]


def write_dataset(root: Path, count: int = 150) -> dict[str, str]:
    """Write train and a small, disjoint eval split; return train's id -> statement."""
    root.mkdir(parents=True, exist_ok=True)
    rows = []
    for index, (statement, code, tests) in enumerate(problems(count)):
        pid = problem_id(statement)
        kind = "python_reference" if code else "upstream_tests_only"
        origin = {"source": "tests/helpers/dataset_gen.py", "row": index, "reference_kind": kind}
        rows.append((pid, statement, tests, origin, code))
    rows.sort()
    # Splits are disjoint, as in the published dataset; the special problems stay in train.
    fillers = [r[0] for r in rows if r[1].startswith("Problem ")]
    chosen = set(fillers[2::5])
    in_eval = [r[0] in chosen for r in rows]
    splits = {"train": [r for r, e in zip(rows, in_eval, strict=True) if not e],
              "eval": [r for r, e in zip(rows, in_eval, strict=True) if e]}
    for split, chosen in splits.items():
        with RowWriter(root / split_file(split), PROBLEMS) as writer:
            for pid, statement, tests, origin, _ in chosen:
                writer.add({"problem_id": pid, "statement": statement, "tests_json": tests_json(tests),
                            "time_limit_s": 1.0, "origin_json": origin_json(origin)})
    with RowWriter(root / REFERENCES_FILE, REFERENCES) as writer:
        for pid, _, _, _, code in rows:
            writer.add({"problem_id": pid, "code": code})
    (root / "build_report.json").write_text(json.dumps({"problem_id_rule": "v1"}))
    return {pid: statement for pid, statement, _, _, _ in splits["train"]}


def write_rows(root: Path, rows: list[tuple[str, str, list[tuple[str, str]]]],
               time_limit: float = 1.0) -> list[str]:
    """A train split of ``rows`` (statement, reference, tests) and their references;
    their problem ids, in the rows' order."""
    root.mkdir(parents=True, exist_ok=True)
    ids = [problem_id(statement) for statement, _, _ in rows]
    ordered = sorted(zip(ids, rows, strict=True))
    with RowWriter(root / split_file("train"), PROBLEMS) as writer:
        for index, (pid, (statement, _, tests)) in enumerate(ordered):
            origin = {"source": "tests/helpers/dataset_gen.py", "row": index,
                      "reference_kind": "python_reference"}
            writer.add({"problem_id": pid, "statement": statement, "tests_json": tests_json(tests),
                        "time_limit_s": time_limit, "origin_json": origin_json(origin)})
    with RowWriter(root / REFERENCES_FILE, REFERENCES) as writer:
        for pid, (_, code, _) in ordered:
            writer.add({"problem_id": pid, "code": code})
    (root / "build_report.json").write_text(json.dumps({"problem_id_rule": "v1"}))
    return ids
