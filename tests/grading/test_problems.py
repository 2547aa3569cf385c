"""grading/problems.py: a directory of packages is graded on exactly the rows kattis2parquet
makes of them, so a problem gets one reward whichever way it is given."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers.packages import SAMPLES

from problemtools_py.cli.kattis2parquet import main as kattis2parquet
from problemtools_py.dataset.reader import Dataset
from problemtools_py.errors import FatalError
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.problems import DatasetSource, PackagesSource
from problemtools_py.grading.results import Status
from problemtools_py.sandbox.pool import SandboxPool


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("packages")
    shutil.copytree(SAMPLES / "hello", root / "hello")
    (root / "hello" / ".timelimit").write_text("")  # empty: it fixes nothing
    shutil.copytree(SAMPLES / "divisor", root / "divisor")
    return root


def test_a_package_is_graded_on_its_kattis2parquet_row(packages: Path, tmp_path: Path) -> None:
    assert kattis2parquet([str(packages / "hello"), "-o", str(tmp_path / "data"), "-q"]) == 0
    from_dataset = DatasetSource(Dataset(tmp_path / "data"))
    with SandboxPool(2) as pool:
        source = PackagesSource(packages, pool)
        (pid,) = from_dataset.ids()
        assert pid in source.ids()
        found = source.fetch(pid)
    assert found is not None and found == from_dataset.fetch(pid)
    assert found.time_limit == 4.0 and len(found.tests) == 6  # 4 x 1 s; before, 1 s and every test
    assert found.judge_json == ""  # (the comparator judges it)


def test_a_package_with_its_own_judge_is_graded_by_it(packages: Path) -> None:
    """divisor has several right answers (any proper divisor): kattis2parquet left it out
    and it had no reward; now its validator judges."""
    with Grader(packages, jobs=1) as grader:
        divisor = next(pid for pid, path in grader.problems.paths.items()  # type: ignore[attr-defined]
                       if path.name == "divisor")
        wrong = grader.grade(divisor, "```python\nprint(1)\n```")
        assert (wrong.reward, wrong.status) == (0.0, "wrong_answer")
        assert "not a proper divisor" in wrong.message
        smallest = "n = int(input())\nprint(next(d for d in range(2, n) if n % d == 0))"
        right = grader.grade(divisor, f"```python\n{smallest}\n```")
        assert (right.reward, right.status) == (1.0, "ok")


def test_a_package_kattis2parquet_leaves_out_has_no_reward(packages: Path, tmp_path: Path) -> None:
    shutil.copytree(packages / "hello", tmp_path / "hello")
    (tmp_path / "hello" / "submissions" / "accepted").rename(tmp_path / "hello" / "gone")
    with Grader(tmp_path, jobs=1) as grader:
        (hello,) = grader.problems.ids()
        found = grader.grade(hello, "```python\nprint(1)\n```")
        again = grader.grade(hello, "```python\nprint(2)\n```")  # (converted once)
    assert (found.reward, found.status) == (None, Status.UNKNOWN_PROBLEM)
    assert "kattis2parquet leaves this package out (no passing Python 3 reference" in found.message
    assert again.message == found.message
    with Grader(tmp_path, jobs=1) as grader, pytest.raises(FatalError, match="no problem"):
        grader.grade("0123456789abcdef", "```python\nprint(1)\n```")  # (the caller's error)


def test_gradecode_grades_the_other_packages_beside_one_it_cannot(
    packages: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 60: `gradecode DIR_OF_PACKAGES` stopped the whole batch on one package that
    cannot be converted; its lines are now unknown_problem (no reward), the rest graded."""
    import json

    from problemtools_py.cli.gradecode import main as gradecode

    root = tmp_path / "pkgs"
    shutil.copytree(packages / "hello", root / "hello")
    shutil.copytree(packages / "hello", root / "broken")
    (root / "broken" / "submissions" / "accepted").rename(root / "broken" / "gone")
    (root / "broken" / "problem_statement" / "problem.en.tex").write_text(
        "\\problemname{Broken}\nSay hello to someone else.\n"
    )
    with Grader(root, jobs=1) as grader:
        ids = sorted(grader.problems.ids())
    good = "```python\nprint(f'Hello {input()}!')\n```"
    lines = [{"problem_id": pid, "completion": good, "n": n} for n, pid in enumerate(ids * 2)]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert gradecode([str(root), str(tmp_path / "in.jsonl"), "-q"]) == 1
    got = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [g["n"] for g in got] == [0, 1, 2, 3]
    statuses = {g["problem_id"]: g["status"] for g in got}
    assert sorted(statuses.values()) == ["ok", "unknown_problem"]


def test_a_package_graded_after_the_grader_is_warm_runs_its_references_aside(
    packages: Path,
) -> None:
    """The references run to make a package's row need sandboxes of their own: the
    grader's keep a lean session open between completions, and a run asked of one fails
    ("this session takes its runs on its direct line"), which once made every package
    "left out by kattis2parquet" in gradecode's own process, whose sandboxes warm first."""
    with Grader(packages, jobs=2) as grader:
        grader._warmed()
        hello = next(pid for pid, path in grader.problems.paths.items()  # type: ignore[attr-defined]
                     if path.name == "hello")  # fmt: skip
        result = grader.grade(hello, "```python\nprint(f'Hello {input()}!')\n```")
    assert (result.reward, result.status) == (1.0, "ok")


def test_compute_score_flags_a_row_whose_package_has_no_reward(packages: Path,
                                                                tmp_path: Path) -> None:
    from problemtools_py import rewards

    shutil.copytree(packages / "hello", tmp_path / "hello")
    (tmp_path / "hello" / "submissions" / "accepted").rename(tmp_path / "hello" / "gone")
    with Grader(tmp_path, jobs=1) as grader:
        (hello,) = grader.problems.ids()
    got = rewards.compute_score("x", "```python\nprint(1)\n```", hello, None,
                                dataset=str(tmp_path), details=True)  # fmt: skip
    assert (got["status"], got["infra_error"]) == ("bad_row", True), got
    assert "kattis2parquet leaves this package out" in got["message"]
