"""``auditdata DATASET``: the tests of each row of a dataset (see verify.audit for a
package's): the mutants of its reference (``references.parquet``: Python 3, its AST
operators) and the programs given with ``--wrong``, each run on every test of the row
through the grading path (one test at a time, in the grader's kept jail), by the
dataset's comparator at the row's time limit. A row has no generator, so a survivor
cannot be told from an equivalent mutant: each is reported as surviving (a note says
so). Rows graded by their own judge (``judged-<split>.parquet``) are not audited yet."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from problemtools_py.dataset.reader import Dataset, DatasetProblem
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.results import Settings, Status
from problemtools_py.verify.audit import SMALL_INPUT, Audit, Wrong
from problemtools_py.verify.mutants import mutants

LANGUAGES = {".py": "python3", ".cpp": "cpp", ".cc": "cpp", ".c": "c", ".java": "java"}


def audit_dataset(root: Path, count: int, given: list[Path], jobs: int) -> list[Audit]:
    """Every row's audit, in the splits' order."""
    data = Dataset(root)
    languages = ("python3", "cpp", "c", "java")
    found = []
    with Grader(None, Settings(raw=True, languages=languages), jobs=jobs) as grader:
        for split in data.splits:
            for problem in data.iter_problems(split):
                found.append(_audit_row(grader, data, problem, count, given, jobs))
    return found


def _audit_row(
    grader: Grader, data: Dataset, problem: DatasetProblem, count: int, given: list[Path],
    jobs: int,
) -> Audit:  # fmt: skip
    names = [f"test {i}" for i in range(len(problem.tests))]
    audit = Audit(problem.problem_id, f"{problem.split}:{problem.problem_id}", None, names)
    audit.largest_input = max((len(i.encode()) for i, _ in problem.tests), default=0)
    if problem.judge_json:
        audit.notes.append("graded by its own judge: not audited yet")
        return audit
    reference = data.reference(problem.problem_id) or ""
    programs: list[tuple[Wrong, str, str]] = []
    if reference and count > 0:
        audit.reference = "reference"
        for mutant in mutants(reference, count):
            wrong = Wrong(f"reference:{mutant.name}", "mutant", mutant.change)
            programs.append((wrong, mutant.code, "python3"))
    elif not reference:
        audit.notes.append("no reference (upstream tests only): no mutants")
    for path in given:
        language = LANGUAGES.get(path.suffix, "python3")
        programs.append((Wrong(str(path), "given"), path.read_text(encoding="utf-8"), language))
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        done = list(pool.map(lambda item: _judge(grader, problem, *item), programs))
    audit.programs = done
    if any(p.status == "survived" for p in done):
        audit.notes.append("a dataset row has no generator: survivors are not told from "
                           "equivalent mutants")  # fmt: skip
    if problem.tests and audit.largest_input < SMALL_INPUT:
        audit.notes.append(f"no large case: every input is under {SMALL_INPUT} bytes")
    return audit


def _judge(grader: Grader, problem: DatasetProblem, wrong: Wrong, code: str,
           language: str) -> Wrong:  # fmt: skip
    """``code`` on each test alone: the tests that reject it."""
    rejected = []
    for index, test in enumerate(problem.tests):
        result = grader.grade_tests((test,), problem.time_limit_s, code, language)
        if result.status in (Status.SYNTAX_ERROR, Status.COMPILE_ERROR):
            wrong.status, wrong.witness = "not built", result.message[:200]
            return wrong
        if result.reward is None:  # (the grader's side: not the program's verdict)
            continue
        if result.status is not Status.OK:
            rejected.append(f"test {index}")
    wrong.rejected_by = rejected
    wrong.status = "rejected" if rejected else "survived"
    return wrong
