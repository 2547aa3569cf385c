"""kattis2parquet: problem packages to dataset rows.

A package that parquet2kattis wrote (it has ``.dataset.json``) goes back exactly as it
came: its id, split, statement, tests, time limit, origin and reference, no filter and no
recomputation. Any other package is verified, its accepted Python 3 submissions are run on
its tests with the judging core and the dataset comparator, and it becomes a row, or is
dropped with a reason."""

from __future__ import annotations

import contextlib
import json
import math
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from problemtools_py.checks import checks_of
from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.judges import MAX_BYTES as JUDGE_BYTES
from problemtools_py.dataset.judges import judge_json, materialize, parse
from problemtools_py.dataset.schema import origin_json, tests_json
from problemtools_py.findings import Severity
from problemtools_py.judge import python2
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.judging import CaseJudge
from problemtools_py.judge.validators import DatasetValidator
from problemtools_py.model import load_problem
from problemtools_py.model.judgekind import JudgeKind, judge_need
from problemtools_py.model.loader import find_sidecar
from problemtools_py.model.problem import Problem
from problemtools_py.model.testdata import JUDGED_GROUPS
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.results import Limits
from problemtools_py.statements.check import render_findings
from problemtools_py.verdicts import Verdict
from problemtools_py.workbench.bench import Workbench

REFERENCE_SECONDS = 10.0  # the CPU limit a reference runs under
Runner = Callable[[Executable], tuple[float | None, str]]


@dataclass(frozen=True)
class BuildOptions:
    """How a package becomes a dataset row: its split and the limits on its tests."""

    split: str = "train"
    max_tests: int = 32
    max_test_bytes: int = 4 << 20
    min_tests: int = 5
    allow_no_reference: bool = False
    max_reference_seconds: float = 2.0
    keep_judges: bool = False  # a problem that needs its own judge: kept with it


@dataclass
class Row:
    """One row of the dataset, as its card describes the columns."""

    problem_id: str
    split: str
    statement: str
    tests_json: str
    time_limit_s: float
    origin_json: str
    reference: str
    source: str  # the package it came from
    judge_json: str = ""  # the problem's own judge (see dataset.judges); "": the comparator
    run: int = 0  # the sorted run of the files it goes in (see reader.DatasetProblem)

    def columns(self) -> dict[str, Any]:
        return {
            "problem_id": self.problem_id,
            "statement": self.statement,
            "tests_json": self.tests_json,
            "time_limit_s": self.time_limit_s,
            "origin_json": self.origin_json,
        }


@dataclass
class Conversion:
    """A package converted: its row, or why it was dropped."""

    row: Row | None = None
    drop: str | None = None  # the reason
    detail: str = ""
    exact: bool = False  # came from the dataset: goes back as it came, no filter applies


def from_sidecar(root: Path) -> Conversion:
    """A package parquet2kattis wrote: the row exactly as it was."""
    path = find_sidecar(root)
    assert path is not None
    sidecar = json.loads(path.read_text(encoding="utf-8"))
    raw = sidecar["tests_json"] if "tests_json" in sidecar else tests_json(read_tests(root))
    return Conversion(
        Row(
            sidecar["problem_id"],
            sidecar["split"],
            sidecar["statement"],
            raw,
            float(sidecar["time_limit_s"]),
            sidecar["origin_json"],
            sidecar.get("reference") or "",
            str(root),
            sidecar.get("judge_json") or "",
            int(sidecar.get("run") or 0),
        ),
        exact=True,
    )


def read_tests(root: Path) -> list[tuple[str, str]]:
    """Tests in order: data/sample and data/secret (and their groups), by file name."""
    return [(stdin, stdout) for _, stdin, stdout in read_cases(root)]


def read_cases(root: Path) -> list[tuple[str, str, str]]:
    """read_tests's tests, each with its case's path in the package (no extension)."""
    found = []
    for path in (root / "data").glob("s*/**/*.in"):
        group = path.relative_to(root / "data").parts[0]
        if group in JUDGED_GROUPS and path.with_suffix(".ans").is_file():
            found.append(path)
    found.sort(key=lambda p: (p.name, p.as_posix()))
    return [
        (
            p.relative_to(root).with_suffix("").as_posix(),
            _text(root, p),
            _text(root, p.with_suffix(".ans")),
        )
        for p in found
    ]


class NotText(ValueError):
    """A test file that is not UTF-8: the card's tests are JSON strings, so no row."""


def _text(root: Path, path: Path) -> str:
    """A test file's text, byte for byte (no newline translation: a CR stays a CR)."""
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        where = path.relative_to(root).as_posix()
        raise NotText(f"{where}: byte {exc.start} is not UTF-8") from exc


def statement_text(problem: Problem) -> str | None:
    for statement in problem.statements:
        if statement.lang == "en" and statement.text is not None:
            return statement.text
    return None


def from_package(ctx: Workbench, options: BuildOptions) -> Conversion:
    problem = ctx.problem
    found = [
        f for part in ("config", "statement", "data") for c in checks_of(part) for f in c(problem)
    ]
    found += render_findings(problem)  # (a statement that does not render is no row)
    errors = [f for f in found if f.severity is Severity.ERROR]
    if errors:
        return Conversion(drop="invalid package", detail=errors[0].message)
    need = judge_need(problem)
    if need is not None and need.kind is JudgeKind.SCORING and not options.keep_judges:
        need = None  # (partial scores aside, the row's reward is the comparator's, as ever)
    if need is not None and not options.keep_judges:
        return Conversion(drop=need.reason, detail=need.detail)
    statement = statement_text(problem)
    if statement is None:
        return Conversion(drop="no English statement")
    try:
        cases = _capped(read_cases(problem.root), options)
    except NotText as exc:
        return Conversion(drop="test data that is not UTF-8", detail=str(exc))
    tests = [(stdin, stdout) for _, stdin, stdout in cases]
    if len(tests) < options.min_tests:
        return Conversion(drop="too few tests", detail=f"{len(tests)} < {options.min_tests}")
    judge = ""
    if need is not None:
        judge = judge_json(problem.root, need, [stem for stem, _, _ in cases]) or ""
        if not judge:
            return Conversion(drop="judge too large", detail=f"over {JUDGE_BYTES >> 20} MiB")
    return _with_reference(ctx, options, statement, tests, judge)


def _capped(cases: list[tuple[str, str, str]], options: BuildOptions) -> list[tuple[str, str, str]]:
    pairs = [(stdin, stdout) for _, stdin, stdout in cases]
    return cases[: within_caps(pairs, options.max_tests, options.max_test_bytes)]


def within_caps(tests: Sequence[tuple[str, str]], max_tests: int, max_bytes: int) -> int:
    """How many of the first tests fit both caps (the card: 32 tests, 4 MiB of stdin and
    stdout); kattis2parquet's and importdataset's rule."""
    size = 0
    for count, (stdin, stdout) in enumerate(tests[:max_tests]):
        size += len(stdin.encode()) + len(stdout.encode())
        if size > max_bytes:
            return count
    return min(len(tests), max_tests)


def _with_reference(
    ctx: Workbench,
    options: BuildOptions,
    statement: str,
    tests: list[tuple[str, str]],
    judge: str = "",
) -> Conversion:
    problem = ctx.problem
    candidates = [
        s
        for s in problem.submissions
        if s.expectation is not None and s.expectation.accepted and s.program.language == "python3"
    ]
    passing: list[tuple[str, float]] = []
    with _reference_runner(ctx, options, tests, judge) as run:
        for sub in candidates:
            build = ctx.submission(sub)
            if build.executable is None:
                return _disagree(sub.rel, "does not compile", build.message)
            slowest, error = run(build.executable)
            if slowest is None:
                return _disagree(sub.rel, "fails a test", error)
            code = (problem.root / sub.program.files[0]).read_text(encoding="utf-8")
            passing.append((code, slowest))
    package_limit = _package_limit(problem)
    origin: dict[str, Any] = {"source": problem.root.name, "package_time_limit_s": package_limit}
    if not passing:
        if not options.allow_no_reference:
            return Conversion(drop="no passing Python 3 reference")
        origin["reference_kind"] = "upstream_tests_only"
        code, slowest = "", 0.0
    else:
        code, slowest = min(passing, key=lambda item: item[1])
        origin["reference_kind"] = "python_reference"
        if slowest > options.max_reference_seconds:
            return Conversion(drop="reference too slow", detail=f"{slowest:.2f} s")
    limit = dataset_time_limit(package_limit, slowest)
    row = Row(
        problem_id(statement),
        options.split,
        statement,
        tests_json(tests),
        limit,
        origin_json(origin),
        code,
        str(problem.root),
        judge,
    )
    return Conversion(row)


@contextlib.contextmanager
def _reference_runner(
    ctx: Workbench, options: BuildOptions, tests: list[tuple[str, str]], judge: str
) -> Iterator[Runner]:
    """How a reference is run on the row's tests: by the comparator, or by the problem's
    own judge (the package the row's judge makes: the tests it will be graded on)."""
    if not judge:
        yield lambda exe: _run_reference(ctx, exe, tests)
        return
    from problemtools_py.judging.package import reference_check

    with tempfile.TemporaryDirectory(prefix="ptpy-judge-") as tmp:
        materialize(parse(judge, len(tests), ctx.problem.root, 0), tests, Path(tmp))
        with reference_check(Path(tmp), REFERENCE_SECONDS, ctx.pool) as run:
            yield run


def _package_limit(problem: Problem) -> float:
    declared = problem.declared_time_limit
    return declared.seconds if declared is not None and declared.seconds is not None else 1.0


def dataset_time_limit(package_limit: float, reference_seconds: float) -> float:
    """The dataset's time limit: 4 x the package's, within [1, 10] s, and never below 4 x
    the reference's CPU time."""
    return max(min(max(4 * package_limit, 1.0), 10.0), round(4 * reference_seconds, 2))


def _disagree(rel: str, how: str, error: str) -> Conversion:
    """An accepted Python submission that failed: a Python 2 one is named as such."""
    sign = python2.python2_sign(error)
    if sign is not None:
        return Conversion(drop=f"Python 2 reference; {python2.RUNS}", detail=f"{rel}: {sign}")
    return Conversion(drop="accepted submissions disagree", detail=f"{rel} {how}")


def _run_reference(
    ctx: Workbench, exe: Executable, tests: list[tuple[str, str]]
) -> tuple[float | None, str]:
    """The slowest CPU time over the tests (None when any fails), and the failure's
    message."""
    limits = Limits(cpu_seconds=REFERENCE_SECONDS, memory_bytes=2 << 30)
    judge = CaseJudge(ctx.pool, DatasetValidator(), limits)
    slowest = 0.0
    with tempfile.TemporaryDirectory(prefix="ptpy-ref-") as tmp:
        for index, (stdin, stdout) in enumerate(tests):
            case = Path(tmp) / f"{index}"
            case.mkdir()
            (case / "in").write_text(stdin, encoding="utf-8")
            (case / "ans").write_text(stdout, encoding="utf-8")
            for name in ("in", "ans"):
                (case / name).chmod(0o644)
            result = judge.judge(exe, case / "in", case / "ans", case / "work")
            if result.verdict is not Verdict.AC:
                return None, result.message
            slowest = max(slowest, result.cpu_seconds)
    return (slowest if math.isfinite(slowest) else None), ""


def convert(root: Path, pool: SandboxPool, options: BuildOptions) -> Conversion:
    """One package, either way."""
    if find_sidecar(root) is not None:
        return from_sidecar(root)
    problem = load_problem(root)
    return from_package(Workbench.open(problem, pool), options)
