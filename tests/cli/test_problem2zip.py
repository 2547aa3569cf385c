"""problem2zip on copies of the samples: reproducible, verified after writing, samples
as contestants download them, and hostile packages refused naming the file."""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import SAMPLES

from problemtools_py.cli.problem2zip import main

Capture = pytest.CaptureFixture[str]


def test_a_zip_built_twice_is_byte_identical_and_verifies(tmp_path: Path,
                                                           capsys: Capture) -> None:
    for name in ("a", "b"):
        out = tmp_path / name / "subtasks.zip"
        assert main([str(SAMPLES / "subtasks"), "-o", str(out)]) == 0
    assert (tmp_path / "a/subtasks.zip").read_bytes() == (tmp_path / "b/subtasks.zip").read_bytes()
    assert "subtasks: 0 errors, 0 warnings" in capsys.readouterr().out
    with zipfile.ZipFile(tmp_path / "a/subtasks.zip") as archive:
        names = archive.namelist()
    assert "subtasks/problem.yaml" in names and all(n.startswith("subtasks/") for n in names)


def test_auxiliary_files_are_left_out(copy_sample: Callable[..., Path], tmp_path: Path) -> None:
    root = copy_sample("subtasks")
    (root / "data/secret/.gitkeep").write_text("")
    assert main([str(root), "-o", str(tmp_path / "subtasks.zip"), "-q"]) == 0
    with zipfile.ZipFile(tmp_path / "subtasks.zip") as archive:
        assert not any(".gitkeep" in n for n in archive.namelist())


def test_the_samples_zip_has_what_contestants_download(tmp_path: Path) -> None:
    out = tmp_path / "samples"
    assert main([str(SAMPLES / "hilo"), str(SAMPLES / "subtasks"), "-o", str(out),
                 "--samples", "-q"]) == 0
    with zipfile.ZipFile(out / "hilo-samples.zip") as archive:
        assert archive.read("1.in") == (SAMPLES / "hilo/data/sample/1.in.download").read_bytes()
    with zipfile.ZipFile(out / "subtasks-samples.zip") as archive:
        assert sorted(archive.namelist()) == ["1.ans", "1.in"]


@pytest.mark.parametrize("hostile", ["link-out", "fifo"])
def test_a_hostile_package_is_refused(copy_sample: Callable[..., Path], tmp_path: Path,
                                      hostile: str, capsys: Capture) -> None:
    root = copy_sample("subtasks")
    bad = root / "data/secret/1-small/03-x.in"
    if hostile == "link-out":
        bad.symlink_to("/etc/passwd")
    else:
        os.mkfifo(bad)
    out = tmp_path / "out" / "subtasks.zip"
    assert main([str(root), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "data/secret/1-small/03-x.in" in err
    assert (not out.exists() and not (tmp_path / "out").exists()) or not any(
        (tmp_path / "out").iterdir())


def test_json_and_usage(tmp_path: Path, capsys: Capture) -> None:
    assert main([str(SAMPLES / "hilo"), "-o", str(tmp_path / "z"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["written"] == [{"problem": "hilo", "zip": str(tmp_path / "z/hilo.zip"),
                                  "entries": report["written"][0]["entries"]}]
    assert main([str(SAMPLES / "hilo"), str(SAMPLES / "subtasks"), "-o",
                 str(tmp_path / "x.zip")]) == 2


def test_an_output_that_cannot_be_written(tmp_path: Path, capsys: Capture) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n")
    target = blocker / "hello.zip"
    assert main([str(SAMPLES / "hello"), "-o", str(target)]) == 1
    assert f"{target}: cannot write" in capsys.readouterr().err
