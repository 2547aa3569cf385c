"""cachedir: where the cache is, and whether an earlier process used it (what pays back
only over many compilations is made where the cache outlives a run)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.packages import run_python

from problemtools_py import cachedir

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache of its own, and a process that has not asked yet."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(cachedir, "_used", {})
    return tmp_path / "cache" / "problemtools_py"


def test_a_new_cache_was_not_used_before_and_a_later_process_finds_it_was(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cachedir.used_before() is False
    assert (fresh / "used").is_file()
    assert cachedir.used_before() is False  # (this process keeps its first answer)
    monkeypatch.setattr(cachedir, "_used", {})  # (as a new process)
    assert cachedir.used_before() is True


def test_each_cache_has_its_own_answer(fresh: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (fresh / "used").parent.mkdir(parents=True)
    (fresh / "used").touch()
    assert cachedir.used_before() is True
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other"))
    assert cachedir.used_before() is False


def test_a_cache_that_cannot_be_written_is_new_each_time(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "file").write_text("not a directory")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    assert cachedir.used_before() is False
    monkeypatch.setattr(cachedir, "_used", {})
    assert cachedir.used_before() is False


def test_two_processes_one_after_the_other(tmp_path: Path) -> None:
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); "
             "from problemtools_py.cachedir import used_before; print(used_before())")  # fmt: skip
    env = {"XDG_CACHE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    said = [run_python(probe, str(ROOT), env=env).stdout.strip()
            for _ in range(2)]  # fmt: skip
    assert said == ["False", "True"]
