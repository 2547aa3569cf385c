"""cli/options.py's check_output: every command that writes refuses, before any work,
a place it cannot write (a usage error saying why), and leaves nothing behind."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from helpers.packages import SAMPLES

AVERAGE = str(SAMPLES / "average")

# (command, its arguments with {file} a regular file and {dir} a directory, the message)
CASES = [
    ("problem2html", ["-d", "{file}", AVERAGE], "-d {file}: not a directory"),
    ("problem2html", ["-d", "{file}/x", AVERAGE], "-d {file}/x: {file} is not a directory"),
    ("problem2pdf", ["-o", "{dir}", AVERAGE], "-o {dir}: is a directory; give a file name"),
    ("problem2pdf", ["-o", "{file}/x.pdf", AVERAGE], "{file} is not a directory"),
    ("problem2zip", ["-o", "{file}", AVERAGE], "-o {file}: not a directory"),
    ("problem2zip", ["-o", "{file}/x.zip", AVERAGE], "{file} is not a directory"),
    ("upgradeproblem", ["-o", "{file}", AVERAGE], "-o {file}: not a directory"),
    ("kattis2parquet", [AVERAGE, "-o", "{file}/x"], "-o {file}/x: {file} is not a directory"),
    ("parquet2kattis", ["{dir}", "{file}"], "OUT_DIR {file}: not a directory"),
    ("gradecode", ["-o", "{dir}", AVERAGE, "{file}"], "-o {dir}: is a directory"),
    ("gradecode", ["-o", "{file}/r.jsonl", AVERAGE, "{file}"], "{file} is not a directory"),
    ("verifyproblem", ["--report", "{dir}", AVERAGE], "--report {dir}: is a directory"),
]


@pytest.mark.parametrize(("command", "argv", "message"), CASES)
def test_a_place_it_cannot_write_is_a_usage_error_at_once(
    command: str, argv: list[str], message: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    place = tmp_path / "out"
    place.mkdir()
    (place / "file").write_text("")
    names = {"file": str(place / "file"), "dir": str(place)}
    module = __import__(f"problemtools_py.cli.{command}", fromlist=["main"])
    assert module.main([arg.format(**names) for arg in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{command}: error: ") and message.format(**names) in err, err
    assert os.listdir(place) == ["file"]  # (nothing written, nothing half-written)


def test_a_directory_of_packages_means_the_packages_in_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A contest's directory (no problem.yaml, every version requires one; packages
    below): each package in it, in name order, said on stderr. A directory with neither
    is still taken as a package (and its missing problem.yaml reported)."""
    from problemtools_py.cli.verifyproblem import main

    contest, empty = tmp_path / "contest", tmp_path / "empty"
    for name in ("hello", "average"):
        shutil.copytree(SAMPLES / name, contest / name)
    (contest / "notes").mkdir()
    empty.mkdir()
    assert main(["--json", "-p", "config", str(contest), str(empty)]) == 1
    out, err = capsys.readouterr()
    problems = json.loads(out)["problems"]
    assert [p["path"] for p in problems] == [str(contest / "average"), str(contest / "hello"),
                                             str(empty)]  # fmt: skip
    assert [p["errors"] for p in problems] == [0, 0, 1]
    assert err == (f"verifyproblem: {contest} is no package (no problem.yaml); taking the 2 "
                   "in it: average, hello\n")  # fmt: skip


def test_a_command_may_take_only_the_inner_packages_that_have_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """generatedata on a contest: the packages with generators.yaml (the others have
    nothing to make); a package named alone is taken as given."""
    from problemtools_py.cli.options import packages_in

    contest = tmp_path / "contest"
    for name in ("gensum", "hello"):
        shutil.copytree(SAMPLES / name, contest / name)
    having = "generators/generators.yaml"
    assert packages_in([contest], "x", having) == [contest / "gensum"]
    assert capsys.readouterr().err == (f"x: {contest} is no package (no problem.yaml); taking "
                                       f"the 1 of 2 with {having} in it: gensum\n")  # fmt: skip
    assert packages_in([contest / "hello"], "x", having) == [contest / "hello"]
    (contest / "gensum" / having).unlink()
    assert packages_in([contest], "x", having) == []
    assert "taking the 0 of 2 with" in capsys.readouterr().err
