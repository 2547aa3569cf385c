"""Files around one run, as SandboxFusion's ``/run_code`` has them: ``files`` (a path
relative to the program's working directory -> its content in base64; None: skipped) are
written there before the run, and ``fetch_files`` (paths in the same directory) are read
back after it, each only when the run left a regular file there.

The working directory is a host directory bound writable into the jail as its ``/work``,
with a tmpfs of :data:`SPACE` bytes mounted over it (as root: see judge.buildfiles), so a
run cannot fill the disk with it. The run is hostile: what it leaves is read without
following a link at any step (a link to a host file is not fetched), only regular files,
and at most :data:`FETCH_BYTES` in all. A path that leaves the directory (absolute, or
with ``..``) is the caller's error, named."""

from __future__ import annotations

import base64
import binascii
import contextlib
import posixpath
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from problemtools_py import jailfiles
from problemtools_py.grading.compiled import place_program
from problemtools_py.grading.sessions import Sessions
from problemtools_py.grading.testrun import RunLimits, TestRun
from problemtools_py.judge.buildfiles import bounded_dir
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import RunResult
from problemtools_py.sandbox.spawned import temp_dir

CWD = "/work"  # the run's working directory in its jail
if TYPE_CHECKING:
    from problemtools_py.judge.compile import Executable

SPACE = 256 << 20  # the working directory's tmpfs: the files given and what the run writes
FETCH_BYTES = 32 << 20  # fetched in all (more: the files past it are left out)
MAX_FILES = 1024  # files given, or asked for, in one request
MAX_NAME = 1024  # characters of one path


class FilesError(ValueError):
    """``files`` or ``fetch_files`` that cannot be honoured: the caller's error."""


@dataclass(frozen=True)
class RunFiles:
    """What a run gets in its working directory, and what is read back after it."""

    given: tuple[tuple[str, bytes], ...] = ()
    fetch: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.given or self.fetch)


def parse(files: object, fetch: object) -> RunFiles:
    """The request's ``files`` and ``fetch_files`` (absent or null: none)."""
    if files is None:
        files = {}
    if fetch is None:
        fetch = []
    if not isinstance(files, dict) or not isinstance(fetch, list):
        raise FilesError("files must be an object (path -> base64) and fetch_files a list")
    if len(files) > MAX_FILES or len(fetch) > MAX_FILES:
        raise FilesError(f"at most {MAX_FILES} files may be given, and as many fetched")
    given = []
    for name, content in files.items():
        if content is None:  # (SandboxFusion skips these too)
            continue
        if not isinstance(content, str):
            raise FilesError(f"files[{name!r}]: the content must be a base64 string")
        try:
            data = base64.b64decode(content, validate=True)
        except (binascii.Error, ValueError):
            raise FilesError(f"files[{name!r}]: not valid base64") from None
        given.append((_relative(name, "files"), data))
    names = {name for name, _ in given}
    for name in names:
        for parent in PurePosixPath(name).parents[:-1]:
            if str(parent) in names:
                raise FilesError(f"files: {name!r} is below another file given, {str(parent)!r}")
    if sum(len(data) for _, data in given) > SPACE // 2:
        raise FilesError(f"the files given exceed {SPACE // 2 >> 20} MiB")
    return RunFiles(tuple(given), tuple(_relative(name, "fetch_files") for name in fetch))


def _relative(name: object, field: str) -> str:
    """A path inside the working directory, normalised; else the caller's error."""
    if not isinstance(name, str) or not name or len(name) > MAX_NAME or "\0" in name:
        raise FilesError(f"{field}: {name!r} is not a file name")
    path = posixpath.normpath(name)
    if path.startswith("/") or path == "." or path.split("/")[0] == "..":
        raise FilesError(f"{field}: {name!r} is outside the working directory")
    return path


@contextlib.contextmanager
def workdir(files: RunFiles) -> Iterator[Path]:
    """A bounded working directory holding the files given (writable by the run's
    user, as SandboxFusion's runs may change them), removed afterwards."""
    holder = Path(temp_dir("files"))
    try:
        work = holder / "work"
        work.mkdir()
        with bounded_dir(work, SPACE):
            work.chmod(0o777)
            for name, data in files.given:
                _write(work, name, data)
            yield work
    finally:
        shutil.rmtree(holder, ignore_errors=True)


def _write(work: Path, name: str, data: bytes) -> None:
    target = work / name
    for parent in reversed(target.relative_to(work).parents[:-1]):
        with contextlib.suppress(FileExistsError):
            (work / parent).mkdir()
            (work / parent).chmod(0o777)
    target.write_bytes(data)
    target.chmod(0o666)


def fetch(work: Path, names: tuple[str, ...]) -> dict[str, bytes]:
    """The files asked for that the run left as regular files (a link at any step, a
    directory or a FIFO is left out), in the order asked, up to FETCH_BYTES in all."""
    found: dict[str, bytes] = {}
    room = FETCH_BYTES
    for name in names:
        data = jailfiles.read(work, name, room)
        if data is not None:
            found[name] = data
            room -= len(data)
    return found


def encoded(found: dict[str, bytes]) -> dict[str, str]:
    """The response's ``files``: each fetched file in base64."""
    return {name: base64.b64encode(data).decode("ascii") for name, data in found.items()}


def run_in(
    box: Sandbox,
    sessions: Sessions,
    program: tuple[str, Executable | None, tuple[str, ...] | None],
    stdin: str,
    limits: RunLimits,
    files: RunFiles,
) -> tuple[RunResult | None, dict[str, bytes]]:
    """One run of ``program`` (its text, build and command) in a jail of its own (the
    box's session closed), its working directory a bound one holding ``files``; the run
    (None: starved) and the files it was asked for."""
    code, exe, argv = program
    sessions.forget(box)
    directory = Path(temp_dir("grade"))
    try:
        directory.chmod(0o755)
        place_program(directory, code, exe)
        with workdir(files) as work:
            binds = (*sessions.binds(directory), Bind(str(work), CWD, True))
            run = TestRun(box, sessions.settings, lambda: None, argv=argv, binds=binds)
            found = run.execute(stdin, limits, limits.memory_mb or sessions.settings.memory_mb)
            return found, fetch(work, files.fetch)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
