"""problem2zip on copies of the samples: reproducible, verified after writing, samples
as contestants download them, and hostile packages refused naming the file."""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.packages import SAMPLES

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
    pdf = str(tmp_path / "z/hilo.pdf") if shutil.which("pdflatex") else None
    assert report["written"] == [{"problem": "hilo", "zip": str(tmp_path / "z/hilo.zip"),
                                  "entries": report["written"][0]["entries"], "pdf": pdf,
                                  "left_out": []}]
    assert main([str(SAMPLES / "hilo"), str(SAMPLES / "subtasks"), "-o",
                 str(tmp_path / "x.zip")]) == 2


def test_an_output_that_cannot_be_written(tmp_path: Path, capsys: Capture) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n")
    target = blocker / "hello.zip"
    assert main([str(SAMPLES / "hello"), "-o", str(target)]) == 2  # (before any work)
    assert f"-o {target}: {blocker} is not a directory" in capsys.readouterr().err


# ---- --problemset: one zip with contest.yaml and problems.yaml, as DOMjudge imports it


def _read_set(target: Path) -> tuple[set[str], object, object]:
    import yaml

    with zipfile.ZipFile(target) as archive:
        names = set(archive.namelist())
        return (names, yaml.safe_load(archive.read("problems.yaml")),
                yaml.safe_load(archive.read("contest.yaml")))  # fmt: skip


def test_a_problem_set_zip(tmp_path: Path, capsys: Capture) -> None:
    argv = [str(SAMPLES / "hello"), str(SAMPLES / "subtasks"), "--problemset",
            "--contest-name", "Spring Cup"]  # fmt: skip
    assert main([*argv, "-o", str(tmp_path / "a" / "set.zip")]) == 0
    out = capsys.readouterr().out
    assert "hello: 0 errors, 0 warnings" in out and "subtasks: 0 errors, 0 warnings" in out
    names, problems, contest = _read_set(tmp_path / "a" / "set.zip")
    assert contest == {"name": "Spring Cup"}
    assert [(p["id"], p["label"], p["name"]) for p in problems] == [  # type: ignore[attr-defined]
        ("hello", "A", "Hello"), ("subtasks", "B", "Subtask Sum")]  # fmt: skip
    assert "hello/problem.yaml" in names and "subtasks/problem.yaml" in names
    assert main([*argv, "-o", str(tmp_path / "b" / "set.zip"), "-q"]) == 0
    assert (tmp_path / "a/set.zip").read_bytes() == (tmp_path / "b/set.zip").read_bytes()


def test_a_contest_directorys_own_files_are_kept(tmp_path: Path) -> None:
    contest = tmp_path / "contest"
    for name in ("hello", "different"):
        shutil.copytree(SAMPLES / name, contest / name)
    (contest / "problems.yaml").write_text("- id: different\n  label: X\n  rgb: '#123456'\n")
    (contest / "contest.yaml").write_text("name: Autumn Cup\nduration: '5:00:00'\n")
    target = tmp_path / "set.zip"
    assert main([str(contest / "hello"), str(contest / "different"), "--problemset",
                 "-o", str(target), "-q"]) == 0  # fmt: skip
    _, problems, kept = _read_set(target)
    assert kept == {"name": "Autumn Cup", "duration": "5:00:00"}
    rows = {p["id"]: p for p in problems}  # type: ignore[attr-defined]
    assert (rows["different"]["label"], rows["different"]["rgb"]) == ("X", "#123456")
    assert rows["hello"]["label"] == "A"


def test_a_set_with_a_problem_that_cannot_go_in_writes_nothing(tmp_path: Path,
                                                               capsys: Capture) -> None:  # fmt: skip
    target = tmp_path / "set.zip"
    assert main([str(SAMPLES / "hilo"), str(SAMPLES / "twopass"), "--problemset",
                 "--format", "legacy", "-o", str(target)]) == 1  # fmt: skip
    assert "type multi-pass: legacy has no such type" in capsys.readouterr().out
    assert not target.exists()
    assert main([str(SAMPLES / "hilo"), "--problemset", "-o", str(tmp_path / "dir")]) == 2


def test_kattis_gets_constants_substituted_and_a_pdf_beside(tmp_path: Path) -> None:
    target = tmp_path / "subtasks.zip"
    assert main([str(SAMPLES / "subtasks"), "--format", "kattis", "-o", str(target), "-q"]) == 0
    with zipfile.ZipFile(target) as archive:
        statement = archive.read("subtasks/statement/problem.en.md").decode()
        config = archive.read("subtasks/problem.yaml").decode()
    assert "2 \\cdot 10^4" in statement and "{{max_n" not in statement
    assert "{{remainingsamples}}" in statement  # (no constant: left as it is)
    assert "max_n:" in config  # problem.yaml itself is never substituted
    if shutil.which("pdflatex"):
        assert (tmp_path / "subtasks.pdf").read_bytes().startswith(b"%PDF")
    plain = tmp_path / "plain" / "subtasks.zip"
    assert main([str(SAMPLES / "subtasks"), "-o", str(plain), "-q", "--no-pdf"]) == 0
    with zipfile.ZipFile(plain) as archive:
        assert "{{max_n.tex}}" in archive.read("subtasks/statement/problem.en.md").decode()
    assert sorted(p.name for p in plain.parent.iterdir()) == ["subtasks.zip"]
