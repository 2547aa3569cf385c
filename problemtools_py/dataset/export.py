"""One dataset row as a Kattis problem package (legacy or 2023-07), written atomically.

The package gets: problem.yaml (source from the row's origin; the time limit as
``limits.time_limit`` in 2023-07 and as a ``.timelimit`` file in legacy), the statement
(verbatim Markdown in 2023-07; escaped LaTeX in legacy), the tests in order as
``data/{sample,secret}/NNN.in|.ans`` (tests whose input the statement shows go to
sample), the reference as ``submissions/accepted/reference.py``, the dataset comparator as
the output validator, an input validator that accepts exactly the dataset's inputs, and
a sidecar (``dataset.json`` in legacy, ``.dataset.json`` otherwise: see
:func:`problemtools_py.model.sidecar.sidecar_name`) with what converting back needs byte
for byte."""

from __future__ import annotations

import json
import shutil
import uuid
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from problemtools_py.dataset.build import read_tests
from problemtools_py.dataset.judges import materialize, parse
from problemtools_py.dataset.reader import DatasetProblem
from problemtools_py.dataset.schema import tests_json
from problemtools_py.digests import sha256_hex
from problemtools_py.errors import FatalError
from problemtools_py.model.sidecar import sidecar_name
from problemtools_py.statements.texescape import tex_escape

MEMORY_MB = 2048
KNOWN_INPUTS = '''#!/usr/bin/env python3
"""Input validator of a dataset problem: the dataset defines its inputs as exactly its
tests, so an input is valid when it is one of them (by sha256). Exit 42 when valid."""
import hashlib
import sys

KNOWN = {known}
data = sys.stdin.buffer.read()
sys.exit(42 if hashlib.sha256(data).hexdigest() in KNOWN else 43)
'''


def _with_newline(text: str) -> str:
    """Text files end with a newline (the exact statement travels in the sidecar)."""
    return text if text.endswith("\n") else text + "\n"


def comparator_source() -> bytes:
    return (resources.files("problemtools_py.judge") / "dataset_rule.py").read_bytes()


def _write(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)


def _problem_yaml(problem: DatasetProblem, modern: bool) -> dict[str, Any]:
    source = problem.origin.get("source")
    name = f"Problem {problem.problem_id}"
    data: dict[str, Any] = {"license": "unknown"}
    if modern:
        data = {
            "problem_format_version": "2023-07-draft",
            "name": {"en": name},
            "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"dataset:{problem.problem_id}")),
            **data,
            "limits": {"time_limit": problem.time_limit_s, "memory": MEMORY_MB},
        }
        if isinstance(source, str) and source:
            data["source"] = {"name": source}
    else:
        data.update({"name": name, "validation": "custom", "limits": {"memory": MEMORY_MB}})
        if isinstance(source, str) and source:
            data["source"] = source
    return data


def _is_example(stdin: str, statement: str) -> bool:
    shown = stdin.strip()
    return 4 <= len(shown) < 2000 and shown in statement  # short inputs match by chance


def package(
    problem: DatasetProblem,
    reference: str | None,
    out: Path,
    modern: bool,
    extra: dict[str, str] | None = None,
    samples: tuple[tuple[str, str], ...] = (),
    input_validator: str | None = None,
) -> Path:
    """Write the package for ``problem`` as ``out/<problem_id>``, with the ``extra`` files
    (path in the package: text), ``samples`` (examples beside the row's tests, as
    ``data/sample/example-N``: the sidecar then keeps the row's tests) and an
    ``input_validator`` program (Python) in place of the one that accepts exactly the
    tests; never half-written."""
    final = out / problem.problem_id
    if final.exists():
        raise FatalError("already exists; remove it or choose another output directory", path=final)
    tmp = out / f".{problem.problem_id}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        _fill(tmp, problem, reference, modern, samples, input_validator)
        for name, text in (extra or {}).items():
            _write(tmp / name, text)
        tmp.rename(final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return final


def _fill(
    root: Path,
    problem: DatasetProblem,
    reference: str | None,
    modern: bool,
    samples: tuple[tuple[str, str], ...] = (),
    input_validator: str | None = None,
) -> None:
    if problem.judge_json:
        _fill_judged(root, problem, reference)
        return
    _write(
        root / "problem.yaml",
        yaml.safe_dump(_problem_yaml(problem, modern), allow_unicode=True, sort_keys=False),
    )
    if modern:
        _write(root / "statement" / "problem.en.md", _with_newline(problem.statement))
        _write(root / "output_validator" / "dataset_rule.py", comparator_source())
    else:
        _write(root / ".timelimit", f"{problem.time_limit_s!r}\n")
        tex = f"\\problemname{{Problem {problem.problem_id}}}\n\n{tex_escape(problem.statement)}\n"
        _write(root / "problem_statement" / "problem.en.tex", tex)
        _write(root / "output_validators" / "dataset_rule" / "dataset_rule.py", comparator_source())
    width = max(3, len(str(len(problem.tests))))
    examples = [_is_example(stdin, problem.statement) for stdin, _ in problem.tests]
    if examples and all(examples):
        examples[-1] = False  # secret data is required
    for index, ((stdin, stdout), example) in enumerate(zip(problem.tests, examples, strict=True)):
        group = "sample" if example else "secret"
        base = root / "data" / group / f"{index + 1:0{width}d}"
        _write(base.with_suffix(".in"), stdin)
        _write(base.with_suffix(".ans"), stdout)
    for number, (stdin, stdout) in enumerate(samples, start=1):
        base = root / "data" / "sample" / f"example-{number}"
        _write(base.with_suffix(".in"), stdin)
        _write(base.with_suffix(".ans"), stdout)
    if input_validator is not None:
        _write(root / "input_validators" / "bounds" / "validate.py", input_validator)
    else:
        _known_inputs(root, problem, [stdin for stdin, _ in samples])
    if reference:
        _write(root / "submissions" / "accepted" / "reference.py", reference)
    _sidecar(root, problem, reference, modern)


def _fill_judged(root: Path, problem: DatasetProblem, reference: str | None) -> None:
    """A row with its own judge: the package its judge makes (its problem.yaml, in its
    own format, the validator, the groups, each test at its case's path), with the
    statement, the reference and the input validator as for any row."""
    judge = parse(problem.judge_json, len(problem.tests), root, 0)
    materialize(judge, list(problem.tests), root)
    config = yaml.safe_load((root / "problem.yaml").read_text(encoding="utf-8")) or {}
    version = config.get("problem_format_version") if isinstance(config, dict) else None
    modern = version not in (None, "legacy")
    name = config.get("name") if isinstance(config, dict) else None
    if isinstance(name, dict) and set(name) - {"en"}:  # (the row has the English statement)
        config["name"] = {"en": name.get("en", f"Problem {problem.problem_id}")}
        _write(root / "problem.yaml", yaml.safe_dump(config, allow_unicode=True, sort_keys=False))
    if modern:
        _write(root / "statement" / "problem.en.md", _with_newline(problem.statement))
    else:
        title = tex_escape(name if isinstance(name, str) else f"Problem {problem.problem_id}")
        tex = f"\\problemname{{{title}}}\n\n{tex_escape(problem.statement)}\n"
        _write(root / "problem_statement" / "problem.en.tex", tex)
    _known_inputs(root, problem)
    if reference:
        _write(root / "submissions" / "accepted" / "reference.py", reference)
    _sidecar(root, problem, reference, modern, {"judge_json": problem.judge_json})


def _known_inputs(root: Path, problem: DatasetProblem, more: list[str] | None = None) -> None:
    inputs = [stdin for stdin, _ in problem.tests] + (more or [])
    known = sorted({sha256_hex(stdin.encode()) for stdin in inputs})
    _write(
        root / "input_validators" / "known_inputs" / "validate.py",
        KNOWN_INPUTS.replace("{known}", repr(set(known)) if known else "set()"),
    )


def _sidecar(
    root: Path,
    problem: DatasetProblem,
    reference: str | None,
    modern: bool,
    extra: dict[str, str] | None = None,
) -> None:
    sidecar = {
        "problem_id": problem.problem_id,
        "split": problem.split,
        "time_limit_s": problem.time_limit_s,
        "origin_json": problem.origin_json,
        "statement": problem.statement,
        "reference": reference,
        **(extra or {}),
    }
    if problem.run:  # (rows a later build appended stay after the others, see reader)
        sidecar["run"] = problem.run
    if (
        read_tests(root) != list(problem.tests)
        or tests_json(list(problem.tests)) != problem.tests_json
    ):
        sidecar["tests_json"] = problem.tests_json  # a layout or an order we would not make
    _write(root / sidecar_name(modern), json.dumps(sidecar, ensure_ascii=False, indent=1) + "\n")
