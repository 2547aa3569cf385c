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


APRIL_2023 = 1680307200  # a contest start (Unix time) inside the card's selection


def codeforces_row(problem: str, seed: str, official: list[tuple[str, str]],
                   **fields: Any) -> dict[str, Any]:  # fmt: skip
    """An open-r1/codeforces ``verifiable`` row."""
    contest, index = problem.split("/")
    return {"id": problem, "aliases": None, "contest_id": contest, "contest_name": "Round",
            "contest_type": "CF", "contest_start": APRIL_2023, "contest_start_year": 2023,
            "index": index, "time_limit": 1.0, "memory_limit": 256.0, "title": f"T{seed}",
            "description": words(seed), "input_format": "Two integers a and b.",
            "output_format": "Print their sum.", "interaction_format": None,
            "note": "Nothing to note.", "examples": [{"input": "1 2\n", "output": "3\n"}],
            "editorial": None, "rating": 1500, "tags": ["math"], "testset_size": 10,
            "official_tests": [{"input": i, "output": o} for i, o in official],
            "official_tests_complete": True, "input_mode": "stdio",
            "generated_checker": None, "executable": True, "generated_tests": 0,
            **fields}  # fmt: skip


def submission_row(problem: str, code: str, language: str = "Python 3",
                   verdict: str = "OK") -> dict[str, Any]:  # fmt: skip
    """An open-r1/codeforces-submissions row."""
    contest, index = problem.split("/")
    return {"submission_id": f"{problem}-{abs(hash(code))}", "source": code,
            "contestId": contest, "problem_index": index, "programmingLanguage": language,
            "verdict": verdict, "testset": "TESTS", "passedTestCount": 10.0,
            "timeConsumedMillis": 46.0, "memoryConsumedBytes": 0.0,
            "creationTimeSeconds": 1.7e9, "problem_id": problem}  # fmt: skip


# Checkers written for the tests in testlib's manner: one naming itself as testlib's
# token checker does, and one of a problem's own.
STOCK_TOKENS = ('#include "testlib.h"\nint main(int argc, char* argv[]) {\n'
                '    setName("compare sequences of tokens");\n'
                '    registerTestlibCmd(argc, argv);\n    /* ... */\n}\n')  # fmt: skip
OWN_CHECKER = ('#include "testlib.h"\nint main(int argc, char* argv[]) {\n'
               '    setName("any permutation of 1..n");\n'
               '    registerTestlibCmd(argc, argv);\n}\n')  # fmt: skip
WRONG_CPP = ('#include <cstdio>\nint main() { long long a, b; scanf("%lld %lld", &a, &b);'
             ' printf("%lld\\n", a * b); }\n')  # fmt: skip


def ccplus_row(seed: str, tests: list[tuple[str, str]], right: list[tuple[str, str]],
               wrong: tuple[tuple[str, str], ...] = (), **fields: Any) -> dict[str, Any]:  # fmt: skip
    """A Code-Contests-Plus ``1x`` row; submissions as (language, code)."""
    return {"id": seed, "source": "codeforces", "title": f"T{seed}",
            "description": statement(seed), "time_limit": 1000, "memory_limit": 256,
            "test_cases": [{"input": i, "output": o} for i, o in tests],
            "checker": STOCK_TOKENS, "validator": "int main() {}",
            "correct_submissions": [{"language": lang, "code": c} for lang, c in right],
            "incorrect_submissions": [{"language": lang, "code": c} for lang, c in wrong],
            "true_positive_rate": 0.95, "true_negative_rate": 0.97, **fields}  # fmt: skip


# A checker of a problem's own, in testlib's manner: an integer within one of the answer.
WITHIN_ONE = ('#include "testlib.h"\n#include <cstdlib>\n'
              "int main(int argc, char* argv[]) {\n"
              '    setName("an integer within one of the answer");\n'
              "    registerTestlibCmd(argc, argv);\n"
              "    long long j = ans.readLong(), p = ouf.readLong();\n"
              '    if (std::llabs(j - p) > 1) quitf(_wa, "expected %lld, found %lld", j, p);\n'
              '    quitf(_ok, "close enough");\n}\n')  # fmt: skip
