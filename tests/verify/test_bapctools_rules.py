"""--judge bapctools: where the format's text leaves the judging open and bt run judges
otherwise than problemtools. An interactive submission that closes its output and then
sleeps (BAPCtools' test problem guess has one in time_limit_exceeded/): bt's relay
tells the validator the output ended only when the submission ends, as problemtools'
interactive.cc does (it keeps its copy of the pipe open until then), so the validator
waits and the submission runs out of time (TLE) by both; DOMjudge's runpipe passes the
end on at once and the validator rejects first (WA). One whose output the validator
rejects and that then spins (guess's wrong_answer/guess_tle.cc) is stopped at the
rejection: WA by all three."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.builders import write

from problemtools_py.cli.verifyproblem import main

Capture = pytest.CaptureFixture[str]
CLOSES = "import os, time\nos.close(1)\ntime.sleep(60)\n"
SPINS = "print('x', flush=True)\nwhile True:\n    pass\n"


def _guess_verdict(copy_sample: Callable[..., Path], capsys: Capture, judge: str,
                   where: str, program: str) -> tuple[str, int]:  # fmt: skip
    """``program`` saved as guess's ``submissions/<where>``, judged on secret/1 alone:
    its verdict and the exit code."""
    root = copy_sample("guess")
    write(root, f"submissions/{where}", program)
    name = where.rsplit("/", 1)[-1]
    code = main(["--json", "-j", "2", "--judge", judge, "-p", "submissions", "-t", "1",
                 "-s", name.split(".")[0], "-d", "secret/1$", str(root)])  # fmt: skip
    problem = json.loads(capsys.readouterr().out)["problems"][0]
    rows = {r["submission"].rsplit("/", 1)[-1]: r["verdict"] for r in problem["submissions"]}
    assert set(rows) == {name}
    return rows[name], code


@pytest.mark.parametrize(
    ("judge", "verdict"), [("kattis", "TLE"), ("bapctools", "TLE"), ("domjudge", "WA")]
)
def test_a_rejection_first_then_sleeping_past_the_limit(
    copy_sample: Callable[..., Path], capsys: Capture, judge: str, verdict: str
) -> None:
    got = _guess_verdict(copy_sample, capsys, judge, "time_limit_exceeded/closes.py", CLOSES)
    assert got == (verdict, 1 if verdict == "WA" else 0)


@pytest.mark.parametrize("judge", ["kattis", "bapctools", "domjudge"])
def test_a_rejection_first_then_spinning_is_wa(
    copy_sample: Callable[..., Path], capsys: Capture, judge: str
) -> None:
    got = _guess_verdict(copy_sample, capsys, judge, "wrong_answer/spins.py", SPINS)
    assert got == ("WA", 0)


RIGHT = "input()\nprint(sum(map(int, input().split())))\n"
WRONG = "print(0)\n"
FLOOD = "while True:\n    print('x' * 1000)\n"


@pytest.mark.parametrize("judge", ["kattis", "bapctools"])
def test_bt_runs_programs_as_bt_finds_them(
    copy_sample: Callable[..., Path], capsys: Capture, judge: str
) -> None:
    """BAPCtools' own CI problems (hello, different): a directory ending in .disabled is
    left out, a program of two Python files without main.py runs its first, a program
    flooding its output runs out of time (bt sets no output limit; problemtools none on a
    run, and compares the output's size after it: TLE by both)."""
    root = copy_sample("gensum")
    write(root, "submissions/accepted/off.disabled/main.py", WRONG)
    write(root, "submissions/accepted/pair/a.py", RIGHT)
    write(root, "submissions/accepted/pair/b.py", WRONG)
    write(root, "submissions/time_limit_exceeded/flood.py", FLOOD)
    main(["--json", "-j", "2", "--judge", judge, "-p", "submissions", "-t", "1",
          "-d", "sample", str(root)])  # fmt: skip
    problem = json.loads(capsys.readouterr().out)["problems"][0]
    rows = {r["submission"].split("submissions/", 1)[-1]: r["verdict"]
            for r in problem["submissions"]}  # fmt: skip
    if judge == "kattis":
        assert rows["accepted/off.disabled"] == "WA" and rows["time_limit_exceeded/flood.py"] == "TLE"
        assert rows["accepted/pair"] == "CE"
    else:
        assert "accepted/off.disabled" not in rows and rows["accepted/pair"] == "AC"
        assert rows["time_limit_exceeded/flood.py"] == "TLE"
        errors = [f["message"] for f in problem["findings"] if f["severity"] == "error"]
        assert errors == []


@pytest.mark.parametrize(("judge", "severity"), [("kattis", "error"), ("bapctools", "warning")])
def test_an_empty_secret_is_bts_extension(
    copy_sample: Callable[..., Path], capsys: Capture, judge: str, severity: str
) -> None:
    root = copy_sample("gensum")
    for case in (root / "data" / "secret").iterdir():
        case.unlink()
    (root / "generators").rename(root / "generators_off")  # (data as it is, not remade)
    main(["--json", "--judge", judge, "-p", "config,data", "--no-run", str(root)])
    problem = json.loads(capsys.readouterr().out)["problems"][0]
    found = [f for f in problem["findings"] if f["path"] == "data/secret"]
    assert [(f["severity"], f.get("convention")) for f in found] == [(severity, "bapctools")]


@pytest.mark.parametrize(("judge", "severity"), [("kattis", "error"), ("bapctools", "warning")])
def test_bts_group_layout_is_its_extension(
    copy_sample: Callable[..., Path], capsys: Capture, judge: str, severity: str
) -> None:
    """divsort: a directory of data/secret without test_group.yaml beside groups, and a
    group inside a group (bt run takes every directory as a group)."""
    root = copy_sample("subtasks")
    write(root, "data/secret/3-plain/01.in", "1\n5\n")
    write(root, "data/secret/3-plain/01.ans", "5\n")
    write(root, "data/secret/2-large/inner/test_group.yaml", "{}\n")
    write(root, "data/secret/2-large/inner/01.in", "1\n7\n")
    write(root, "data/secret/2-large/inner/01.ans", "7\n")
    main(["--json", "--judge", judge, "-p", "config,data", "--no-run", str(root)])
    problem = json.loads(capsys.readouterr().out)["problems"][0]
    named = {f["path"]: f["severity"] for f in problem["findings"]
             if f.get("convention") == "bapctools"}  # fmt: skip
    assert named == {"data/secret/3-plain": severity,
                     "data/secret/2-large/inner/test_group.yaml": severity}  # fmt: skip


@pytest.mark.parametrize(("judge", "severity"), [("kattis", "error"), ("bapctools", "warning")])
def test_what_bt_run_judges_without(
    copy_sample: Callable[..., Path], capsys: Capture, judge: str, severity: str
) -> None:
    """hellounix and testexpectations, in BAPCtools' CI: no data/secret, no accepted
    submission, no input validator (DOMjudge accepts that too)."""
    import shutil

    root = copy_sample("gensum")
    for gone in ("data/secret", "generators", "input_validators", "submissions/accepted"):
        shutil.rmtree(root / gone)
    main(["--json", "--judge", judge, "-p", "config,data,validators,submissions", "--no-run",
          str(root)])  # fmt: skip
    problem = json.loads(capsys.readouterr().out)["problems"][0]
    named = {f["path"]: (f["severity"], f["convention"]) for f in problem["findings"]
             if "bapctools" in (f.get("convention") or "")}  # fmt: skip
    assert named == {"data/secret": (severity, "bapctools,domjudge"),
                     "submissions/accepted": (severity, "bapctools"),
                     "input_validators": (severity, "domjudge,bapctools")}  # fmt: skip


@pytest.mark.parametrize(("judge", "verdict"), [("kattis", "AC"), ("bapctools", "RTE")])
def test_bt_reads_a_submission_as_written(
    copy_sample: Callable[..., Path], capsys: Capture, judge: str, verdict: str
) -> None:
    """The 2025-09 text substitutes constants in example submissions; bt run does not
    (BAPCtools' constants problem: wrong_answer/constant_in_submission.py)."""
    root = copy_sample("gensum")
    config = root / "problem.yaml"
    config.write_text(config.read_text() + "constants:\n  ZERO: 0\n")
    write(root, "submissions/accepted/const.py",
          "input()\nprint(sum(map(int, input().split())) + {{ZERO}})\n")  # fmt: skip
    main(["--json", "--judge", judge, "-p", "submissions", "-s", "const", "-d", "sample",
          str(root)])  # fmt: skip
    problem = json.loads(capsys.readouterr().out)["problems"][0]
    rows = {r["submission"].rsplit("/", 1)[-1]: r["verdict"] for r in problem["submissions"]}
    assert rows == {"const.py": verdict}


@pytest.mark.parametrize(("judge", "severity"), [("kattis", "error"), ("bapctools", "warning")])
def test_a_link_to_bapctools_own_header_is_its_extension(
    copy_sample: Callable[..., Path], capsys: Capture, judge: str, severity: str
) -> None:
    """constants and alternativeencryption link validation.h from BAPCtools' checkout."""
    import os

    root = copy_sample("gensum")
    headers = root.parent / "bapctools" / "resources" / "headers"
    headers.mkdir(parents=True)
    (headers / "validation.h").write_text("#pragma once\n")
    link = root / "input_validators" / "validation.h"
    link.symlink_to(os.path.relpath(headers / "validation.h", link.parent))
    main(["--json", "--judge", judge, "-p", "config", "--no-run", str(root)])
    problem = json.loads(capsys.readouterr().out)["problems"][0]
    found = [(f["severity"], f.get("convention")) for f in problem["findings"]
             if f["check"] == "symlink"]  # fmt: skip
    assert found == [(severity, "bapctools")]
