"""judging/scoring.py: a submission's verdict and score from its cases over the test-group
tree (legacy default grader with testdata.yaml settings; 2023-07 aggregation), on packages
loaded but never run."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers.builders import case, write

from problemtools_py.judge.graders import CaseScore
from problemtools_py.judging.scoring import Scorer
from problemtools_py.model import load_problem
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.verdicts import Verdict
from problemtools_py.verify.context import Context, Options

V = Verdict
Make = Callable[[dict[str, str]], Scorer]


@pytest.fixture
def scorer(tmp_path: Path) -> Iterator[Make]:
    with SandboxPool(1) as pool:  # never started: no custom grader here

        def make(files: dict[str, str]) -> Scorer:
            for rel, text in files.items():
                write(tmp_path, rel, text) if not rel.endswith(".in") else case(
                    tmp_path, rel.removesuffix(".in"))
            ctx = Context.create(load_problem(tmp_path), Options(jobs=1), pool)
            return Scorer(ctx, tmp_path / "work")

        yield make


LEGACY = {"problem.yaml": "name: x\ntype: scoring\n", "data/sample/1.in": "",
          "data/secret/a/1.in": "", "data/secret/a/2.in": "", "data/secret/b/1.in": ""}


def test_legacy_sums_accept_scores_over_groups(scorer: Make) -> None:
    s = scorer({**LEGACY, "data/secret/a/testdata.yaml": "accept_score: 10\n"})
    grade, errors = s.grade({"sample/1": CaseScore(V.AC, None), "secret/a/1": CaseScore(V.AC, None),
                     "secret/a/2": CaseScore(V.AC, None), "secret/b/1": CaseScore(V.AC, None)})
    assert (grade.verdict, grade.score) == (V.AC, 22.0)  # sample 1 + a 20 + b 1
    assert errors == []


def test_legacy_worst_error_and_reject_score(scorer: Make) -> None:
    s = scorer({**LEGACY, "data/testdata.yaml": "reject_score: 0\non_reject: continue\n"})
    grade, errors = s.grade({"sample/1": CaseScore(V.AC, None), "secret/a/1": CaseScore(V.WA, None),
                     "secret/a/2": CaseScore(V.TLE, None), "secret/b/1": CaseScore(V.AC, None)})
    assert (grade.verdict, grade.score) == (V.TLE, 2.0)
    assert errors == []


def test_legacy_range_is_a_judge_error(scorer: Make) -> None:
    s = scorer({**LEGACY, "data/secret/b/testdata.yaml": "range: 0 0.5\n"})
    grade, errors = s.grade({c: CaseScore(V.AC, None)
                     for c in ("sample/1", "secret/a/1", "secret/a/2", "secret/b/1")})
    assert grade.verdict is V.JE and errors == [
        "score 1 of data/secret/b is outside its range 0 0.5"]
    assert s.errors == []  # the grader's own, none here


def test_legacy_break_grades_the_items_up_to_the_first_rejected(scorer: Make) -> None:
    # on_reject: break (the default): a/2 and b are never judged, so they count for nothing
    s = scorer({**LEGACY, "data/testdata.yaml": "grader_flags: first_error sum\n"})
    grade, errors = s.grade({"sample/1": CaseScore(V.AC, None), "secret/a/1": CaseScore(V.WA, None),
                     "secret/a/2": CaseScore(V.TLE, None), "secret/b/1": CaseScore(V.AC, None)})
    assert (grade.verdict, grade.score) == (V.WA, 1.0)
    assert errors == []


def test_problem_yaml_on_reject_grade_overrides_every_group(scorer: Make) -> None:
    s = scorer({**LEGACY, "problem.yaml": "name: x\ntype: scoring\ngrading:\n  on_reject: grade\n",
                "data/testdata.yaml": "grader_flags: first_error sum\n"})
    grade, errors = s.grade({"sample/1": CaseScore(V.AC, None), "secret/a/1": CaseScore(V.WA, None),
                     "secret/a/2": CaseScore(V.AC, None), "secret/b/1": CaseScore(V.AC, None)})
    assert (grade.verdict, grade.score) == (V.WA, 3.0)
    assert errors == []


MODERN = {"problem.yaml": "problem_format_version: 2023-07-draft\nname: x\ntype: scoring\n",
          "data/sample/1.in": "", "data/secret/a/1.in": "", "data/secret/a/2.in": "",
          "data/secret/b/1.in": "", "data/secret/a/test_group.yaml": "max_score: 30\n",
          "data/secret/b/test_group.yaml": "max_score: 30\n"}


def test_modern_sum_of_pass_fail_groups(scorer: Make) -> None:
    s = scorer(MODERN)
    grade, errors = s.grade({"sample/1": CaseScore(V.AC, None), "secret/a/1": CaseScore(V.AC, None),
                     "secret/a/2": CaseScore(V.WA, None), "secret/b/1": CaseScore(V.AC, None)})
    assert grade.verdict is V.WA and grade.score == pytest.approx(30.0)
    assert errors == []


def test_modern_pass_fail_problem_is_all_ac(scorer: Make) -> None:
    s = scorer({**MODERN, "problem.yaml": "problem_format_version: 2023-07-draft\nname: x\n"})
    assert s.grade({"secret/a/1": CaseScore(V.AC, None)})[0].verdict is V.AC
    assert s.grade({"secret/a/1": CaseScore(V.RTE, None)})[0].verdict is V.RTE


@pytest.mark.parametrize("value", ["[1, 2]", "{a: 1}", "true", "ten", ".nan"])
def test_legacy_score_that_is_not_a_number_reads_as_its_default(scorer: Make, value: str) -> None:
    # (the test group check reports the value; grading must not crash on it)
    s = scorer({**LEGACY, "data/secret/a/testdata.yaml": f"accept_score: {value}\n"})
    grade, errors = s.grade({c: CaseScore(V.AC, None)
                     for c in ("sample/1", "secret/a/1", "secret/a/2", "secret/b/1")})
    assert (grade.verdict, grade.score, errors) == (V.AC, 4.0, [])
