"""The bundled sample packages are clean, through the real command line."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from helpers.packages import SAMPLE_NAMES, SAMPLES, describe, verify

from problemtools_py.cli.verifyproblem import main
from problemtools_py.model import FormatVersion, load_problem
from problemtools_py.resources import load_schema


def test_there_are_enough_samples() -> None:
    assert len(SAMPLE_NAMES) >= 5
    versions = {load_problem(SAMPLES / n).format for n in SAMPLE_NAMES}
    assert versions == {FormatVersion.LEGACY, FormatVersion.V2023_07, FormatVersion.V2025_09}


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_sample_has_no_findings(name: str) -> None:
    report = verify(SAMPLES / name)
    assert report.findings == [], describe(report)


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_cli_on_sample_exits_clean(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--no-run", str(SAMPLES / name)]) == 0
    out = capsys.readouterr().out
    assert f"{name}: 0 errors, 0 warnings" in out


def test_json_report_matches_its_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--json", "--no-run", *[str(SAMPLES / n) for n in SAMPLE_NAMES]]) == 0
    report = json.loads(capsys.readouterr().out)
    jsonschema.validate(report, load_schema("report"))
    assert [p["name"] for p in report["problems"]] == SAMPLE_NAMES
    assert report["exit_code"] == 0


def test_json_report_of_broken_package(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "broken"
    (root / "data").mkdir(parents=True)
    (root / "problem.yaml").write_text("license: cc by\nlimits:\n  memory: lots\n")
    assert main(["--json", "--no-run", str(root)]) == 1
    report = json.loads(capsys.readouterr().out)
    jsonschema.validate(report, load_schema("report"))
    findings = report["problems"][0]["findings"]
    memory = [f for f in findings if "limits.memory" in f["message"]]
    assert memory == [{"severity": "error", "check": "problem-yaml", "path": "problem.yaml",
                       "line": 3, "message": "limits.memory: 'lots' is not of type 'integer'"}]
