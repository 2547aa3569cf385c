"""verifyproblem --write-time-limit (convert.timelimits): the derived limit written into
problem.yaml with its comments and layout kept, or into legacy's .timelimit; never over
a limit the package (or -t) fixes, never from a package with errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from problemtools_py.cli.newproblem import main as newproblem
from problemtools_py.cli.verifyproblem import main as verify
from problemtools_py.convert.timelimits import write_time_limit

Capture = pytest.CaptureFixture[str]
COMMENTED = """# A problem with comments to keep.
problem_format_version: 2025-09
type: pass-fail
name: Sum   # the title
uuid: 9b2c8f0e-1d2a-4c3b-8e5f-6a7b8c9d0e1f
credits:
  authors: Ada
license: cc by-sa
limits:
  memory: 512  # MiB
"""


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("made")
    assert newproblem(["modern", "-d", str(root)]) == 0
    assert newproblem(["old", "-d", str(root), "--format", "legacy"]) == 0
    return root


def test_the_limit_goes_in_with_every_comment_kept(made: Path, tmp_path: Path) -> None:
    root = tmp_path / "p"
    shutil.copytree(made / "modern", root)
    (root / "problem.yaml").write_text(COMMENTED)
    assert write_time_limit(root, 1.5, False).startswith("wrote limits.time_limit: 1.5")
    assert (root / "problem.yaml").read_text() == COMMENTED + "  time_limit: 1.5\n"
    said = write_time_limit(root, 3.0, False)
    assert said == "not written: the package fixes its time limit (limits.time_limit)"
    assert "not written: -t" in write_time_limit(root, 3.0, True)


def test_legacy_gets_a_timelimit_file(made: Path, tmp_path: Path) -> None:
    root = tmp_path / "old"
    shutil.copytree(made / "old", root)
    assert write_time_limit(root, 2.0, False).startswith("wrote the time limit 2 s")
    assert (root / ".timelimit").read_text() == "2\n"


def test_verifyproblem_writes_what_it_derived(made: Path, tmp_path: Path,
                                              capsys: Capture) -> None:  # fmt: skip
    shutil.copytree(made / "modern", tmp_path / "modern")
    shutil.copytree(made / "modern", tmp_path / "broken")
    (tmp_path / "broken" / "submissions" / "accepted" / "solution.py").write_text("print(0)\n")
    assert verify(["-q", "--write-time-limit", str(tmp_path / "modern"),
                   str(tmp_path / "broken")]) == 1  # fmt: skip
    err = capsys.readouterr().err
    assert "modern: wrote limits.time_limit: 1 to" in err
    assert "broken: not written: the package has errors" in err
    assert "time_limit" not in (tmp_path / "broken" / "problem.yaml").read_text()
    assert verify(["-q", "--write-time-limit", str(tmp_path / "modern")]) == 0
    assert "fixes its time limit (limits.time_limit)" in capsys.readouterr().err
