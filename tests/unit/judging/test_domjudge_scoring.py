"""judging/domjudge_scoring.py: DOMjudge's score of a judged submission (groups only where a
testdata.yaml is, nothing inherited, accept_score once per leaf group, score.txt scores
of AC and WA only, the aggregations, ignore_sample), on packages loaded but never run."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.builders import case, write

from problemtools_py.judge.graders import CaseScore
from problemtools_py.judging.domjudge_scoring import domjudge_grade
from problemtools_py.model import load_problem
from problemtools_py.verdicts import Verdict as V

CASES = ("sample/1", "secret/a/1", "secret/a/2", "secret/b/1")


def grade(tmp_path: Path, files: dict[str, str], results: dict[str, CaseScore]) -> tuple[V, float]:
    write(tmp_path, "problem.yaml", "name: x\ntype: scoring\n")
    for name in CASES:
        case(tmp_path, f"data/{name}")
    for rel, text in files.items():
        write(tmp_path, rel, text)
    data = load_problem(tmp_path).data
    assert data is not None
    found = domjudge_grade(data, results)
    assert found is not None
    return found.verdict, found.score


GROUPS = {"data/testdata.yaml": "grader_flags: sum\n", "data/secret/testdata.yaml": "x: 1\n",
          "data/secret/a/testdata.yaml": "accept_score: 10\n",
          "data/secret/b/testdata.yaml": "accept_score: 30\n"}  # fmt: skip
ALL_AC = {name: CaseScore(V.AC) for name in CASES}


def test_accept_score_counts_once_per_group_not_per_case(tmp_path: Path) -> None:
    assert grade(tmp_path, GROUPS, ALL_AC) == (V.AC, 40.0)


def test_a_failed_case_zeroes_its_group_and_gives_the_verdict(tmp_path: Path) -> None:
    results = {**ALL_AC, "secret/a/2": CaseScore(V.TLE)}
    assert grade(tmp_path, GROUPS, results) == (V.TLE, 30.0)


def test_nothing_is_inherited(tmp_path: Path) -> None:
    # min on data/ does not reach secret/, which sums its subgroups (the default; inherited,
    # it would take min(10, 30)); sample/ has no file of its own, so is no group
    files = {**GROUPS, "data/testdata.yaml": "grader_flags: min\n"}
    assert grade(tmp_path, files, ALL_AC) == (V.AC, 40.0)


@pytest.mark.parametrize(("flags", "score"), [("sum", 40.0), ("max", 30.0), ("avg", 20.0),
                                              ("min", 10.0), ("sum max", 30.0)])  # fmt: skip
def test_aggregations_the_last_word_wins(tmp_path: Path, flags: str, score: float) -> None:
    files = {**GROUPS, "data/secret/testdata.yaml": f"grader_flags: {flags}\n"}
    assert grade(tmp_path, files, ALL_AC) == (V.AC, score)


def test_validator_scores_of_accepted_and_wrong_answers_only(tmp_path: Path) -> None:
    results = {**ALL_AC, "secret/a/1": CaseScore(V.WA, 4.0), "secret/a/2": CaseScore(V.RTE, 5.0)}
    assert grade(tmp_path, GROUPS, results) == (V.WA, 34.0)  # a: 4 + 0; b: 30


def test_ignore_sample_leaves_a_failed_sample_out(tmp_path: Path) -> None:
    files = {**GROUPS, "data/testdata.yaml": "grader_flags: sum ignore_sample\n",
             "data/sample/testdata.yaml": "accept_score: 5\n"}  # fmt: skip
    results = {**ALL_AC, "sample/1": CaseScore(V.WA)}
    assert grade(tmp_path, files, results) == (V.AC, 40.0)
    files["data/testdata.yaml"] = "grader_flags: sum\n"
    assert grade(tmp_path, files, results) == (V.WA, 40.0)


def test_a_directory_without_its_own_file_is_no_group(tmp_path: Path) -> None:
    files = {k: v for k, v in GROUPS.items() if k != "data/secret/testdata.yaml"}
    assert grade(tmp_path, files, ALL_AC) == (V.AC, 0.0)  # secret/ and all below: not groups
