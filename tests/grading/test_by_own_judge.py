"""Grading by a problem's own judge (grading.own_judge), against verifyproblem itself: every
submission of the bundled samples that carry a judge (several right answers, a float
tolerance, two interactive, multi-pass, two scoring) graded as a completion, from the
packages and from the dataset ``kattis2parquet --keep-judges`` makes of them, must get
verifyproblem's verdict (as the status) and score (the reward is it over the maximum)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from problemtools_py.cli.kattis2parquet import main as kattis2parquet
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.own_judge import JudgedProblem
from problemtools_py.grading.problems import _id_of
from problemtools_py.grading.results import STATUS_OF, GradeResult, Settings, Status
from problemtools_py.model import load_problem
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.verdicts import Verdict

SAMPLES = Path(__file__).resolve().parents[2] / "sample_problems"
JUDGED = ("average", "bigsum", "divisor", "guess", "hilo", "subtasks", "twopass")
FENCES = {".py": "python", ".cpp": "cpp", ".c": "c"}
LANGUAGES = Settings(languages=("python3", "cpp", "c"))
Verdicts = dict[str, dict[str, tuple[str, float | None]]]


def _padded(target: Path, name: str) -> None:
    """A copy of a sample with at least the dataset's five tests (its secret cases again,
    under other names), so that kattis2parquet keeps it."""
    shutil.copytree(SAMPLES / name, target)
    secret = sorted((target / "data" / "secret").rglob("*.in"))
    for extra in range(5 - len(list((target / "data").rglob("*.in")))):
        case = secret[extra % len(secret)]
        for ext in (".in", ".ans"):
            shutil.copy(case.with_suffix(ext), case.with_name(f"zz{extra}{ext}"))


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("judged")
    for name in JUDGED:
        _padded(root / name, name)
    return root


@pytest.fixture(scope="module")
def verdicts(packages: Path) -> Verdicts:
    """verifyproblem's verdict and score of every submission (the real executable)."""
    tool = Path(sys.executable).parent / "verifyproblem"
    run = subprocess.run([str(tool), "--json", *(str(packages / n) for n in JUDGED)],
                         capture_output=True, text=True, check=False)  # fmt: skip
    report = json.loads(run.stdout)
    return {Path(p["path"]).name: {s["submission"]: (s["verdict"], s["score"])
                                   for s in p["submissions"]}
            for p in report["problems"]}  # fmt: skip


@pytest.fixture(scope="module")
def dataset(packages: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("data") / "ds"
    names = [str(packages / n) for n in JUDGED]
    assert kattis2parquet([*names, "-o", str(out), "-q", "--keep-judges"]) == 0
    return out


def _completion(package: Path, rel: str) -> str:
    problem = load_problem(package)
    text = (package / rel).read_text(encoding="utf-8")
    for key, value in ({} if problem.legacy else problem.constants).items():
        text = text.replace("{{" + key + "}}", str(value))  # (as the judge substitutes)
    return f"```{FENCES[Path(rel).suffix]}\n{text}\n```"


def _expected(verdict: str, score: float | None) -> tuple[Status, float, float | None]:
    """The status, reward and judge_score verifyproblem's verdict and score make."""
    reward = score / 100 if score is not None else float(verdict == "AC")
    return STATUS_OF[Verdict(verdict)], reward, score


def test_rewards_from_the_packages_agree_with_verifyproblem(
    packages: Path, verdicts: Verdicts
) -> None:
    checked = 0
    with Grader(packages, LANGUAGES, jobs=2) as grader:
        for name in JUDGED:
            pid = _id_of(packages / name)
            for rel, (verdict, score) in sorted(verdicts[name].items()):
                got = grader.grade(pid, _completion(packages / name, rel))
                status, reward, judge_score = _expected(verdict, score)
                assert (got.status, got.judge_score) == (status, judge_score), (name, rel, got)
                assert got.reward == pytest.approx(reward), (name, rel, got)
                checked += 1
    assert checked >= 30


def test_gradecode_on_the_dataset_agrees_with_verifyproblem(
    packages: Path, dataset: Path, verdicts: Verdicts, tmp_path: Path
) -> None:
    """The real gradecode on the rows kattis2parquet --keep-judges made (the expected
    timeouts left out: 4 s each at the dataset's limit; the packages' test has them)."""
    items = [(name, rel, verdict, score) for name in JUDGED
             for rel, (verdict, score) in sorted(verdicts[name].items()) if verdict != "TLE"]  # fmt: skip
    lines = tmp_path / "completions.jsonl"
    lines.write_text("".join(json.dumps({"problem_id": _id_of(packages / name),
                                         "completion": _completion(packages / name, rel)}) + "\n"
                             for name, rel, _, _ in items))  # fmt: skip
    tool = Path(sys.executable).parent / "gradecode"
    run = subprocess.run([str(tool), str(dataset), str(lines), "-j", "2", "-q",
                          "--languages", "python3,cpp,c"], capture_output=True, text=True,
                         check=True)  # fmt: skip
    results = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(results) == len(items) >= 26
    for (name, rel, verdict, score), got in zip(items, results, strict=True):
        status, reward, judge_score = _expected(verdict, score)
        assert (got["status"], got.get("judge_score")) == (status, judge_score), (name, rel, got)
        assert got["reward"] == pytest.approx(reward), (name, rel, got)


BROKEN = """import sys
out = sys.stdin.read().split()
sys.exit(42 if out == ["1"] else 7 if out == ["7"] else 43)
"""


def test_a_judge_that_fails_is_the_graders_side(tmp_path: Path) -> None:
    """A validator exiting with 7 (neither 42 nor 43) is no verdict of the program's."""
    root = tmp_path / "p"
    shutil.copytree(SAMPLES / "divisor", root)
    checker = root / "output_validators" / "divisor_checker" / "checker.py"
    checker.write_text(BROKEN)
    from problemtools_py.grading.compiled import Compiler

    compiler = Compiler(1)
    with SandboxPool(3) as pool:
        judged = JudgedProblem(root, 2.0, pool)
        try:
            results = {}
            for output in ("1", "7", "2"):
                exe = compiler.build(f"print({output})", "python3")
                assert not isinstance(exe, GradeResult)
                results[output] = judged.grade(exe)
        finally:
            judged.close()
            compiler.close()
    assert (results["1"].reward, results["1"].status) == (1.0, Status.OK)
    assert results["7"].reward is None and results["7"].status is Status.JUDGE_ERROR
    assert "7" in results["7"].message
    assert (results["2"].reward, results["2"].status) == (0.0, Status.WRONG_ANSWER)


RIGHT = "```python\nn = int(input())\nprint(next(d for d in range(2, n) if n % d == 0))\n```"


def test_compute_score_and_grade_over_http_use_the_judge(dataset: Path, packages: Path) -> None:
    from grading.test_fusion_client import start, stop

    from problemtools_py import rewards

    divisor, bigsum = _id_of(packages / "divisor"), _id_of(packages / "bigsum")
    got = rewards.compute_score("ds", RIGHT, divisor, dataset=str(dataset))
    assert (got["score"], got["status"]) == (1.0, "ok")
    got = rewards.compute_score("ds", "```python\nprint(1)\n```", divisor,
                                dataset=str(dataset), details=True)  # fmt: skip
    assert (got["score"], got["status"]) == (0.0, "wrong_answer")
    assert "not a proper divisor" in got["message"] and got["judge_score"] is None
    partial = _completion(packages / "bigsum", "submissions/partially_accepted/int32.c")
    got = rewards.compute_score("ds", partial, bigsum, dataset=str(dataset), language="c",
                                details=True)  # fmt: skip
    assert (got["score"], got["judge_score"]) == (pytest.approx(0.3), 30.0)
    proc, url = start(str(dataset))
    try:
        import requests

        answer = requests.post(f"{url}/grade", json=[{"problem_id": divisor, "completion": RIGHT},
                                                     {"problem_id": bigsum, "completion": partial,
                                                      "language": "c"}], timeout=120)  # fmt: skip
        first, second = answer.json()
        assert (first["reward"], first["status"]) == (1.0, "ok")
        assert (second["reward"], second["judge_score"]) == (pytest.approx(0.3), 30.0)
    finally:
        stop(proc)


def _even(case: Path) -> bool:
    n = int(case.read_text())
    return n % 2 == 0 and n > 2  # (2 is a proper divisor of n)


def test_pass_rate_is_over_test_groups_or_cases(packages: Path, tmp_path: Path) -> None:
    """A program printing 2 on divisor: without test groups below data/secret its pass
    rate is the share of the cases with n even; with two groups, the share of the groups
    all of whose cases are. (A scoring problem's reward stays its score.)"""
    flat, grouped = tmp_path / "flat" / "divisor", tmp_path / "grouped" / "divisor"
    shutil.copytree(packages / "divisor", flat)
    shutil.copytree(packages / "divisor", grouped)
    secret = sorted((grouped / "data" / "secret").glob("*.in"))
    halves = (secret[: len(secret) // 2], secret[len(secret) // 2 :])
    groups_even = [all(_even(c) for c in cases) for cases in halves]
    for name, cases in zip("ab", halves, strict=True):
        (grouped / "data" / "secret" / name).mkdir()
        for case in cases:
            for ext in (".in", ".ans"):
                target = grouped / "data" / "secret" / name / f"{case.stem}{ext}"
                case.with_suffix(ext).rename(target)
    every = sorted((flat / "data").rglob("*.in"))
    cases_even = [_even(c) for c in every]
    assert 0 < sum(cases_even) < len(cases_even)
    settings = Settings(reward_mode="pass-rate")
    two = "```python\nprint(2)\n```"
    with Grader(flat.parent, settings, jobs=2) as grader:
        (pid,) = grader.problems.ids()
        assert grader.grade(pid, two).reward == pytest.approx(sum(cases_even) / len(every))
    with Grader(grouped.parent, settings, jobs=2) as grader:
        assert grader.grade(pid, two).reward == pytest.approx(sum(groups_even) / 2)


def test_a_judged_row_given_inline_is_graded_by_its_judge(dataset: Path, packages: Path) -> None:
    """A trainer's row made from judged-<split>.parquet: its tests as ground truth and its
    judge_json in extra_info (or beside the tests for /grade)."""
    from grading.test_fusion_client import start, stop

    from problemtools_py import rewards
    from problemtools_py.dataset import Dataset

    row = Dataset(dataset).problem("train", _id_of(packages / "divisor"))
    assert row is not None and row.judge_json
    info = {"judge_json": row.judge_json, "time_limit": row.time_limit_s}
    assert rewards.compute_score("x", RIGHT, row.tests_json, extra_info=info)["score"] == 1.0
    wrong = rewards.compute_score("x", "```python\nprint(1)\n```", row.tests_json, info)
    assert (wrong["score"], wrong["status"]) == (0.0, "wrong_answer")
    with pytest.raises(rewards.RewardError, match=r"judge_json.*cases must name each"):
        rewards.compute_score("x", RIGHT, [list(row.tests[0])], extra_info=info, on_bad_row="raise")
    proc, url = start()
    try:
        import requests

        item = {"tests": row.tests_json, "judge_json": row.judge_json, "completion": RIGHT}
        answer = requests.post(f"{url}/grade", json=item, timeout=120)
        assert (answer.json()["reward"], answer.json()["status"]) == (1.0, "ok")
        item["tests"] = [list(row.tests[0])]
        answer = requests.post(f"{url}/grade", json=item, timeout=120)
        got = answer.json()  # (flagged in its place: issue 58)
        assert got["status"] == "bad_row" and "cases must name each" in got["message"], got
    finally:
        stop(proc)
