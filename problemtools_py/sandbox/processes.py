"""The sandbox servers' processes: which interpreter runs them, starting one, and watching
one that another server forked (see :meth:`.server.Server.spawn`)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Protocol

from problemtools_py.sandbox import native
from problemtools_py.sandbox.protocol import ENV

# The server imports only the standard library and this package, so it can run on the
# interpreter programs know as python3, whatever runs the judge.
_BOOT = (
    "import sys; sys.path.insert(0, sys.argv[1]); del sys.argv[1]; "
    "from problemtools_py.sandbox.server import main; main()"
)
_server_python: list[str] = []
_server_python_lock = threading.Lock()


class ServerProcess(Protocol):
    """What a sandbox keeps of its server's process (a Popen, or a SpawnedServer)."""

    @property
    def pid(self) -> int: ...

    def poll(self) -> int | None: ...

    def kill(self) -> None: ...

    def wait(self, timeout: float | None = None) -> int: ...


def server_python() -> str:
    """The interpreter for sandbox servers: ``python3`` as the sandbox finds it (so that
    in-process Python programs run on exactly the interpreter they would be started with,
    optimised builds included) when it is 3.11 or newer, else this one. Asked once per
    process, and its answer kept in the cache by the file's identity (the probe is a
    Python start-up, on the path of every first sandbox)."""
    with _server_python_lock:
        if not _server_python:
            candidate = shutil.which("python3", path=ENV["PATH"])
            recent = candidate is not None and _is_recent(candidate)
            _server_python.append(candidate if recent and candidate else sys.executable)
        return _server_python[0]


def _is_recent(python: str) -> bool:
    """Whether ``python`` is 3.11 or newer (remembered per file: path, inode, size, time)."""
    try:
        st = os.stat(python)
    except OSError:
        return False
    real = os.path.realpath(python)
    if real == os.path.realpath(sys.executable):
        return sys.version_info >= (3, 11)
    key = hashlib.sha256(f"{real} {st.st_ino} {st.st_size} {st.st_mtime_ns}".encode())
    memo = native.cache_dir() / "sandbox" / f"python3-{key.hexdigest()[:16]}"
    with contextlib.suppress(OSError):
        return memo.read_text() == "1"
    try:
        probe = subprocess.run(
            [python, "-I", "-S", "-c", "import sys; print(sys.version_info >= (3, 11))"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    recent = probe.stdout.strip() == "True"
    with contextlib.suppress(OSError):  # (written whole: another process may be reading)
        memo.parent.mkdir(parents=True, exist_ok=True)
        fd, scratch = tempfile.mkstemp(dir=memo.parent)
        with os.fdopen(fd, "w") as handle:
            handle.write("1" if recent else "0")
        os.replace(scratch, memo)
    return recent


def start_server(child: socket.socket, isolate: bool) -> subprocess.Popen[bytes]:
    """A new server process (a new interpreter: ~50 ms) talking on ``child``."""
    package_root = str(Path(__file__).resolve().parent.parent.parent)
    # -S: the server's interpreter is the one its Python programs run in (in process), and
    # they run as ``python3 -S``: no site module, so no exit() or quit() builtins and no
    # site-packages (and no site start-up, 5-25 ms, for the server).
    args = [server_python(), "-I", "-S", "-c", _BOOT, package_root, str(child.fileno())]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    with contextlib.suppress(OSError):
        # The process's cores (its main thread's), not those of the thread starting the
        # server: a grading worker thread may be pinned to one (see Grader).
        env["PROBLEMTOOLS_PY_CPUS"] = ",".join(map(str, os.sched_getaffinity(os.getpid())))
    if not isolate:
        env["PROBLEMTOOLS_PY_NO_ISOLATION"] = "1"
    return subprocess.Popen(
        args, pass_fds=[child.fileno()], stdin=subprocess.DEVNULL, env=env, close_fds=True
    )


def exited_in_time(proc: ServerProcess, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for a server to end, woken the moment it does
    (Popen.wait with a timeout polls, sleeping up to 50 ms past the end)."""
    if isinstance(proc, SpawnedServer):
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        return True
    try:
        fd = os.pidfd_open(proc.pid)
    except OSError:  # (already reaped, or no pidfd here)
        return True
    try:
        return bool(select.select([fd], [], [], timeout)[0])
    finally:
        os.close(fd)


class SpawnedServer:
    """A server another server forked (see Server.spawn): not this process's child (its
    maker reaps it), so it is watched through the pidfd it sent with its hello, which
    names it for good (a number could be reused once it is reaped)."""

    def __init__(self, pid: int, pidfd: int) -> None:
        self.pid = pid
        self.pidfd = pidfd

    def poll(self) -> int | None:
        """None while it runs; its exit status is its maker's to collect (-1 here)."""
        if self.pidfd < 0 or select.select([self.pidfd], [], [], 0)[0]:
            self._forget()
            return -1
        return None

    def kill(self) -> None:
        if self.pidfd >= 0:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)

    def wait(self, timeout: float | None = None) -> int:
        if self.pidfd >= 0 and not select.select([self.pidfd], [], [], timeout)[0]:
            raise subprocess.TimeoutExpired(f"sandbox server {self.pid}", timeout or 0.0)
        self._forget()
        return -1

    def _forget(self) -> None:
        if self.pidfd >= 0:
            os.close(self.pidfd)
            self.pidfd = -1
