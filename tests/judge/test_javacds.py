"""judge/javacds.py: javac's class-data archive is made once per JDK, mapped by every
compilation, and a damaged one costs a compilation nothing but its retry."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from helpers.judgekit import Kit

from problemtools_py.judge import javacds
from problemtools_py.judge.compile import Builder
from problemtools_py.judge.languages import Languages

pytestmark = pytest.mark.skipif(shutil.which("javac") is None, reason="no JDK")

OPTIONS = ("-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1")
MAIN = b'public class Main { public static void main(String[] a) { System.out.println("hi"); } }'


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(javacds, "_memo", {})
    return tmp_path / "problemtools_py" / "javac-cds"


def test_the_archive_is_made_once_and_found_by_later_processes(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = javacds.archive("javac", OPTIONS)
    assert made is not None and made.parent == cache and made.stat().st_mode & 0o004
    assert [p.name for p in cache.iterdir()] == [made.name]  # (no scratch left)
    monkeypatch.setattr(javacds, "_memo", {})  # (as a new process)

    def no_javac(*args: object, **kwargs: object) -> None:
        raise AssertionError("javac ran again")

    monkeypatch.setattr(subprocess, "run", no_javac)
    assert javacds.archive("javac", OPTIONS) == made
    real = str(Path(shutil.which("javac") or "").resolve())
    assert javacds._key(real, OPTIONS) != javacds._key(real, ("-J-Xmx512m",))  # another one


def test_an_archive_is_made_anew_when_the_jdks_own_is(tmp_path: Path) -> None:
    """Ours is laid on the JDK's archive: made anew (Debian's package runs `java
    -Xshare:dump` at install), it no longer maps ours, so ours is named by it too."""
    home = tmp_path / "jdk"
    (home / "bin").mkdir(parents=True)
    (home / "lib/server").mkdir(parents=True)
    (home / "bin/javac").write_text("javac")
    (home / "release").write_text('JAVA_VERSION="17.0.16"\n')
    base = home / "lib/server/classes.jsa"
    base.write_bytes(b"archive one")
    first = javacds._key(str(home / "bin/javac"), OPTIONS)
    assert javacds._key(str(home / "bin/javac"), OPTIONS) == first
    base.unlink()
    base.write_bytes(b"archive two")  # (a new file, as the dump writes it)
    assert javacds._key(str(home / "bin/javac"), OPTIONS) != first


def test_told_not_to_make_one_it_only_finds_one(cache: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    assert javacds.archive("javac", OPTIONS, make=False) is None
    assert not cache.exists()
    made = javacds.archive("javac", OPTIONS)
    monkeypatch.setattr(javacds, "_memo", {})  # (as a new process)
    assert made is not None and javacds.archive("javac", OPTIONS, make=False) == made


def test_a_new_archive_replaces_the_same_javacs_older_ones(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An upgraded JDK's archive replaces the one before (~10 MB) and those named as before
    2026-12-01; another javac's (or other options') stays."""
    def quick(real: str, options: tuple[str, ...], scratch: Path) -> Path:
        (scratch / "javac.jsa").write_bytes(b"an archive")
        return scratch / "javac.jsa"

    monkeypatch.setattr(javacds, "_make", quick)
    real = str(Path(shutil.which("javac") or "").resolve())
    place = javacds._place(real, OPTIONS)
    cache.mkdir(parents=True)
    before = cache / f"javac-{place}-{'0' * 24}.jsa"
    unplaced = cache / f"javac-{'a' * 24}.jsa"
    other = cache / f"javac-{javacds._place(real, ('-J-Xmx512m',))}-{'0' * 24}.jsa"
    for path in (before, unplaced, other):
        path.write_bytes(b"old")
    made = javacds.archive("javac", OPTIONS)
    assert made is not None and made.name.startswith(f"javac-{place}-")
    assert sorted(p.name for p in cache.iterdir()) == sorted([made.name, other.name])


def test_the_judges_own_java_options_do_not_reach_the_dump(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """javac is dumped as compilations run it, in the sandbox's environment: a
    JAVA_TOOL_OPTIONS of the judge's (here one that forbids dumping) changes nothing."""
    monkeypatch.setenv("JAVA_TOOL_OPTIONS", "-Xshare:off")
    made = javacds.archive("javac", OPTIONS)
    assert made is not None and made.is_file()


def test_no_javac_no_archive(cache: Path) -> None:
    assert javacds.archive("no-such-javac", OPTIONS) is None
    assert not cache.exists()


def builder(kit: Kit, tmp_path: Path) -> Builder:
    return Builder(kit.pool, kit.builder.limits, tmp_path / "builds")


def test_a_java_compilation_maps_the_archive(kit: Kit, cache: Path, tmp_path: Path) -> None:
    java = kit.languages.get("java")
    assert java is not None and java.class_data_sharing
    build = builder(kit, tmp_path).build(java, {"Main.java": MAIN})
    assert build.executable is not None, build.message
    assert len(list(cache.glob("*.jsa"))) == 1
    assert not list(build.executable.directory.glob("hs_err*"))


def test_a_damaged_archive_is_dropped_and_the_program_still_compiles(
    kit: Kit, cache: Path, tmp_path: Path
) -> None:
    java = kit.languages.get("java")
    assert java is not None
    assert builder(kit, tmp_path / "first").build(java, {"Main.java": MAIN}).executable
    (made,) = cache.glob("*.jsa")
    made.write_bytes(made.read_bytes()[:100_000])  # (the JVM dies of SIGBUS mapping it)
    build = builder(kit, tmp_path / "second").build(java, {"Main.java": MAIN + b"\n"})
    assert build.executable is not None, build.message
    assert not made.exists()
    assert not list(build.executable.directory.glob("hs_err*"))


def test_a_language_without_class_data_sharing_makes_none(
    kit: Kit, cache: Path, tmp_path: Path
) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "languages.yaml").write_text("java:\n  class_data_sharing: false\n")
    java = Languages.load((tmp_path / "p",)).get("java")
    assert java is not None and not java.class_data_sharing
    assert builder(kit, tmp_path).build(java, {"Main.java": MAIN}).executable is not None
    assert not cache.exists()
