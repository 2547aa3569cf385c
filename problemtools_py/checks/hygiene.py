"""Test-data hygiene: two test cases with the same input (within sample, or within the
secret data: a sample repeated in secret is intended), secret answers that are all the
same where the default validator compares them (a constant output would pass), and
test case files over 100 MiB (the drafts' cap, a recommendation since)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from problemtools_py.checks.registry import check
from problemtools_py.findings import Finding, warning
from problemtools_py.model.problem import Problem, TestCase
from problemtools_py.model.testdata import JUDGED_GROUPS

SIZE_CAP = 100 << 20
MIN_CASES_FOR_SAME_ANSWERS = 3


def _cases(problem: Problem, top: str) -> list[TestCase]:
    group = problem.data.child(top) if problem.data is not None else None
    return list(group.all_cases()) if group is not None else []


def _digest(path: Path) -> str | None:
    from problemtools_py.digests import file_digest  # (hashlib: not on -p config's path)

    try:
        return file_digest(path)
    except OSError:
        return None


def _same(problem: Problem, cases: list[TestCase], ext: str) -> dict[str, list[str]]:
    """Files with extension ``ext`` grouped by content (sizes compared first)."""
    by_size: dict[int, list[str]] = defaultdict(list)
    for case in cases:
        rel = case.files.get(ext)
        path = problem.root / rel if rel else None
        if rel and path is not None and path.is_file() and not path.is_symlink():
            by_size[path.stat().st_size].append(rel)
    groups: dict[str, list[str]] = defaultdict(list)
    for rels in by_size.values():
        for rel in rels if len(rels) > 1 else ():
            found = _digest(problem.root / rel)
            if found is not None:
                groups[found].append(rel)
    return {k: sorted(v) for k, v in groups.items() if len(v) > 1}


@check("data")
def duplicate_inputs(problem: Problem) -> Iterator[Finding]:
    for top in JUDGED_GROUPS:
        for rels in _same(problem, _cases(problem, top), ".in").values():
            for rel in rels[1:]:
                yield warning("hygiene", f"the same input as {rels[0]}", rel)


@check("data")
def same_answers(problem: Problem) -> Iterator[Finding]:
    if problem.config.interactive or problem.config.multi_pass or problem.output_validator:
        return  # (a custom validator may read anything, or nothing, from the answers)
    cases = [c for c in _cases(problem, "secret") if ".ans" in c.files]
    if len(cases) < MIN_CASES_FOR_SAME_ANSWERS:
        return
    groups = _same(problem, cases, ".ans")
    if len(groups) == 1 and len(next(iter(groups.values()))) == len(cases):
        yield warning(
            "hygiene",
            f"all {len(cases)} secret answers are the same: a program printing it would pass",
            "data/secret",
        )


@check("data")
def large_files(problem: Problem) -> Iterator[Finding]:
    for case in problem.data.all_cases() if problem.data is not None else ():
        for rel in case.files.values():
            path = problem.root / rel
            if path.is_file() and not path.is_symlink() and path.stat().st_size > SIZE_CAP:
                size = path.stat().st_size / 2**20
                yield warning(
                    "hygiene",
                    f"{size:.0f} MiB: over the 100 MiB a test file should stay under",
                    rel,
                )
