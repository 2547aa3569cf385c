"""Building programs: in a bounded scratch space (a hostile build cannot fill the disk),
copied out without following what it left, cached per content and limits."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from problemtools_py.judge.buildfiles import copy_plain
from problemtools_py.judge.compile import Builder, scripts_language
from problemtools_py.judge.languages import Languages
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.results import Limits

LIMITS = Limits(cpu_seconds=30, memory_bytes=1 << 30, file_bytes=32 << 20, processes=64)
RUN = b"#!/bin/sh\necho hi\n"


@pytest.fixture(scope="module")
def pool() -> Iterator[SandboxPool]:
    with SandboxPool(2) as made:
        yield made


def _build(pool: SandboxPool, cache: Path, script: str, limits: Limits = LIMITS) -> str | None:
    builder = Builder(pool, limits, cache)
    build = builder.build(scripts_language(True), {"build": script.encode(), "run": RUN})
    return None if build.executable is not None else build.message


def _mounts_below(path: Path) -> list[str]:
    with open("/proc/self/mounts", encoding="utf-8") as handle:
        return [line.split()[1] for line in handle if line.split()[1].startswith(str(path))]


@pytest.mark.skipif(os.geteuid() != 0, reason="the bounded build space needs root")
def test_a_build_cannot_fill_the_disk(pool: SandboxPool, tmp_path: Path) -> None:
    """Many files, each under the file size limit: the build's tmpfs fills, not the disk."""
    script = "i=0\nwhile [ $i -lt 40 ]; do head -c 4000000 /dev/zero > f$i || exit 1; i=$((i+1)); done\n"
    message = _build(pool, tmp_path, script)
    assert message is not None and "No space left" in message
    assert _mounts_below(tmp_path) == []
    left = [p.name for p in (tmp_path / "builds").iterdir()]
    assert all(not name.startswith(".") for name in left), left  # no scratch left behind
    total = sum(f.stat().st_size for f in (tmp_path / "builds").rglob("*") if f.is_file())
    assert total < 1 << 20


def test_what_a_build_leaves_is_copied_plainly(pool: SandboxPool, tmp_path: Path) -> None:
    """A FIFO (opening it would block the judge), a device-like leftover and a link out."""
    script = "mkfifo pipe\nln -s /etc/shadow secret\nmkdir sub\necho x > sub/y\nchmod +x run\n"
    assert _build(pool, tmp_path, script) is None
    (built,) = [p for p in (tmp_path / "builds").iterdir() if not p.name.startswith(".")]
    assert not (built / "pipe").exists()
    assert (built / "secret").is_symlink() and os.readlink(built / "secret") == "/etc/shadow"
    assert (built / "sub/y").read_text() == "x\n"


def test_copy_plain_skips_special_files(tmp_path: Path) -> None:
    source, target = tmp_path / "a", tmp_path / "b"
    (source / "d").mkdir(parents=True)
    (source / "d/f").write_text("f")
    os.mkfifo(source / "fifo")
    os.symlink("d", source / "link")
    target.mkdir()
    copy_plain(source, target)
    assert sorted(p.name for p in target.iterdir()) == ["d", "link"]
    assert (target / "d/f").read_text() == "f" and os.readlink(target / "link") == "d"


def test_a_build_failed_under_small_limits_is_rebuilt_under_larger(
    pool: SandboxPool, tmp_path: Path
) -> None:
    script = "head -c 20000000 /dev/zero > big && chmod +x run\n"
    small = Limits(cpu_seconds=30, memory_bytes=1 << 30, file_bytes=8 << 20, processes=64)
    assert _build(pool, tmp_path, script, small) is not None
    assert _build(pool, tmp_path, script) is None


def test_a_program_without_a_default_entry_point_runs_its_main(
    pool: SandboxPool, tmp_path: Path
) -> None:
    """Bash has no default entry point in the format's list: a file named main is it (as
    BAPCtools and DOMjudge take it; BAPCtools' hello has accepted/test-multifile.sh)."""
    language = Languages.load().get("bash")
    assert language is not None
    files = {"main.sh": b". ./secondary.sh\ngreet\n", "secondary.sh": b"greet() { echo hi; }\n"}
    build = Builder(pool, LIMITS, tmp_path).build(language, files)
    assert build.executable is not None and build.executable.main == "main.sh", build.message


@pytest.mark.parametrize(
    ("source", "said"),
    [
        (b"x = (\n", "File \"main.py\", line 1\n    x = (\n        ^\nSyntaxError: '(' was never closed"),
        (b"if True:\nx = 1\n", "File \"main.py\", line 2\n    x = 1\n    ^\nIndentationError: "),
        (b"a = 1\0\n", "main.py: ValueError: source code string cannot contain null bytes"),
    ],
)
def test_a_python_syntax_error_is_told_as_python_tells_it(
    pool: SandboxPool, tmp_path: Path, source: bytes, said: str
) -> None:
    """The file, line, caret and error (or the file and the error where there is no line),
    not py_compile's two tracebacks around them."""
    language = Languages.load().get("python3")
    assert language is not None
    build = Builder(pool, LIMITS, tmp_path).build(language, {"main.py": source})
    assert build.executable is None
    assert said in build.message and "Traceback" not in build.message, build.message
