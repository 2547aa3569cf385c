"""judge/buildcache.py: the build cache keeps the KEEP builds used last, never one used
within GRACE, drops what killed builds left behind once it is old, and the builder marks
every build it makes or finds as used and prunes as it publishes."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from helpers.judgekit import Kit

from problemtools_py.judge import buildcache
from problemtools_py.judge.compile import Builder


def _builds(root: Path, ages: dict[str, float]) -> None:
    now = time.time()
    for name, age in ages.items():
        (root / name).mkdir(parents=True)
        (root / name / "build.json").write_text("{}")
        os.utime(root / name, (now - age, now - age))


def test_the_builds_used_last_are_kept(tmp_path: Path) -> None:
    _builds(tmp_path, {"a": 5000, "b": 4000, "c": 3000, "d": 2000, "e": 1000})
    assert buildcache.prune(tmp_path, keep=3, grace=600) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c", "d", "e"]


def test_a_build_used_within_the_grace_is_never_dropped(tmp_path: Path) -> None:
    _builds(tmp_path, {"a": 900, "b": 60, "c": 30, "d": 10})
    assert buildcache.prune(tmp_path, keep=1, grace=600) == 1  # (only a: b and c stay)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b", "c", "d"]


def test_what_a_killed_build_left_goes_once_old(tmp_path: Path) -> None:
    _builds(tmp_path, {".tmp-old": 5000, ".out-old": 5000, ".tmp-now": 5, "a": 5000})
    assert buildcache.prune(tmp_path, keep=10, grace=600) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == [".tmp-now", "a"]


def test_the_bound_can_be_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(buildcache.KEEP_ENV, "150")
    assert buildcache.keep() == 150
    monkeypatch.setenv(buildcache.KEEP_ENV, "many")
    assert buildcache.keep() == buildcache.KEEP


def test_the_builder_marks_its_builds_used_and_prunes(
    kit: Kit, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(buildcache, "EVERY", 1)  # (a check after every new build)
    monkeypatch.setattr(buildcache, "GRACE", 0.0)
    monkeypatch.setenv(buildcache.KEEP_ENV, "10")
    builder = Builder(kit.pool, kit.builder.limits, tmp_path)
    c = kit.languages.get("c")
    assert c is not None
    made = []
    for n in range(3):
        build = builder.build(c, {"p.c": f"int main(void) {{ return {n}; }}\n".encode()})
        assert build.executable is not None and not build.cached
        made.append(build.executable.directory)
        time.sleep(0.01)  # (each its own time)
    again = builder.build(c, {"p.c": b"int main(void) { return 0; }\n"})  # (the first: used)
    assert again.cached
    monkeypatch.setenv(buildcache.KEEP_ENV, "2")
    last = builder.build(c, {"p.c": b"int main(void) { return 9; }\n"})
    assert last.executable is not None
    left = {p for p in (tmp_path / "builds").iterdir() if not p.name.startswith(".")}
    assert left == {made[0], last.executable.directory}  # (the two used last)
