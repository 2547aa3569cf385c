"""verify/selection.py: a -s or -d pattern that matches nothing in a package is said,
once, where the parts run would have used it; one that matches, or one no chosen part
uses, says nothing."""

from __future__ import annotations

import json

import pytest
from helpers.packages import SAMPLES

from problemtools_py.cli.verifyproblem import main

AVERAGE = str(SAMPLES / "average")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["-s", "zzz", "-p", "submissions"], ["submissions: -s 'zzz' matches no submission"]),
        (["-d", "zzz", "-p", "validators"], ["data: -d 'zzz' matches no test case"]),
        (
            ["-s", "zzz", "-d", "zzz", "-p", "validators,submissions"],
            ["submissions: -s 'zzz' matches", "data: -d 'zzz' matches"],
        ),
        (["-s", "mean", "-d", "secret/", "-p", "validators,submissions"], []),
        (["-s", "zzz", "-p", "validators"], []),  # (no submission is judged in that part)
        (["-s", "zzz", "-d", "zzz", "-p", "config,data"], []),  # (nothing runs)
        (["-s", "zzz", "-d", "zzz", "--no-run"], []),
    ],
)
def test_a_filter_that_matches_nothing_is_said(
    args: list[str], expected: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["--json", *args, AVERAGE])
    findings = json.loads(capsys.readouterr().out)["problems"][0]["findings"]
    said = [f"{f['path']}: {f['message']}" for f in findings]
    assert code == 0, said
    assert len(said) == len(expected), said
    for line, start in zip(said, expected, strict=True):
        assert line.startswith(start), said
    assert all(f["check"] == "filter" and f["severity"] == "warning" for f in findings)
