"""A program run as its reference runs it (``python3 prog.py``, a binary built by the
plain compiler) and through each way the sandbox runs one, with what both ended with.

The reference runs on this machine, outside any sandbox, in the environment the
sandbox gives its programs (``protocol.ENV``: not this machine's, which sets
``PYTHONUNBUFFERED`` and so keeps output ``os._exit`` would lose), stdin a file, the
stack limit the sandbox sets, no core files."""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.launch import server_python
from problemtools_py.sandbox.protocol import ENV, LEAN_LOOP, Bind
from problemtools_py.sandbox.results import Limits, RunResult

LIMITS = Limits(cpu_seconds=10.0, memory_bytes=1 << 30, output_bytes=16 << 20)
STACK = 1 << 30  # the stack the sandbox gives a program (inside.set_limits)
# The ways a Python program runs in the sandbox: started afresh; forked from a jail's init
# (a jail of its own, or one held for many runs); forked from a lean session's init, a
# fresh interpreter or a fork of the server, with the run loop in C or in Python.
PYTHON_WAYS = ("fresh", "server", "held", "lean-c", "lean-python", "lean-c-forked",
               "lean-python-forked")  # fmt: skip


@dataclass(frozen=True)
class Ended:
    """How a run ended: its output, its exit status (-N: killed by signal N), its errors."""

    stdout: bytes
    status: int
    stderr: bytes = b""

    def same(self, other: Ended) -> bool:
        return (self.stdout, self.status) == (other.stdout, other.status)

    def brief(self) -> str:
        err = self.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        return f"status {self.status}, stdout {self.stdout[:200]!r}{' ...' if len(self.stdout) > 200 else ''}, stderr {err}"


def reference(argv: list[str], stdin: bytes, cwd: Path, timeout: float = 30) -> Ended:
    """``argv`` run plainly here, as a user would run it, in a clean environment."""
    with tempfile.TemporaryFile() as data:
        data.write(stdin)
        data.seek(0)
        command = ["prlimit", f"--stack={STACK}:", "--core=0:", *argv]
        try:
            done = subprocess.run(command, stdin=data, capture_output=True, cwd=cwd, env=dict(ENV),
                                  timeout=timeout, start_new_session=True, check=False)  # fmt: skip
        except subprocess.TimeoutExpired as exc:
            return Ended(exc.stdout or b"", -9, b"timed out")
    return Ended(done.stdout, done.returncode, done.stderr)


def reference_python(program: Path, stdin: bytes) -> Ended:
    """``python3 prog.py`` (the sandbox's python3) from a scratch directory."""
    with tempfile.TemporaryDirectory() as cwd:
        return reference([server_python(), str(program)], stdin, Path(cwd))


def ended(result: RunResult) -> Ended:
    status = result.exit_code if result.exit_code is not None else -(result.signal or 0)
    return Ended(result.stdout, status, result.stderr)


class PythonWay:
    """One way of running the Python programs of ``directory`` (bound at /prog)."""

    def __init__(self, way: str, directory: Path) -> None:
        self.way = way
        self.directory = directory
        self._stack = ExitStack()
        self.box: Sandbox | None = None

    def __enter__(self) -> PythonWay:
        box = self._stack.enter_context(Sandbox())
        self.box = box
        binds = [Bind(str(self.directory), "/prog")]
        if self.way in ("held",) or self.way.startswith("lean"):
            lean = self.way.startswith("lean")
            loop = self.way.split("-")[1] if lean else None
            with _loop(loop):
                self._stack.enter_context(box.session(
                    limits=LIMITS, binds=binds, inprocess=True, lean=lean,
                    forked=self.way.endswith("forked")))  # fmt: skip
            if lean and not box.lean_open:
                raise RuntimeError("no lean session here")
            if lean and box.lean_loop != loop:
                raise RuntimeError(f"the lean loop is {box.lean_loop}, not {loop}")
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def run(self, name: str, stdin: bytes, args: tuple[str, ...] = ()) -> Ended:
        assert self.box is not None
        main = f"/prog/{name}"
        argv = ["python3", main, *args]
        inprocess = None if self.way == "fresh" else main
        binds = [Bind(str(self.directory), "/prog")]
        if self.way.startswith("lean"):
            fd = os.memfd_create("stdin")
            try:
                os.write(fd, stdin)
                os.lseek(fd, 0, os.SEEK_SET)
                return ended(self.box.run_lean(argv, limits=LIMITS, stdin=fd, inprocess=main))
            finally:
                os.close(fd)
        with tempfile.NamedTemporaryFile() as data:
            data.write(stdin)
            data.flush()
            if self.way == "held":  # (the session's binds)
                return ended(self.box.run(argv, limits=LIMITS, stdin=Path(data.name),
                                          inprocess=inprocess))  # fmt: skip
            return ended(self.box.run(argv, limits=LIMITS, stdin=Path(data.name), binds=binds,
                                      inprocess=inprocess))  # fmt: skip


@contextmanager
def _loop(loop: str | None) -> Iterator[None]:
    """The lean run loop chosen (it is chosen when a session opens)."""
    saved = os.environ.get(LEAN_LOOP)
    if loop == "python":
        os.environ[LEAN_LOOP] = "python"
    else:
        os.environ.pop(LEAN_LOOP, None)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(LEAN_LOOP, None)
        else:
            os.environ[LEAN_LOOP] = saved
