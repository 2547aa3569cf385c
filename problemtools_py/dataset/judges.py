"""A problem's own judge, carried beside its row (issue 44; ``kattis2parquet
--keep-judges``): ``judge_json``, a JSON object with

- ``version``: 1;
- ``kind``: why the dataset's comparator cannot judge it (model.judgekind: ``interactive``,
  ``multi-pass``, ``custom``, ``flags``, ``scoring``), and ``flags`` (the default
  validator's arguments, for ``flags``);
- ``cases``: for each test of the row's ``tests_json``, in its order, the test case's path
  in the package without its extension (``data/secret/group1/03``), so that the groups,
  their settings and the order of grading are the package's;
- ``files``: every other file the judge reads, by path: ``problem.yaml``, the output
  validator's and the graders' sources, the test groups' and cases' ``.yaml`` files, the
  package's ``languages.yaml``; each ``{"text": ...}`` (UTF-8) or ``{"base64": ...}``.

Not in it: the statement (its own column), the tests (``tests_json``), the submissions (the
reference is in the references), input validators and generators (a grader needs
neither). :func:`materialize` writes the judge back as a package a grader (or
``parquet2kattis``) opens."""

from __future__ import annotations

import base64
import json
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode

if TYPE_CHECKING:  # (the package model: ~15 ms a grader's start never needs)
    from problemtools_py.model.judgekind import JudgeNeed

VERSION = 1
MAX_BYTES = 4 << 20  # judge_json's size (as the row's tests: at most 4 MiB)
LEFT_OUT = frozenset({"statement", "problem_statement", "submissions", "input_validators",
                      "input_format_validators", "generators", "attachments", "solution",
                      "include", "data"})  # fmt: skip
DATA_FILES = (".yaml", ".yml")  # what of data/ is the judge's (the tests are the row's)


def judge_files(root: Path) -> dict[str, bytes]:
    """The files of the package at ``root`` that judging reads, by path."""
    found: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if not path.is_file() or path.is_symlink() or any(p.startswith(".") for p in rel.parts):
            continue
        top = rel.parts[0]
        data_file = top == "data" and path.suffix in DATA_FILES and path.name != "generators.yaml"
        if top in LEFT_OUT and not data_file:
            continue
        found[rel.as_posix()] = path.read_bytes()
    return found


def judge_json(root: Path, need: JudgeNeed, cases: list[str]) -> str | None:
    """The judge of the package at ``root`` for a row whose tests are ``cases`` (their
    paths without extension); None when it is larger than MAX_BYTES."""
    files = {}
    for rel, data in judge_files(root).items():
        try:
            files[rel] = {"text": data.decode("utf-8")}
        except UnicodeDecodeError:
            files[rel] = {"base64": base64.b64encode(data).decode("ascii")}
    text = json.dumps(
        {
            "version": VERSION,
            "kind": need.kind.value,
            "flags": need.detail,
            "cases": cases,
            "files": files,
        },
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
    )
    return text if len(text.encode()) <= MAX_BYTES else None


def parse(text: str, tests: int, where: Path, row: int) -> dict[str, object]:
    """A row's ``judge_json``, checked: the right version, one case per test, every path
    inside the package."""

    def bad(why: str) -> FatalError:
        return FatalError(
            f"row {row}, column judge_json: {why}", path=where, exit_code=ExitCode.FINDINGS
        )

    if len(text) > MAX_BYTES:
        raise bad(f"larger than {MAX_BYTES >> 20} MiB")
    try:
        judge = json.loads(text)
    except ValueError as exc:
        raise bad(f"not JSON ({exc})") from None
    except RecursionError:
        raise bad("not JSON (nested too deeply)") from None
    if not isinstance(judge, dict) or judge.get("version") != VERSION:
        raise bad(f"not a judge of version {VERSION}")
    cases, files = judge.get("cases"), judge.get("files")
    if not isinstance(cases, list) or len(cases) != tests:
        raise bad(f"cases must name each of the {tests} tests")
    if not isinstance(files, dict):
        raise bad("files must be an object")
    for rel in [*cases, *files]:
        if not isinstance(rel, str) or not _inside(rel):
            raise bad(f"{rel!r} is no path inside a package")
    for rel, content in files.items():
        if not isinstance(content, dict) or not (
            {"text"} == set(content) or {"base64"} == set(content)
        ):
            raise bad(f"files[{rel!r}] must be {{text}} or {{base64}}")
    return judge


def _inside(rel: str) -> bool:
    path = PurePosixPath(rel)
    return bool(rel) and not path.is_absolute() and ".." not in path.parts and "\0" not in rel


def materialize(judge: dict[str, object], tests: list[tuple[str, str]], target: Path) -> None:
    """Write the judge and the tests (``.in``/``.ans`` at their cases' paths) as a
    package in ``target``."""
    files = judge["files"]
    cases = judge["cases"]
    assert isinstance(files, dict) and isinstance(cases, list)
    for rel, content in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if "text" in content:
            path.write_text(content["text"], encoding="utf-8")
        else:
            path.write_bytes(base64.b64decode(content["base64"]))
    for stem, (stdin, stdout) in zip(cases, tests, strict=True):
        path = target / stem
        path.parent.mkdir(parents=True, exist_ok=True)
        path.with_name(path.name + ".in").write_text(stdin, encoding="utf-8")
        path.with_name(path.name + ".ans").write_text(stdout, encoding="utf-8")
