"""``auditdata DATASET``: the tests of each row of a dataset (see audit.package for a
package's). The wrong programs (the mutants of the row's reference from
``references.parquet``, by the Python AST operators, and the programs given with
``--wrong``) are each run on every test of the row through the grading path (one
session each, every test judged by the dataset's comparator at the row's time limit).

A row has no generator: the survivors are tried on random inputs made after its tests'
inputs within the bounds its statement states (generate.shaped), answered by its
reference (inputs the reference fails on are dropped). An input a survivor fails on is
its *witness*; a mutant that fails none is counted equivalent. The witnesses that kill
the most survivors, greedily, are what ``--augment`` adds to the row's tests. Test inputs
outside every bound the statement states are listed. Everything is seeded by the
problem's id: the same dataset gives the same audit. A row graded by its own judge
(``judged-<split>.parquet``) is audited as its package is (audit.package): the package
parquet2kattis writes for it, judged by its validator, interactor or grader; without a
generator its survivors are not told from equivalent mutants (a note says so)."""

from __future__ import annotations

import contextlib
import hashlib
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from problemtools_py.audit.mutants import mutants
from problemtools_py.audit.package import SMALL_INPUT, Audit, Wrong
from problemtools_py.audit.shaped_cases import shown
from problemtools_py.dataset.reader import Dataset, DatasetProblem
from problemtools_py.generate.shaped import ShapedFuzzer
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.results import GradeResult, Settings, Status
from problemtools_py.grading.testrun import RunLimits
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.results import RunResult

LANGUAGES = {".py": "python3", ".cpp": "cpp", ".cc": "cpp", ".c": "c", ".java": "java"}
ANSWER_BYTES = 4 << 20  # the most a reference's answer to a random input may be
Tests = list[tuple[str, str]]


@dataclass
class DatasetAudit:
    """Every row's audit, and each row's witnesses (as new tests), best first."""

    audits: list[Audit] = field(default_factory=list)
    witnesses: dict[str, Tests] = field(default_factory=dict)


@dataclass(frozen=True)
class Plan:
    """What to run on each row."""

    count: int  # mutants of the reference, at most
    given: tuple[tuple[str, str, str], ...]  # (name, code, language) of --wrong programs
    paths: tuple[Path, ...]  # the --wrong programs' files
    random_inputs: int  # survivors are tried on this many random inputs
    jobs: int


def plan(count: int, given: list[Path], random_inputs: int, jobs: int) -> Plan:
    programs = tuple(
        (str(path), path.read_text(encoding="utf-8"), LANGUAGES.get(path.suffix, "python3"))
        for path in given
    )
    return Plan(count, programs, tuple(given), random_inputs, jobs)


def audit_dataset(
    root: Path, how: Plan, progress: Callable[[int, int], None] | None = None
) -> DatasetAudit:
    """Every row's audit, in the splits' order; ``progress(done, total)`` per row."""
    data = Dataset(root)
    total = sum(len(data.ids(split)) for split in data.splits)
    found = DatasetAudit()
    languages = ("python3", "cpp", "c", "java")
    with (
        Grader(None, Settings(raw=True, languages=languages), jobs=how.jobs) as grader,
        contextlib.ExitStack() as stack,
    ):
        pools: list[SandboxPool] = []  # (for judged rows: verification's, not the grader's)
        for split in data.splits:
            for problem in data.iter_problems(split):
                reference = data.reference(problem.problem_id) or ""
                if problem.judge_json:
                    if not pools:
                        pools.append(stack.enter_context(SandboxPool(how.jobs + 1)))
                    found.audits.append(_judged(pools[0], problem, reference, how))
                else:
                    row = RowAuditor(grader, problem, reference, how)
                    found.audits.append(row.run())
                    found.witnesses[problem.problem_id] = row.witnesses
                if progress is not None:
                    progress(len(found.audits), total)
    return found


class RowAuditor:
    """One row's audit."""

    def __init__(self, grader: Grader, problem: DatasetProblem, reference: str, how: Plan) -> None:
        self.grader, self.problem, self.reference, self.how = grader, problem, reference, how
        names = [f"test {i}" for i in range(len(problem.tests))]
        self.audit = Audit(problem.problem_id, f"{problem.split}:{problem.problem_id}", None, names)
        seed = int(hashlib.sha256(problem.problem_id.encode()).hexdigest()[:8], 16)
        self.fuzzer = ShapedFuzzer([i for i, _ in problem.tests], problem.statement, seed)
        self.witnesses: Tests = []
        self._lock = threading.Lock()

    def run(self) -> Audit:
        audit, problem = self.audit, self.problem
        inputs = [i for i, _ in problem.tests]
        audit.largest_input = max((len(i.encode()) for i in inputs), default=0)
        for index, value in self.fuzzer.bounds_broken(inputs):
            audit.invalid_inputs.append(f"test {index}")
            audit.notes.append(
                f"test {index} holds {value}, outside every bound the statement states"
            )
        programs = self._programs()
        with ThreadPoolExecutor(max(1, self.how.jobs)) as pool:
            audit.programs = list(pool.map(lambda item: self._judge(*item), programs))
        survivors = [(w, c, lang) for w, c, lang in programs if w.status == "survived"]
        if survivors:
            self._witness(survivors)
        if problem.tests and audit.largest_input < SMALL_INPUT:
            audit.notes.append(f"no large case: every input is under {SMALL_INPUT} bytes")
        return audit

    def _programs(self) -> list[tuple[Wrong, str, str]]:
        programs: list[tuple[Wrong, str, str]] = []
        if self.reference and self.how.count > 0:
            self.audit.reference = "reference"
            for mutant in mutants(self.reference, self.how.count):
                wrong = Wrong(f"reference:{mutant.name}", "mutant", mutant.change)
                programs.append((wrong, mutant.code, "python3"))
        elif not self.reference:
            self.audit.notes.append("no reference (upstream tests only): no mutants")
        programs += [(Wrong(name, "given"), code, lang) for name, code, lang in self.how.given]
        return programs

    def _judge(self, wrong: Wrong, code: str, language: str) -> Wrong:
        """``code`` on each test: the tests that reject it."""
        results = self.grader.grade_each(
            self.problem.tests, self.problem.time_limit_s, code, language
        )
        self._count(results)
        if _not_run(results):
            wrong.status, wrong.witness = "not built", results[0].message[:200]
            return wrong
        wrong.rejected_by = [f"test {i}" for i, r in enumerate(results) if _rejected(r)]
        wrong.status = "rejected" if wrong.rejected_by else "survived"
        return wrong

    def _count(self, results: list[GradeResult]) -> None:
        if not _not_run(results):
            with self._lock:
                self.audit.runs += len(results)
                self.audit.timeouts += sum(r.status is Status.TIMEOUT for r in results)

    def _answered(self) -> Tests:
        """Random inputs and the reference's answers (those it runs cleanly on)."""
        limits = RunLimits(self.problem.time_limit_s, ANSWER_BYTES)
        found: Tests = []
        fresh = dict.fromkeys(self.fuzzer.fresh() for _ in range(self.how.random_inputs))
        for stdin in fresh:
            run = self.grader.execute(self.reference, "python3", stdin, limits)
            if isinstance(run, RunResult) and run.ok and run.stdout.strip():
                found.append((stdin, run.stdout.decode("utf-8", "replace")))
        return found

    def _witness(self, survivors: list[tuple[Wrong, str, str]]) -> None:
        """Each survivor on the random inputs: witnessed, or equivalent (a mutant)."""
        answered = self._answered() if self.reference and self.how.random_inputs > 0 else []
        if not answered:
            why = "no reference" if not self.reference else "no random input the reference answers"
            self.audit.notes.append(f"survivors not told from equivalent mutants: {why}")
            return
        tests, limit = tuple(answered), self.problem.time_limit_s

        def kills(item: tuple[Wrong, str, str]) -> set[int]:
            results = self.grader.grade_each(tests, limit, item[1], item[2])
            self._count(results)
            return {i for i, r in enumerate(results) if _rejected(r)}

        with ThreadPoolExecutor(max(1, self.how.jobs)) as pool:
            killed = list(pool.map(kills, survivors))
        chosen = _cover(killed)
        self.witnesses = [answered[i] for i in chosen]
        for (wrong, _code, _lang), by in zip(survivors, killed, strict=True):
            if by:
                first = min(by, key=lambda i: chosen.index(i) if i in chosen else len(chosen) + i)
                wrong.witness = shown(answered[first][0])
            elif wrong.kind == "mutant":
                wrong.status = "equivalent"


def _judged(pool: SandboxPool, problem: DatasetProblem, reference: str, how: Plan) -> Audit:
    """A row with its own judge, audited as the package it is exported as."""
    from problemtools_py.audit.package import Auditor
    from problemtools_py.dataset.export import package
    from problemtools_py.judging.policy import Policy, RunUntil
    from problemtools_py.judging.session import Session
    from problemtools_py.model import load_problem

    with tempfile.TemporaryDirectory(prefix="ptpy-audit-row-") as tmp:
        root = package(problem, reference or None, Path(tmp), modern=True)
        ctx = Session.start(
            load_problem(root), Policy(jobs=how.jobs, run_until=RunUntil.EVERY_CASE), pool
        )
        try:
            audit = Auditor(ctx, list(how.paths), how.count, how.random_inputs).run()
        finally:
            ctx.close()
    audit.problem, audit.path = problem.problem_id, f"{problem.split}:{problem.problem_id}"
    if audit.reference is not None:
        audit.reference = "reference"
    for wrong in audit.programs:
        wrong.name = wrong.name.replace("submissions/accepted/", "", 1)
    audit.notes.append("graded by its own judge: audited as its package")
    return audit


def _cover(killed: list[set[int]]) -> list[int]:
    """Inputs that together kill every survivor any kills, the most killing first."""
    left = [set(k) for k in killed if k]
    chosen: list[int] = []
    while left:
        counts: dict[int, int] = {}
        for by in left:
            for index in by:
                counts[index] = counts.get(index, 0) + 1
        best = min(counts, key=lambda i: (-counts[i], i))
        chosen.append(best)
        left = [by for by in left if best not in by]
    return chosen


def _rejected(result: GradeResult) -> bool:
    """A program's failure on a test (not the grader's: that has no reward)."""
    return result.reward is not None and result.status is not Status.OK


def _not_run(results: list[GradeResult]) -> bool:
    """Whether the program never ran (one result for all, not a test's)."""
    return len(results) == 1 and results[0].status in (
        Status.SYNTAX_ERROR,
        Status.COMPILE_ERROR,
        Status.NO_CODE,
        Status.CODE_TOO_LARGE,
        Status.GRADER_ERROR,
    )
