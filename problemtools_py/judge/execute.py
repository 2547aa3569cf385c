"""Running a built program in a sandbox: its command line, its files and, for Python when
the versions match, in the sandbox server's own warm interpreter."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from problemtools_py.judge.compile import WORK_DIR, Executable
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits, RunResult


def run_program(
    box: Sandbox,
    exe: Executable,
    args: Sequence[str] = (),
    *,
    limits: Limits,
    memory_mb: int | None = None,
    binds: Sequence[Bind] = (),
    stdin: Path | int | None = None,
    stdout: Path | int | None = None,
    stdout_direct: bool = False,
    give_fds: bool = False,
    watch: tuple[int, int] | None = None,
    cwd: str = WORK_DIR,
) -> RunResult:
    """Run a built program with extra arguments (see :meth:`Sandbox.run` for the rest);
    Python programs run in-process when the versions match. ``memory_mb`` is what the
    program is told (the JVM's heap); ``cwd``: where it runs (a submission: where its
    language runs it, see Executable.cwd)."""
    fast = exe.inprocess and box.python_matches()
    return box.run(
        [*exe.argv(memory_mb or limits.memory_bytes >> 20), *args],
        limits=limits,
        binds=[*exe.binds(), *binds],
        inprocess=exe.inprocess_main() if fast else None,
        stdin=stdin,
        stdout=stdout,
        stdout_direct=stdout_direct,
        give_fds=give_fds,
        watch=watch,
        cwd=cwd,
    )


def case_files(folder: Path, given: bytes, answer: bytes) -> tuple[Path, Path]:
    """A test case made of bytes (a generated one, not yet in the package) as files in
    ``folder``, readable by the validators that are bound to them in their jails."""
    found = (folder / "case.in", folder / "case.ans")
    for path, data in zip(found, (given, answer), strict=True):
        path.write_bytes(data)
        path.chmod(0o644)
    return found
