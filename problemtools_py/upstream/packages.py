"""A curated row as a Kattis package (2023-07): parquet2kattis's package of the row
(statement, samples the statement shows, secret data, the dataset's comparator as output
validator, an input validator, the sidecar that takes it back byte for byte), with every
reference that passed as ``submissions/accepted/``, the known-wrong programs the tests
reject in the directory of their verdict (``wrong_answer/``, ``time_limit_exceeded/``,
``run_time_error/``), and the statement's examples that are
no test as ``data/sample/`` (the references then pass them too, when verified), and an
input validator from the statement's bounds where they can be read (upstream.validator)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from problemtools_py.dataset.export import package
from problemtools_py.dataset.reader import DatasetProblem
from problemtools_py.upstream.references import Kept
from problemtools_py.upstream.statement import examples
from problemtools_py.upstream.validator import program, rules


def write_package(row: Kept, out: Path) -> Path:
    tests = tuple((stdin, stdout) for stdin, stdout in json.loads(row.tests_json))
    problem = DatasetProblem(
        row.problem_id,
        row.statement,
        row.time_limit_s,
        json.loads(row.origin_json),
        row.split,
        tests,
        row.tests_json,
        row.origin_json,
        row.judge_json,
    )
    extra = {
        f"submissions/accepted/reference_{n}.py": code for n, code in enumerate(row.others, start=2)
    }
    for number, (directory, language, code) in enumerate(row.wrong, start=1):
        extra[f"submissions/{directory}/{_file_name(number, language, code)}"] = code
    inputs = {tuple(stdin.split()) for stdin, _ in tests}
    shown = tuple(e for e in examples(row.statement) if tuple(e[0].split()) not in inputs)
    found = rules(row.statement, [stdin for stdin, _ in tests + shown])
    validator = program(found) if found is not None else None
    return package(problem, row.reference, out, True, extra, shown, validator)


EXTENSIONS = {"python3": "py", "cpp": "cpp", "java": "java"}
_PUBLIC_CLASS = re.compile(r"public\s+(?:final\s+)?class\s+([A-Za-z_]\w*)")


def _file_name(number: int, language: str, code: str) -> str:
    """A known-wrong program's path in its directory: ``wrong_N.ext``, or for Java a
    directory of its own holding ``<its public class>.java`` (javac wants that name)."""
    if language != "java":
        return f"wrong_{number}.{EXTENSIONS.get(language, language)}"
    found = _PUBLIC_CLASS.search(code)
    return f"wrong_{number}/{found.group(1) if found else 'Main'}.java"
