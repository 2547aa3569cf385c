"""cli/gradecode.py: the result file is whole or absent, and never lost."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.packages import SAMPLES

from problemtools_py.atomicfile import Pending
from problemtools_py.cli.gradecode import main
from problemtools_py.errors import FatalError


def test_results_that_cannot_be_renamed_stay_and_are_named(tmp_path: Path) -> None:
    """The results of a long grading run go to a hidden partial file, renamed at the end;
    when the rename fails (the output became a directory meanwhile), they are kept there
    and the error says where."""
    target = tmp_path / "results.jsonl"
    partial = Pending(target, suffix=".partial", keep=True)
    partial.tmp.write_text('{"ok": true}\n')
    target.mkdir()
    (target / "x").write_text("")
    with pytest.raises(FatalError) as raised:
        partial.commit()
    assert f"everything is in {partial.tmp}" in str(raised.value)
    assert str(raised.value).startswith(f"{target}: cannot write: ")
    assert partial.tmp.read_text() == '{"ok": true}\n'


def test_the_rename_puts_the_results_in_place_and_only_them(tmp_path: Path) -> None:
    """End to end: --output written whole and nothing beside it; a run refused (an
    unknown id) leaves no file at all."""
    packages = tmp_path / "packages"
    shutil.copytree(SAMPLES / "hello", packages / "hello")
    from problemtools_py.grading.problems import PackagesSource

    (pid,) = PackagesSource(packages, None).ids()
    out = tmp_path / "out"
    out.mkdir()
    bad, good = tmp_path / "bad.jsonl", tmp_path / "good.jsonl"
    bad.write_text(json.dumps({"problem_id": "nope", "completion": "x"}) + "\n")
    good.write_text(json.dumps({"problem_id": pid, "completion": "```python\nprint(1)\n```"}) + "\n")
    assert main([str(packages), str(bad), "-o", str(out / "r.jsonl"), "-q",
                 "--on-bad-row", "raise"]) == 2  # fmt: skip
    assert list(out.iterdir()) == []
    assert main([str(packages), str(good), "-o", str(out / "r.jsonl"), "-q"]) == 0
    assert [p.name for p in out.iterdir()] == ["r.jsonl"]
    assert json.loads((out / "r.jsonl").read_text())["status"] == "wrong_answer"


def test_completions_that_are_not_utf8_are_named_at_their_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Once an internal error (exit 3): the file was decoded as it was iterated."""
    source = tmp_path / "c.jsonl"
    source.write_bytes(b'\n\xff\xfe\n{"problem_id": "x", "completion": "y"}\n')
    assert main([str(SAMPLES), str(source), "--on-bad-row", "raise"]) == 2
    assert capsys.readouterr().err == f"gradecode: error: {source}:2: not UTF-8 (byte 1 of the line)\n"


def test_completions_come_from_standard_input_with_a_dash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``gradecode DATASET -`` reads a pipeline's completions (checked as a file's are)."""
    lines = b'{"problem_id": "nosuch", "completion": "y"}\n'
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(lines)))
    assert main([str(SAMPLES), "-", "--on-bad-row", "raise"]) == 2
    assert "gradecode: error: -:1: no problem with id 'nosuch'" in capsys.readouterr().err


def test_the_command_grades_on_a_directory_of_packages(tmp_path: Path) -> None:
    """The real executable, in its own process (whose sandboxes warm up before the first
    package's references run: there, and only there, they once collided), completions
    from a pipe."""
    packages = tmp_path / "packages"
    shutil.copytree(SAMPLES / "hello", packages / "hello")
    from problemtools_py.grading.problems import PackagesSource

    (pid,) = PackagesSource(packages, None).ids()
    lines = "".join(
        json.dumps({"problem_id": pid, "completion": f"```python\n{code}\n```", "n": n}) + "\n"
        for n, code in enumerate(["print(f'Hello {input()}!')", "print('Hello world!')"])
    )
    command = [str(Path(sys.executable).parent / "gradecode"), str(packages), "-", "-q"]
    done = subprocess.run(command, input=lines, capture_output=True, text=True, timeout=120,
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["n"], r["reward"], r["status"]) for r in results] == [
        (0, 1.0, "ok"), (1, 0.0, "wrong_answer")
    ]  # fmt: skip


def test_the_bad_row_settings_are_the_rewards() -> None:
    """gradecode and gradeserver spell on_bad_row as compute_score does (their own
    tuple: importing rewardargs at parse time would load the grader)."""
    from problemtools_py.cli import gradecode, gradeserver
    from problemtools_py.grading.rewardargs import ON_BAD_ROW

    assert gradecode.ON_BAD_ROW == ON_BAD_ROW
    action = next(a for a in gradeserver.build_parser()._actions if a.dest == "on_bad_row")
    assert tuple(action.choices or ()) == ON_BAD_ROW
