"""The one way to run a program: :meth:`Sandbox.run`.

A :class:`Sandbox` owns a small server process (:mod:`.server`) that runs one program at a
time in isolation; :class:`SandboxPool` hands one to each worker thread. When the machine
allows no real isolation (not root), the server falls back to resource limits and the
first sandbox of the process prints one clear warning."""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from problemtools_py.judge.isolation import ENV, Bind
from problemtools_py.judge.protocol import recv_message, send_message

if TYPE_CHECKING:
    from problemtools_py.judge.compile import Executable
from problemtools_py.judge.results import Limits, Outcome, RunResult

_warned = False
_warn_lock = threading.Lock()


class SandboxError(Exception):
    """The sandbox could not run the program at all (setup failed, not found, crashed)."""


# The server imports only the standard library and problemtools_py.judge, so it can run
# on the interpreter programs know as python3, whatever runs the judge.
_BOOT = (
    "import sys; sys.path.insert(0, sys.argv[1]); del sys.argv[1]; "
    "from problemtools_py.judge.server import main; main()"
)
SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
_server_python: str | None = None


def server_python() -> str:
    """The interpreter for sandbox servers: ``python3`` as the sandbox finds it (so that
    in-process Python programs run on exactly the interpreter they would be started with,
    optimised builds included) when it is 3.11 or newer, else this one."""
    global _server_python
    if _server_python is None:
        candidate = shutil.which("python3", path=SANDBOX_PATH)
        chosen = sys.executable
        if candidate is not None:
            try:
                probe = subprocess.run(
                    [candidate, "-I", "-c", "import sys; print(sys.version_info >= (3, 11))"],
                    capture_output=True,
                    text=True,
                    timeout=30,
                    check=False,
                )
                if probe.stdout.strip() == "True":
                    chosen = candidate
            except (OSError, subprocess.TimeoutExpired):
                pass
        _server_python = chosen
    return _server_python


def _default_warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


WarnHook = Callable[[str], None]
warn_hook: WarnHook = _default_warn


class Sandbox:
    def __init__(self, isolate: bool = True) -> None:
        parent, child = socket.socketpair()
        package_root = str(Path(__file__).resolve().parent.parent.parent)
        args = [server_python(), "-I", "-c", _BOOT, package_root, str(child.fileno())]
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
        with contextlib.suppress(OSError):
            # The process's cores (its main thread's), not those of the thread starting the
            # server: a grading worker thread may be pinned to one (see Grader).
            env["PROBLEMTOOLS_PY_CPUS"] = ",".join(map(str, os.sched_getaffinity(os.getpid())))
        if not isolate:
            env["PROBLEMTOOLS_PY_NO_ISOLATION"] = "1"
        self.proc = subprocess.Popen(
            args, pass_fds=[child.fileno()], stdin=subprocess.DEVNULL, env=env, close_fds=True
        )
        child.close()
        self.sock = parent
        self._send_lock = threading.Lock()
        self._python_matches: bool | None = None
        self.lean: socket.socket | None = None  # the open session's direct line (see session)
        hello, _ = recv_message(parent)
        if hello is None:
            self.close()
            raise SandboxError("the sandbox server did not start")
        self.isolation: str = str(hello["isolation"])
        self.python: tuple[int, ...] = tuple(hello["python"])
        self.stdlib: list[str] = list(hello["stdlib"])
        self.namespaces: bool = bool(hello["namespaces"])
        if self.isolation != "full":
            _warn_once(f"sandbox isolation is {self.isolation}")

    def run(
        self,
        argv: Sequence[str],
        *,
        limits: Limits,
        stdin: Path | int | None = None,
        stdout: Path | int | None = None,
        stdout_direct: bool = False,
        binds: Sequence[Bind] = (),
        cwd: str = "/work",
        env: dict[str, str] | None = None,
        give_fds: bool = False,
        inprocess: str | None = None,
        watch: tuple[int, int] | None = None,
    ) -> RunResult:
        """Run ``argv`` (paths as seen inside the sandbox). ``stdin``: a file or a descriptor
        (default: empty). ``stdout``: a file to write (up to the output limit), a descriptor,
        or None to capture it in the result. ``stdout_direct`` hands the descriptor to the
        program itself (a pipe to an interactive validator), uncounted. With ``give_fds``
        the descriptors passed in are closed here once the server has them. ``inprocess``
        names a Python main file (a sandbox path) to run in the server's own forked
        interpreter instead of executing ``argv[0]``; ``argv[1:]`` are its arguments."""
        close: list[int] = []
        try:
            stdin_fd = self._fd(stdin, os.O_RDONLY, close)
            capture = stdout is None
            if capture:
                out = os.memfd_create("stdout")
                close.append(out)
            else:
                out = self._fd(stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, close)
            request: dict[str, Any] = {
                **self._request(argv, limits, binds, cwd, inprocess is not None),
                "env": {**ENV, **(env or {})},
                "stderr_cap": limits.stderr_bytes,
                "stdout_direct": stdout_direct,
                "inprocess": inprocess,
            }
            given = [fd for fd in (stdin, stdout, *(watch or ())) if isinstance(fd, int)]
            reply = self._call(request, [stdin_fd, out, *(watch or ())], given if give_fds else [])
            captured = b""
            if capture:
                os.lseek(out, 0, os.SEEK_SET)
                captured = _read_fd(out)
            return result_from_reply(reply, limits, captured)
        finally:
            for fd in close:
                os.close(fd)

    def _request(
        self, argv: Sequence[str], limits: Limits, binds: Sequence[Bind], cwd: str, stdlib: bool
    ) -> dict[str, Any]:
        """The parts of a request that describe the program, its files and its limits."""
        bind_list = [[b.source, b.target, b.writable] for b in binds]
        if stdlib:  # in-process Python imports from the server's standard library
            bind_list += [[d, d, False] for d in self.stdlib]
        return {
            "argv": list(argv),
            "cwd": cwd,
            "binds": bind_list,
            "cpu": limits.cpu_seconds,
            "wall": limits.wall,
            "memory": limits.memory_bytes,
            "output": limits.output_bytes,
            "tasks": limits.processes,
            "file_bytes": limits.file_bytes,
        }

    @staticmethod
    def _fd(target: Path | int | None, flags: int, close: list[int]) -> int:
        if isinstance(target, int):
            return target
        fd = os.open(target if target is not None else os.devnull, flags, 0o644)
        close.append(fd)
        return fd

    def _call(
        self,
        request: dict[str, Any],
        fds: list[int],
        give: list[int],
        sent: list[int] | None = None,
    ) -> dict[str, Any]:
        """Send a request, return the reply; descriptors sent back go into ``sent``."""
        try:
            with self._send_lock:
                send_message(self.sock, request, fds)
            for fd in give:
                os.close(fd)
            reply, back = recv_message(self.sock)
        except OSError as exc:
            raise SandboxError(f"lost the sandbox server: {exc}") from exc
        if sent is not None:
            sent.extend(back)
        else:
            for fd in back:
                os.close(fd)
        if reply is None:
            raise SandboxError("the sandbox server stopped")
        if "error" in reply:
            raise SandboxError(str(reply["error"]))
        return reply

    @contextmanager
    def session(
        self,
        *,
        limits: Limits,
        binds: Sequence[Bind] = (),
        cwd: str = "/work",
        inprocess: bool = False,
        lean: bool = False,
    ) -> Iterator[Sandbox]:
        """Keep one jail for many runs of one program (its tests, in order): each run then
        costs a fork, not a new sandbox. Runs inside use these binds, cwd and memory; the
        scratch directories are emptied between runs. With ``lean`` (full isolation only)
        :meth:`run_lean` talks to the jail directly, without the server in between."""
        sent: list[int] = []
        request = {"open": self._request(["true"], limits, binds, cwd, inprocess), "lean": lean}
        self._call(request, [], [], sent)
        self.lean = socket.socket(fileno=sent[0]) if sent else None
        try:
            yield self
        finally:
            if self.lean is not None:
                self.lean.close()
                self.lean = None
            self._call({"close": True}, [], [])

    def run_program(
        self,
        exe: Executable,
        args: Sequence[str] = (),
        *,
        limits: Limits,
        memory_mb: int | None = None,
        binds: Sequence[Bind] = (),
        **kw: Any,
    ) -> RunResult:
        """Run a built program with extra arguments; Python programs run in-process when
        the versions match. ``memory_mb`` is what the program is told (the JVM's heap)."""
        fast = exe.inprocess and self.python_matches()
        return self.run(
            [*exe.argv(memory_mb or limits.memory_bytes >> 20), *args],
            limits=limits,
            binds=[*exe.binds(), *binds],
            inprocess=exe.inprocess_main() if fast else None,
            **kw,
        )

    def python_matches(self) -> bool:
        """Whether ``python3`` inside the sandbox is the server's own Python version, so a
        Python 3 program may run in-process (checked once per sandbox)."""
        if self._python_matches is None:
            probe = self.run(
                ["python3", "-S", "-c", "import sys; print(*sys.version_info[:2])"],
                limits=Limits(cpu_seconds=5, memory_bytes=256 << 20),
            )
            found = tuple(int(x) for x in probe.stdout.split()) if probe.ok else ()
            self._python_matches = found == self.python[:2]
        return self._python_matches

    def kill(self) -> None:
        """End the current run early (from another thread); harmless when none runs."""
        with self._send_lock:
            send_message(self.sock, {"kill": True})

    def close(self) -> None:
        try:
            self.sock.close()
        finally:
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _read_fd(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def result_from_reply(reply: dict[str, Any], limits: Limits, stdout: bytes) -> RunResult:
    """A run's outcome from the accounting the server (or a jail's init) sent back."""
    killed = reply.get("killed_for")
    cpu = float(reply["cpu"])
    sig = reply.get("signal")
    code = reply.get("exit_code")
    if killed == "output":
        outcome = Outcome.OLE
    elif reply.get("oom"):
        outcome = Outcome.MLE
    elif killed in ("cpu", "wall") or cpu > limits.cpu_seconds or sig == 24:  # SIGXCPU
        outcome = Outcome.TLE
    elif sig is not None or code != 0:
        outcome = Outcome.RTE
    else:
        outcome = Outcome.OK
    return RunResult(
        outcome=outcome,
        exit_code=code,
        signal=sig,
        cpu_seconds=cpu,
        wall_seconds=float(reply["wall"]),
        peak_memory_bytes=int(reply["peak"]),
        output_bytes=int(reply["output_bytes"]),
        stdout=stdout,
        stderr=str(reply.get("stderr", "")).encode(),
        wall_killed=killed == "wall",
        judge_killed=killed == "judge",
        ended_at=float(reply.get("ended", 0.0)),
        first_closed=reply.get("first_closed"),
        isolation=str(reply.get("isolation", "")),
    )


def _warn_once(message: str) -> None:
    global _warned
    with _warn_lock:
        if _warned:
            return
        _warned = True
    warn_hook(message)


class SandboxPool:
    """``size`` sandboxes, one per concurrent run; started lazily, closed together."""

    def __init__(self, size: int, isolate: bool = True) -> None:
        self.size = size
        self.isolate = isolate
        self._free: queue.LifoQueue[Sandbox] = queue.LifoQueue()
        self._all: list[Sandbox] = []
        self._lock = threading.Lock()

    @contextmanager
    def sandbox(self) -> Iterator[Sandbox]:
        try:
            box = self._free.get_nowait()
        except queue.Empty:
            box = Sandbox(self.isolate)  # servers start in parallel, outside the lock
            with self._lock:
                self._all.append(box)
        try:
            yield box
        finally:
            self._free.put(box)

    def close(self) -> None:
        for box in self._all:
            box.close()
        self._all.clear()

    def __enter__(self) -> SandboxPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
