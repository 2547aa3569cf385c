"""The released format's other programs, run for real on copies of
sample_problems/subtasks: answer validators, the static validator (and its score in the
group tree), score_multiplier.txt, require_pass, and the visualizers with --visualize."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.builders import replace, write
from helpers.packages import describe, verify

from problemtools_py.findings import ProblemReport
from problemtools_py.model import load_problem
from problemtools_py.verify.context import Options
from problemtools_py.verify.verifier import verify_all

# An answer validator: the answer must be the sum of the input's numbers.
SUM_ANSWER = """import sys
values = open(sys.argv[1]).read().split()[1:]
sys.exit(42 if sys.stdin.read().split() == [str(sum(map(int, values)))] else 43)
"""
# A static validator that reports what it was given, and rejects C sources.
STATIC = """import os, sys
language, entry, feedback = sys.argv[1:4]
open(feedback + "judgemessage.txt", "w").write(f"{language} {entry} {sys.argv[4:]}")
if not os.path.isfile(entry) or language == "c":
    sys.exit(43)
sys.exit(42)
"""


def _run(
    root: Path, parts: tuple[str, ...], only: str | None = None, visualize: Path | None = None
) -> ProblemReport:
    """Verify ``parts`` of ``root`` with the judge, on the submissions matching ``only``."""
    options = Options(submissions=re.compile(only) if only else None, visualize=visualize)
    (report,) = verify_all([root], parts, options=options).problems
    return report


def _scores(report: ProblemReport) -> dict[str, float | None]:
    return {row.submission.rsplit("/", 1)[-1]: row.score for row in report.submissions}


def test_answer_validators_accept_the_answers(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("subtasks")
    write(root, "answer_validators/sum/validate.py", SUM_ANSWER)
    report = _run(root, ("validators",))
    assert report.findings == [], describe(report)


def test_an_answer_validator_rejecting_one_answer_names_it(
    copy_sample: Callable[..., Path],
) -> None:
    root = copy_sample("subtasks")
    write(root, "answer_validators/sum/validate.py", SUM_ANSWER)
    write(root, "data/secret/1-small/02-ten.ans", "56\n")  # still a number: outputs agree
    report = _run(root, ("validators",))
    found = [(f.severity.value, f.check, f.path) for f in report.findings]
    assert found == [("error", "answer-validator", "data/secret/1-small/02-ten.ans")], describe(
        report
    )
    assert "answer validator sum rejects this answer: exit code 43" in report.findings[0].message


def test_invalid_answers_must_be_rejected_with_their_arguments(
    copy_sample: Callable[..., Path],
) -> None:
    """BAPCtools' data/invalid_answer (divsort): each answer there must be rejected by an
    answer validator; they get answer_validator_args (bt's), not the output validator's."""
    root = copy_sample("subtasks")
    # (with --strict, from answer_validator_args, it rejects every answer)
    write(root, "answer_validators/sum/validate.py",
          "import sys\nif '--strict' in sys.argv:\n    sys.exit(43)\n" + SUM_ANSWER)  # fmt: skip
    write(root, "data/invalid_answer/wrong.in", "2\n1 2\n")
    write(root, "data/invalid_answer/wrong.ans", "4\n")  # rejected: no finding
    write(root, "data/invalid_answer/right.in", "2\n1 2\n")
    write(root, "data/invalid_answer/right.ans", "3\n")  # accepted: named
    write(root, "data/invalid_answer/args/test_group.yaml", "answer_validator_args: [--strict]\n")
    write(root, "data/invalid_answer/args/padded.in", "2\n1 2\n")
    write(root, "data/invalid_answer/args/padded.ans", "3\n")  # rejected by --strict alone
    report = _run(root, ("validators",))
    found = sorted((f.check, f.path, f.message) for f in report.findings if f.severity.value == "error")
    assert found == [
        ("answer-validator", "data/invalid_answer/right.ans",
         "no answer validator rejects this answer of data/invalid_answer"),
    ], describe(report)  # fmt: skip


def test_an_answer_validator_that_does_not_build(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("subtasks")
    write(root, "answer_validators/broken.c", "int main( {\n")
    report = _run(root, ("validators",))
    found = [(f.check, f.path) for f in report.findings]
    assert found == [("answer-validator", "answer_validators/broken.c")], describe(report)


def _with_static(root: Path, score: str = "10") -> None:
    write(root, "static_validator/check.py", STATIC)
    write(root, "data/secret/test_group.yaml", f"max_score: 100\nstatic_validation_score: {score}\n")
    write(root, "data/secret/2-large/test_group.yaml", "max_score: 60\nrequire_pass: [sample]\n")


def test_a_static_validation_case_scores_within_secret(copy_sample: Callable[..., Path]) -> None:
    """The static case (max 10) adds to secret's sum; the C submission is rejected by it."""
    root = copy_sample("subtasks")
    _with_static(root)
    report = _run(root, ("submissions",))
    scores = _scores(report)
    assert scores["sum.py"] == pytest.approx(100.0), describe(report)
    assert scores["sum.cpp"] == pytest.approx(100.0)
    assert scores["int32.c"] == pytest.approx(30.0)  # 1-small only; static rejected


def test_the_static_validator_gets_language_entry_point_and_args(
    copy_sample: Callable[..., Path],
) -> None:
    root = copy_sample("subtasks")
    write(root, "static_validator/check.py", STATIC.replace("sys.exit(42)", "sys.exit(43)"))
    write(
        root,
        "data/secret/test_group.yaml",
        "max_score: 100\nstatic_validation_score: 10\nstatic_validator_args: [strict]\n",
    )
    write(root, "data/secret/2-large/test_group.yaml", "max_score: 60\n")
    problem = load_problem(root)
    secret = problem.data.child("secret") if problem.data is not None else None
    assert secret is not None
    static = problem.static_validation(secret)
    assert static is not None and static.args == ["strict"]
    report = _run(root, ("submissions",), only="sum.py")
    assert _scores(report)["sum.py"] == pytest.approx(90.0), describe(report)


@pytest.mark.parametrize(
    ("change", "message", "path"),
    [
        (
            lambda r: write(r, "data/secret/test_group.yaml", "static_validation_score: 5\n"),
            "but the package has no static_validator/",
            "data/secret/test_group.yaml",
        ),
        (
            lambda r: write(r, "data/secret/test_group.yaml", "static_validator_args: [x]\n"),
            "static_validator_args without static_validation_score",
            "data/secret/test_group.yaml",
        ),
        (
            lambda r: (
                write(r, "static_validator/check.py", STATIC),
                write(r, "data/secret/test_group.yaml", "static_validation_score: pass-fail\n"),
            ),
            "static_validation_score: pass-fail needs pass-fail aggregation",
            "data/secret/test_group.yaml",
        ),
        (
            lambda r: (
                write(r, "static_validator/check.py", STATIC),
                replace(r, "problem.yaml", "type: scoring", "type: [scoring, submit-answer]"),
            ),
            "a submit-answer problem may not have a static validator",
            "static_validator",
        ),
    ],
    ids=["no-validator", "args-without-score", "pass-fail-in-sum-group", "submit-answer"],
)
def test_static_validation_rules(
    copy_sample: Callable[..., Path],
    change: Callable[[Path], object],
    message: str,
    path: str,
) -> None:
    root = copy_sample("subtasks")
    change(root)
    report = verify(root, ("validators",))
    found = [(f.check, f.path) for f in report.findings]
    assert found == [("static-validation", path)], describe(report)
    assert message in report.findings[0].message


# An output validator that accepts the right sum, at half score on inputs with one number.
HALF_FOR_ONE = """import sys
values = open(sys.argv[1]).read().split()[1:]
said = sys.stdin.read().split()
if said != [str(sum(map(int, values)))]:
    sys.exit(43)
if len(values) == 1:
    open(sys.argv[3] + "score_multiplier.txt", "w").write("0.5\\n")
sys.exit(42)
"""


def test_score_multiplier_scales_the_case_maximum(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("subtasks")
    write(root, "output_validator/validate.py", HALF_FOR_ONE)
    write(root, "data/secret/1-small/test_group.yaml", "max_score: 30\nscore_aggregation: sum\n")
    report = _run(root, ("submissions",), only="sum.py")
    # 1-small: two cases of 15 each, the one-number case halved
    assert _scores(report)["sum.py"] == pytest.approx(92.5), describe(report)


def test_a_score_in_a_pass_fail_group_is_a_judge_error(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("subtasks")
    write(root, "output_validator/validate.py", HALF_FOR_ONE)
    report = _run(root, ("submissions",), only="sum.py")
    assert "a validator scored a case of a pass-fail group" in describe(report)


def test_require_pass_leaves_a_group_unscored(copy_sample: Callable[..., Path]) -> None:
    """A submission wrong on the sample only: 2-large requires the sample, so scores 0."""
    root = copy_sample("subtasks")
    write(
        root,
        "submissions/wrong_answer/not_sample.py",
        "input()\nv = list(map(int, input().split()))\nprint(sum(v) + (v == [1, 2, 3]))\n",
    )
    report = _run(root, ("submissions",), only="not_sample")
    assert _scores(report)["not_sample.py"] == pytest.approx(30.0), describe(report)


INPUT_PICTURE = """import sys
n = open(sys.argv[1]).read().split()[0]
open("testcase.svg", "w").write(f"<svg><text>{n} {sys.argv[3:]}</text></svg>")
"""
OUTPUT_PICTURE = """import sys
said = sys.stdin.read().strip()
open(sys.argv[3] + "teamimage.svg", "w").write(f"<svg><text>{said}</text></svg>")
"""


def test_visualizers_draw_with_visualize(copy_sample: Callable[..., Path], tmp_path: Path) -> None:
    root = copy_sample("subtasks")
    write(root, "input_visualizer/draw.py", INPUT_PICTURE)
    write(root, "output_visualizer/draw.py", OUTPUT_PICTURE)
    write(root, "data/sample/test_group.yaml", "input_visualizer_args: [big]\n")
    images = tmp_path / "images"
    report = _run(
        root,
        ("validators", "submissions"),
        visualize=images,
        only="accepted/sum.py",
    )
    assert report.findings == [], describe(report)
    drawn = images / "subtasks"
    assert (drawn / "data/sample/1/testcase.svg").read_text() == "<svg><text>3 ['big']</text></svg>"
    team = drawn / "submissions/accepted/sum.py/sample/1/teamimage.svg"
    assert team.read_text() == "<svg><text>6</text></svg>"
    assert len(list(drawn.glob("submissions/accepted/sum.py/secret/*/*/teamimage.svg"))) == 4


def test_a_visualizer_that_does_not_build_is_a_warning(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("subtasks")
    write(root, "output_visualizer/draw.c", "int main( {\n")
    report = _run(root, ("validators",))
    found = [(f.severity.value, f.check, f.path) for f in report.findings]
    assert found == [("warning", "visualizer", "output_visualizer")], describe(report)
