"""--judge domjudge and the DOMjudge conventions the default report names (model/
conventions.py, judging/domjudge_scoring.py, verify/verifier.by_judge), end to end on
packages of our own written the way DOMjudge's example problems are: a legacy scoring
package with only problem.pdf, no input validators and @EXPECTED_SCORE@ tags, scored by
DOMjudge's rules; a legacy package with ``validation: custom multi-pass`` and its
validator in output_validator/."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
from helpers.builders import case, remove, write

from problemtools_py.cli.verifyproblem import main
from problemtools_py.resources import load_schema

Capture = pytest.CaptureFixture[str]
Report = dict  # type: ignore[type-arg]

ADD = "a, b = map(int, input().split())\nprint(a + b)\n"
SMALL_ONLY = "a, b = map(int, input().split())\nprint(a + b if a < 100 else 0)\n"


def run_json(args: list[str], capsys: Capture) -> tuple[int, Report]:
    code = main(["--json", "-j", "2", *args])
    report = json.loads(capsys.readouterr().out)
    jsonschema.validate(report, load_schema("report"))
    return code, report["problems"][0]


def scoring_package(root: Path) -> Path:
    """Groups worth 10 and 30 by accept_score (each once, whatever its case count, as
    DOMjudge scores; legacy's grader would sum it per case), nothing inherited."""
    write(root, "problem.yaml", "name: Add Two\ntype: scoring\n")
    write(root, "problem.pdf", b"%PDF-1.4\n%%EOF\n")
    for rel in ("data/testdata.yaml", "data/secret/testdata.yaml"):
        write(root, rel, "on_reject: continue\ngrader_flags: sum\n")
    case(root, "data/sample/1", "1 2\n")
    write(root, "data/sample/1.ans", "3\n")
    for group, score, pairs in (("small", 10, ["1 1", "5 6"]), ("large", 30, ["500 1", "900 9"])):
        write(root, f"data/secret/{group}/testdata.yaml", f"accept_score: {score}\n")
        for i, pair in enumerate(pairs, 1):
            case(root, f"data/secret/{group}/{i}", pair + "\n")
            write(root, f"data/secret/{group}/{i}.ans", f"{sum(map(int, pair.split()))}\n")
    write(root, "submissions/accepted/add.py",
          "# @EXPECTED_RESULTS@: CORRECT\n# @EXPECTED_SCORE@: 40\n" + ADD)  # fmt: skip
    write(root, "submissions/partial/small.py",
          "# @EXPECTED_RESULTS@: WRONG-ANSWER\n# @EXPECTED_SCORE@: 10\n" + SMALL_ONLY)  # fmt: skip
    return root


def errors(problem: Report) -> list[str]:
    return [f["message"] for f in problem["findings"] if f["severity"] == "error"]


def test_domjudge_scoring_rules_give_the_expected_scores(tmp_path: Path, capsys: Capture) -> None:
    code, problem = run_json(["--judge", "domjudge", str(scoring_package(tmp_path / "addtwo"))],
                             capsys)  # fmt: skip
    rows = {r["submission"]: (r["verdict"], r["score"]) for r in problem["submissions"]}
    assert rows == {"submissions/accepted/add.py": ("AC", 40.0),
                    "submissions/partial/small.py": ("WA", 10.0)}  # fmt: skip
    assert errors(problem) == [] and code == 0
    named = [f for f in problem["findings"] if "domjudge" in (f.get("convention") or "").split(",")]
    assert {f["path"] for f in named} == {"problem.pdf", "input_validators"}
    assert all(f["severity"] == "warning" and "DOMjudge's extension" in f["message"]
               for f in named)  # fmt: skip


def test_by_default_the_extensions_are_named_errors_and_scores_not_compared(
    tmp_path: Path, capsys: Capture
) -> None:
    code, problem = run_json([str(scoring_package(tmp_path / "addtwo"))], capsys)
    named = {f["path"]: f for f in problem["findings"] if "domjudge" in (f.get("convention") or "").split(",")}
    assert sorted(errors(problem)) == sorted(
        f["message"] for f in named.values() if f["severity"] == "error"
    )  # every error is one of DOMjudge's extensions
    assert {"problem.pdf", "input_validators"} <= set(named) and code == 1
    assert "--judge domjudge" in named["problem.pdf"]["message"]
    scores = named["submissions/accepted/add.py"]
    # legacy's grader: sample 1, small 2 x 10, large 2 x 30 (inherited sum, per case)
    assert scores["severity"] == "warning" and "it scores 81" in scores["message"]
    summary = [f for f in problem["findings"] if f["check"] == "conventions"]
    assert len(summary) == 1 and "DOMjudge's conventions" in summary[0]["message"]


def multi_pass_package(copy_sample: Callable[..., Path]) -> Path:
    root: Path = copy_sample("twopass")
    write(root, "problem.yaml", "name: Two passes\nvalidation: custom multi-pass\n"
          "limits:\n  validation_passes: 2\n")  # fmt: skip
    shutil.move(root / "statement", root / "problem_statement")
    remove(root, "problem_statement/problem.sv.md")
    return root


@pytest.mark.parametrize(("judge", "code"), [("kattis", 1), ("domjudge", 0)])
def test_custom_multi_pass_in_output_validator_is_judged_as_meant(
    copy_sample: Callable[..., Path], capsys: Capture, judge: str, code: int
) -> None:
    root = multi_pass_package(copy_sample)
    got, problem = run_json(["--judge", judge, "-p", "config,validators,submissions", str(root)],
                            capsys)  # fmt: skip
    rows = {r["submission"].rsplit("/", 1)[-1]: r["verdict"] for r in problem["submissions"]}
    assert rows == {"twopass.py": "AC", "twopass.c": "AC", "onepass.py": "WA"}
    named = {f["path"] for f in problem["findings"] if "domjudge" in (f.get("convention") or "").split(",")}
    assert named == {"problem.yaml", "output_validator"}
    assert len(errors(problem)) == (2 if judge == "kattis" else 0) and got == code
    assert not [f for f in problem["findings"] if "unknown key" in f["message"]]


VALIDATOR = """import sys
given, answer, feedback = sys.argv[1:4]
right = open(answer).read().split() == sys.stdin.read().split()
if right:
    open(feedback + "/score.txt", "w").write("7\\n")
sys.exit(42 if right else 43)
"""


@pytest.mark.parametrize(("judge", "severity"), [("kattis", "error"), ("domjudge", "warning")])
def test_score_txt_without_custom_score_is_read_and_named(
    tmp_path: Path, capsys: Capture, judge: str, severity: str
) -> None:
    root = scoring_package(tmp_path / "addtwo")
    write(root, "problem.yaml", "name: Add Two\ntype: scoring\nvalidation: custom\n")
    write(root, "output_validators/validate.py", VALIDATOR)
    remove(root, "submissions/partial/small.py")
    _, problem = run_json(["--judge", judge, "-p", "validators,submissions", str(root)], capsys)
    named = [f for f in problem["findings"] if f["path"] == "problem.yaml"]
    assert [(f["severity"], f.get("convention")) for f in named] == [(severity, "domjudge")]
    assert "score.txt" in named[0]["message"]
    assert not [f for f in problem["findings"] if "judge error" in f["message"]]


def test_domjudge_compares_the_final_verdict_with_the_tag(tmp_path: Path, capsys: Capture) -> None:
    root = scoring_package(tmp_path / "addtwo")
    write(root, "submissions/partial/small.py",
          "# @EXPECTED_RESULTS@: TIMELIMIT\n# @EXPECTED_SCORE@: 10\n" + SMALL_ONLY)  # fmt: skip
    code, problem = run_json(["--judge", "domjudge", "-p", "submissions", str(root)], capsys)
    assert errors(problem) == ["got WA; @EXPECTED_RESULTS@: TIMELIMIT @EXPECTED_SCORE@: 10 "
                               "expects TLE (the final verdict)"] and code == 1  # fmt: skip
