"""--python: Python programs run by another interpreter or virtual environment (with its
own packages), under the same isolation, in verifyproblem, the grader and compute_score;
by default they see the standard library only, and say why a module is missing. The
environment is made here (no network): a venv whose site-packages holds a module."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.packages import SAMPLES

from problemtools_py import rewards
from problemtools_py.errors import FatalError
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.results import Settings
from problemtools_py.judge.interpreter import PLACE, find
from problemtools_py.rewards import RewardError, compute_score
from problemtools_py.sandbox.launch import server_python

BIN = Path(sys.executable).parent
USES = "import extra\nprint(extra.greet(input().strip()))\n"


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment (in /tmp: scratch space in a jail) with the module 'extra'."""
    root = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([server_python(), "-m", "venv", "--without-pip", str(root)], check=True)
    (site,) = root.glob("lib/python3*/site-packages")
    (site / "extra.py").write_text("def greet(name):\n    return f'Hello {name}!'\n")
    return root


def test_an_environment_is_bound_where_a_jail_keeps_it(venv: Path) -> None:
    python = find(str(venv))
    assert python.executable == PLACE + str(venv / "bin" / "python3")
    assert (str(venv), PLACE + str(venv)) in python.binds  # (its installation: /usr, shown)


@pytest.mark.parametrize("path", ["/no/such/python", str(SAMPLES / "hello")])
def test_a_path_that_is_no_python_is_a_usage_error(path: str) -> None:
    with pytest.raises(FatalError, match=r"--python .*: no Python interpreter there"):
        find(path)


def test_verifyproblem_runs_python_with_the_environment(tmp_path: Path, venv: Path) -> None:
    root = tmp_path / "hello"
    shutil.copytree(SAMPLES / "hello", root)
    (root / "submissions/accepted/uses_extra.py").write_text(USES)

    def verify(*options: str) -> tuple[int, dict]:  # type: ignore[type-arg]
        done = subprocess.run([str(BIN / "verifyproblem"), "--json", "-p", "submissions",
                               *options, str(root)], capture_output=True, text=True, check=False)  # fmt: skip
        return done.returncode, json.loads(done.stdout)["problems"][0]

    code, report = verify("--python", str(venv))
    assert (code, report["findings"]) == (0, [])
    code, report = verify()
    (finding,) = report["findings"]
    assert code == 1 and "ModuleNotFoundError: No module named 'extra'" in finding["message"]


def test_the_grader_and_compute_score_run_python_with_the_environment(venv: Path) -> None:
    tests = (("Ada\n", "Hello Ada!\n"),)
    with Grader(None, Settings(raw=True, python=str(venv))) as grader:
        assert grader.grade_tests(tests, 2.0, USES).status == "ok"
    with Grader(None, Settings(raw=True)) as grader:
        plain = grader.grade_tests(tests, 2.0, USES)
    assert plain.status == "runtime_error" and "No module named 'extra'" in plain.message
    completion = f"```python\n{USES}```"
    try:
        assert compute_score("x", completion, [list(tests[0])], python=str(venv))["score"] == 1.0
        with pytest.raises(RewardError, match="python= /nope: no Python interpreter"):
            compute_score("x", completion, [list(tests[0])], python="/nope", on_bad_row="raise")
    finally:
        rewards.close()  # (its graders, kept for the process, would outlive the test)


def test_gradecode_refuses_a_python_that_is_none_before_any_work(tmp_path: Path) -> None:
    lines = tmp_path / "c.jsonl"
    lines.write_text('{"problem_id": "x", "completion": "print(1)"}\n')
    done = subprocess.run([str(BIN / "gradecode"), str(SAMPLES), str(lines), "--python",
                           "/no/such"], capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 2 and "--python /no/such: no Python interpreter" in done.stderr
