"""attachments/testing_tool* run as bt check_testing_tool runs it (verify.testing_tool):
with every accepted submission on each sample, a tool that fails where the validator
accepts is named, once per submission; a good one (newproblem's) passes in silence."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from problemtools_py.cli.newproblem import main as newproblem
from problemtools_py.cli.verifyproblem import main as verify

Capture = pytest.CaptureFixture[str]


@pytest.fixture(scope="module")
def guess(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("made")
    assert newproblem(["guess", "-d", str(root), "--type", "interactive",
                       "--languages", "python3,cpp,java"]) == 0  # fmt: skip
    return root / "guess"


def _findings(root: Path, capsys: Capture) -> list[dict[str, object]]:
    capsys.readouterr()
    verify(["--json", "-p", "submissions", str(root)])
    found: list[dict[str, object]] = json.loads(capsys.readouterr().out)["problems"][0]["findings"]
    return found


def test_a_tool_that_answers_the_wrong_way_is_named(guess: Path, tmp_path: Path,
                                                    capsys: Capture) -> None:  # fmt: skip
    root = shutil.copytree(guess, tmp_path / "guess")
    tool = root / "attachments" / "testing_tool.py"
    tool.write_text(tool.read_text().replace('"lower" if secret < query else "higher"',
                                             '"higher" if secret < query else "lower"'))  # fmt: skip
    found = _findings(root, capsys)
    assert {f["check"] for f in found} == {"testing-tool"} and len(found) == 3
    assert all("which the output validator accepts, on sample/1: exit code 1: not found "
               "within 10 queries" in str(f["message"]) for f in found)  # fmt: skip


def test_a_good_tool_and_every_language_pass(guess: Path, capsys: Capture) -> None:
    assert _findings(guess, capsys) == []  # (Java's options reach the JVM, not the tool)
