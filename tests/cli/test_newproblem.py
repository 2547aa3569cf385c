"""newproblem and newcontest end to end: what they write verifies with no error and no
warning (the real verifyproblem, every part run), in each type and format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from problemtools_py.cli.newcontest import main as newcontest
from problemtools_py.cli.newproblem import main as newproblem
from problemtools_py.cli.verifyproblem import main as verify

Capture = pytest.CaptureFixture[str]


def _clean(paths: list[Path], capsys: Capture) -> None:
    capsys.readouterr()
    assert verify(["--json", *map(str, paths)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["errors"], report["warnings"]) == (0, 0), report


@pytest.mark.parametrize("kind", ["pass-fail", "scoring", "interactive", "multi-pass"])
def test_each_type_verifies_clean(kind: str, tmp_path: Path, capsys: Capture) -> None:
    assert newproblem(["sum", "-d", str(tmp_path), "--type", kind, "--author", "Ada",
                       "--languages", "python3,cpp,java", "--json"]) == 0  # fmt: skip
    made = json.loads(capsys.readouterr().out)
    assert made["created"] == [str(tmp_path / "sum")]
    config = yaml.safe_load((tmp_path / "sum" / "problem.yaml").read_text())
    assert config["type"] == kind and config["credits"] == {"authors": "Ada"}
    _clean([tmp_path / "sum"], capsys)


@pytest.mark.parametrize("kind", ["pass-fail", "interactive"])
def test_legacy_verifies_clean(kind: str, tmp_path: Path, capsys: Capture) -> None:
    assert newproblem(["old", "-d", str(tmp_path), "--type", kind, "--format", "legacy"]) == 0
    assert not (tmp_path / "old" / "generators").exists()  # (legacy has none)
    _clean([tmp_path / "old"], capsys)


def test_a_contest_of_new_problems(tmp_path: Path, capsys: Capture) -> None:
    root = tmp_path / "contest"
    assert newcontest([str(root), "alpha", "beta", "--title", "Spring"]) == 0
    assert yaml.safe_load((root / "contest.yaml").read_text())["name"] == "Spring"
    problems = yaml.safe_load((root / "problems.yaml").read_text())
    assert [(p["id"], p["label"]) for p in problems] == [("alpha", "A"), ("beta", "B")]
    _clean([root / "alpha", root / "beta"], capsys)


def test_a_bad_name_is_a_usage_error(tmp_path: Path, capsys: Capture) -> None:
    assert newproblem(["No Such", "-d", str(tmp_path)]) == 2
    assert "lower-case letters and digits" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
