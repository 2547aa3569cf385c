"""judging/breaks.py: the cases a legacy judge never reaches once one fails (on_reject:
break up the test-group tree while the default grader surely rejects), on packages
loaded but never run."""

from __future__ import annotations

from pathlib import Path

from helpers.builders import case, write

from problemtools_py.judging.breaks import Breaks
from problemtools_py.model import load_problem

CASES = ("sample/1", "secret/a/1", "secret/a/2", "secret/a/3", "secret/b/1", "secret/c")


def breaks_of(tmp_path: Path, files: dict[str, str]) -> tuple[Breaks, list[str]]:
    write(tmp_path, "problem.yaml", "name: x\ntype: scoring\n")
    for name in CASES:
        case(tmp_path, f"data/{name}")
    for rel, text in files.items():
        write(tmp_path, rel, text)
    problem = load_problem(tmp_path)
    cases = [c for g in problem.data.walk() for c in g.cases] if problem.data else []
    return Breaks(problem, cases), [c.name for c in cases]


def skipped(breaks: Breaks, names: list[str], failed: str) -> set[str]:
    return {names[i] for i in breaks.after(names.index(failed))}


def test_by_default_a_failure_skips_the_rest_of_every_group_above_it(tmp_path: Path) -> None:
    breaks, names = breaks_of(tmp_path, {})
    assert skipped(breaks, names, "secret/a/2") == {"secret/a/3", "secret/b/1", "secret/c"}
    assert skipped(breaks, names, "sample/1") == set(names) - {"sample/1"}  # secret too


def test_continue_judges_the_rest_of_its_group(tmp_path: Path) -> None:
    breaks, names = breaks_of(tmp_path, {"data/secret/a/testdata.yaml": "on_reject: continue\n"})
    assert skipped(breaks, names, "secret/a/1") == {"secret/b/1", "secret/c"}


def test_a_group_that_may_still_accept_stops_the_skipping(tmp_path: Path) -> None:
    breaks, names = breaks_of(
        tmp_path, {"data/secret/a/testdata.yaml": "grader_flags: accept_if_any_accepted\n"}
    )
    assert skipped(breaks, names, "secret/a/1") == {"secret/a/2", "secret/a/3"}


def test_a_custom_grader_may_accept_so_its_parent_judges_on(tmp_path: Path) -> None:
    breaks, names = breaks_of(tmp_path, {"data/secret/a/testdata.yaml": "grading: custom\n"})
    assert skipped(breaks, names, "secret/a/1") == {"secret/a/2", "secret/a/3"}


def test_problem_yaml_on_reject_grade_judges_every_case(tmp_path: Path) -> None:
    breaks, names = breaks_of(
        tmp_path, {"problem.yaml": "name: x\ntype: scoring\ngrading:\n  on_reject: grade\n"}
    )
    assert skipped(breaks, names, "secret/a/1") == set()
