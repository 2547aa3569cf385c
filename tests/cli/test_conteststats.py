"""conteststats: one table for a contest, from the packages and a verification of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from problemtools_py.cli.conteststats import main
from problemtools_py.cli.newcontest import main as newcontest

SAMPLES = Path(__file__).resolve().parents[2] / "sample_problems"
Capture = pytest.CaptureFixture[str]


def test_a_contest_in_one_table(tmp_path: Path, capsys: Capture) -> None:
    contest = tmp_path / "contest"
    assert newcontest([str(contest), "alpha", "beta", "--type", "scoring",
                       "--languages", "python3,cpp"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main([str(contest), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["problems"]
    assert [r["problem"] for r in rows] == ["alpha", "beta"]
    alpha = rows[0]
    assert (alpha["type"], alpha["sample"], alpha["secret"], alpha["groups"]) == ("scoring", 1,
                                                                               6, 2)  # fmt: skip
    assert alpha["submissions"] == {"accepted": 2} and alpha["shortest_accepted_lines"] == 2
    assert alpha["time_limit"] is not None and 0 <= alpha["slowest_accepted"] < 1
    assert (alpha["errors"], alpha["warnings"]) == (0, 0)


def test_claims_and_counts_without_running(capsys: Capture) -> None:
    assert main([str(SAMPLES / "average"), str(SAMPLES / "hello"), "--no-run", "--json"]) == 0
    rows = {r["problem"]: r for r in json.loads(capsys.readouterr().out)["problems"]}
    assert rows["hello"]["submissions"] == {"accepted": 4, "run_time_error": 3,
                                            "time_limit_exceeded": 2, "wrong_answer": 2}  # fmt: skip
    assert rows["average"]["submissions"]["accepted"] == 2  # (claimed by tags in a file)
    assert rows["hello"]["time_limit"] is None and rows["hello"]["slowest_accepted"] is None


def test_the_table_names_every_problem(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main([str(SAMPLES / "hello"), str(SAMPLES / "divisor"), "--no-run"]) == 0
    out = capsys.readouterr().out
    assert "contest statistics" in out and "│ hello" in out and "│ divisor" in out
