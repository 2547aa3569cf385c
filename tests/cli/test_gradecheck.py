"""cli/gradecheck.py: ``gradecode --check FILE...``, a trainer's data checked before
training (issue 58): each bad row named, exit 1; a clean file exit 0; the configuration's
mistakes exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.trainer_rows import BAD, CASES, verl_rows, write_parquet

from problemtools_py.cli.gradecode import main

Capture = pytest.CaptureFixture[str]


def test_each_bad_row_is_named_with_its_index(tmp_path: Path) -> None:
    """The real executable on the done-when file: one line per bad row, the summary."""
    path = write_parquet(verl_rows(), tmp_path / "train.parquet")
    command = [str(Path(sys.executable).parent / "gradecode"), "--check", str(path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1, done.stderr
    named = [line.split(": ", 2) for line in done.stdout.splitlines()]
    assert [(where, row) for where, row, _ in named] == [(str(path), f"row {i}") for i in BAD]
    assert f"{len(CASES)} rows in 1 file (verl {len(CASES)}), {len(BAD)} cannot be graded" in done.stderr


def test_json_lines_and_a_clean_file(tmp_path: Path, capsys: Capture) -> None:
    rows = verl_rows()
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert main(["--check", str(path), "--json"]) == 1
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["index"] for o in out[:-1]] == BAD
    assert [o["line"] for o in out[:-1]] == [i + 1 for i in BAD]
    summary = out[-1]["summary"]
    assert (summary["rows"], summary["bad"], summary["layouts"]) == (len(rows), len(BAD),
                                                                     {"verl": len(rows)})  # fmt: skip
    good = tmp_path / "good.jsonl"
    good.write_text("".join(json.dumps(rows[i]) + "\n" for i in range(len(rows)) if i not in BAD))
    assert main(["--check", str(good)]) == 0
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kwargs", '{"mdoe": "pass-rate"}'], "--kwargs: unknown keyword argument 'mdoe'; did you mean 'mode'"),
        (["--kwargs", "[1]"], "--kwargs must be a JSON object"),
        (["--kwargs", "{"], "--kwargs is no JSON"),
        (["x.jsonl"], "--check takes data files, not COMPLETIONS.jsonl"),
    ],
)
def test_the_configurations_mistakes_are_usage_errors(
    tmp_path: Path, capsys: Capture, args: list[str], message: str
) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(verl_rows()[0]) + "\n")
    positional = [str(tmp_path), *args] if args == ["x.jsonl"] else []
    flags = [] if positional else args
    assert main([*positional, "--check", str(path), *flags]) == 2
    assert message in capsys.readouterr().err


def test_a_missing_file_and_no_arguments(tmp_path: Path, capsys: Capture) -> None:
    assert main(["--check", str(tmp_path / "nope.parquet")]) == 2
    assert f"{tmp_path / 'nope.parquet'}: no such file" in capsys.readouterr().err
    assert main([]) == 2
    assert "give DATASET and COMPLETIONS.jsonl (or --check FILE...)" in capsys.readouterr().err
