"""--judge bapctools: where the format's text leaves the judging open and bt run judges
otherwise than problemtools. An interactive submission that closes its output and then
sleeps (BAPCtools' test problem guess has one in time_limit_exceeded/): the validator
rejects first; problemtools (and we, by default) say WA and stop it, bt lets it run on
and says TLE."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.builders import write

from problemtools_py.cli.verifyproblem import main

Capture = pytest.CaptureFixture[str]
CLOSES = "import os, time\nos.close(1)\ntime.sleep(60)\n"


@pytest.mark.parametrize(("judge", "verdict"), [("kattis", "WA"), ("bapctools", "TLE")])
def test_a_rejection_first_then_sleeping_past_the_limit(
    copy_sample: Callable[..., Path], capsys: Capture, judge: str, verdict: str
) -> None:
    root = copy_sample("guess")
    write(root, "submissions/time_limit_exceeded/closes.py", CLOSES)
    code = main(["--json", "-j", "2", "--judge", judge, "-p", "submissions", "-t", "1",
                 "-s", "closes", "-d", "secret/1$", str(root)])  # fmt: skip
    problem = json.loads(capsys.readouterr().out)["problems"][0]
    rows = {r["submission"].rsplit("/", 1)[-1]: r["verdict"] for r in problem["submissions"]}
    assert rows == {"closes.py": verdict}
    assert code == (1 if verdict == "WA" else 0)


@pytest.mark.parametrize(("judge", "severity"), [("kattis", "error"), ("bapctools", "warning")])
def test_bapctools_data_extensions_are_named(
    copy_sample: Callable[..., Path], capsys: Capture, judge: str, severity: str
) -> None:
    """answer_validator_args in a test_group.yaml and .out files in data/invalid_answer/
    (what bt generate writes for its answer validators: not in the 2025-09 text)."""
    root = copy_sample("gensum")
    write(root, "data/invalid_answer/test_group.yaml", "answer_validator_args: [strict]\n")
    for ext, text in ((".in", "1\n5\n"), (".ans", "x\n"), (".out", "5\n")):
        write(root, f"data/invalid_answer/letter{ext}", text)
    code = main(["--json", "--judge", judge, "-p", "config,data", "--no-run", str(root)])
    problem = json.loads(capsys.readouterr().out)["problems"][0]
    named = {f["path"]: f["severity"] for f in problem["findings"]
             if f.get("convention") == "bapctools"}  # fmt: skip
    assert named == {"data/invalid_answer/test_group.yaml": severity,
                     "data/invalid_answer/letter.out": severity}  # fmt: skip
    others = [f for f in problem["findings"] if f["severity"] == "error" and not f.get("convention")]
    assert others == [] and code == (1 if severity == "error" else 0)
