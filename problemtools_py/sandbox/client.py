"""The one way to run a program: :meth:`Sandbox.run`, or :meth:`Sandbox.run_lean` in a lean
:meth:`Sandbox.session`.

A :class:`Sandbox` owns a small server process (:mod:`.server`) that runs one program at a
time in isolation; :class:`.pool.SandboxPool` hands one to each worker thread. When the machine
allows no real isolation (not root), the server falls back to resource limits and the
first sandbox of the process prints one clear warning.

A lean session's jail takes runs straight from this side: its init (PID 1 of the jail, a
fresh interpreter, see :mod:`.zygote`) listens on a socket whose other end the server
hands over when the session opens. This side sends stdin, the write end of a stdout pipe
and a stderr file, and reads the pipe itself (counting it against the output limit); the
init forks the program exactly as for any run, waits for it under the CPU and wall
limits, kills and reaps whatever it left, answers with the
accounting. A test then costs one fork and a few system calls instead of a round trip
through the server."""

from __future__ import annotations

import os
import socket
import stat
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from problemtools_py.sandbox import cores, native, stopping
from problemtools_py.sandbox.launch import Started, start_server
from problemtools_py.sandbox.lean import LeanLine, lean_call, lean_request
from problemtools_py.sandbox.processes import ServerProcess, SpawnedServer, exited_in_time
from problemtools_py.sandbox.protocol import (
    CLOSE,
    ENV,
    KILL,
    NO_ISOLATION,
    Bind,
    Request,
    hello_from_wire,
    open_message,
    recv_message,
    send_message,
    to_wire,
)
from problemtools_py.sandbox.results import Limits, RunResult, SandboxError, accounting

# What a root sandbox that could not isolate says (it runs nothing: see Server._probe).
REFUSED = (
    "the sandbox cannot isolate programs here (no {why}) and, as root, refuses to run them "
    f"with less: try again once the machine has recovered, or set {NO_ISOLATION}=1 to run "
    "them with resource limits only (never for untrusted code)"
)
_warned = False
_warn_lock = threading.Lock()


def _default_warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


WarnHook = Callable[[str], None]
warn_hook: WarnHook = _default_warn


class Sandbox:
    def __init__(
        self, isolate: bool = True, spawner: Sandbox | None = None, started: Started | None = None
    ) -> None:
        """A new server: a new interpreter, or with ``spawner`` (a sandbox that runs
        nothing else, see Server.spawn) a fork of that one's server, which starts in a
        millisecond with its imports and its probe's answers; or ``started``, a new
        interpreter started earlier (see launch.start_early), whose hello is read now."""
        if stopping.stopped():
            raise SandboxError("interrupted: no sandbox starts after Ctrl-C")
        if started is not None:
            self.proc: ServerProcess
            self.proc, parent = started
        else:
            parent = self._start(isolate, spawner)
        self.sock = parent
        self._owner = os.getpid()  # (a forked child holds copies: see _inherited)
        self._send_lock = threading.Lock()
        self._python_matches: bool | None = None
        self.lean: LeanLine | None = None  # the open session's direct line (see session)
        self.lean_loop = ""
        message, fds = recv_message(parent)
        if spawner is not None:  # (its pidfd comes with its hello)
            if message is None or len(fds) != 1:
                for fd in fds:
                    os.close(fd)
                parent.close()
                raise SandboxError("the sandbox server did not start")
            self.proc = SpawnedServer(int(message.get("pid", 0)), fds[0])
            stopping.track(self.proc)  # (a new interpreter is tracked by start_server)
        if message is None:
            self.close()
            raise SandboxError("the sandbox server did not start")
        hello = hello_from_wire(message)
        self.isolation = hello.isolation
        self.python = hello.python
        self.stdlib = hello.stdlib
        self.user = hello.user  # (uid, gid) its programs run as: this sandbox's alone
        if hello.jail_python is not None:  # (the server's own probe ran python3 in a jail)
            self._python_matches = hello.jail_python == self.python[:2]
        if self.isolation.startswith("refused"):
            self.close()
            raise SandboxError(REFUSED.format(why=self.isolation.partition(": no ")[2]))
        if self.isolation != "full":
            _warn_once(f"sandbox isolation is {self.isolation}")

    def _start(self, isolate: bool, spawner: Sandbox | None) -> socket.socket:
        """Start the server (see __init__); the judge's end of its line."""
        parent, child = socket.socketpair()
        try:
            if spawner is not None:
                spawner._spawn([child.fileno()])
            else:
                self.proc = start_server(child, isolate)
        except BaseException:
            parent.close()
            raise
        finally:
            child.close()
        return parent

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
            request = self._request(argv, limits, binds, cwd, inprocess is not None)._replace(
                env={**ENV, **(env or {})}, stdout_direct=stdout_direct, inprocess=inprocess
            )
            given = [fd for fd in (stdin, stdout, *(watch or ())) if isinstance(fd, int)]
            sent = [stdin_fd, out, *(watch or ())]
            reply = self._call(to_wire(request), sent, given if give_fds else [])
            captured = b""
            if capture:
                os.lseek(out, 0, os.SEEK_SET)
                captured = _read_fd(out)
            return RunResult.from_reply(accounting(reply), limits, captured)
        finally:
            for fd in close:
                os.close(fd)

    def _request(
        self,
        argv: Sequence[str],
        limits: Limits,
        binds: Sequence[Bind],
        cwd: str,
        stdlib: bool,
    ) -> Request:
        """The parts of a request that describe the program, its files and its limits."""
        binds = tuple(binds)
        if stdlib:  # in-process Python imports the server's standard library
            binds += tuple(Bind(d, d) for d in self.stdlib)
        return Request(
            argv=tuple(argv),
            cpu_seconds=limits.cpu_seconds,
            wall_seconds=limits.wall,
            memory_bytes=limits.memory_bytes,
            output_bytes=limits.output_bytes,
            cwd=cwd,
            binds=binds,
            tasks=limits.processes,
            file_bytes=limits.file_bytes,
            stderr_bytes=limits.stderr_bytes,
            truncate_output=limits.truncate_output,
            core=_leased_core(),
            unlimited_stack=limits.unlimited_stack,
        )

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
        if self._inherited():
            raise SandboxError(
                "this sandbox server is the parent process's; a forked process starts its own"
            )
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
        forked: bool = False,
    ) -> Iterator[Sandbox]:
        """Keep one jail for many runs of one program (its tests, in order): each run then
        costs a fork, not a new sandbox. Runs inside use these binds, cwd and memory; the
        scratch directories are new whenever a run changed them. With ``lean`` (full isolation and a
        memory cgroup only; see :attr:`lean_open`) runs go through :meth:`run_lean`,
        straight to the jail; otherwise through :meth:`run`. ``inprocess``: the session
        runs in-process Python (it binds the server's standard library). ``forked``: a lean
        jail's init is a fork of the server, not a fresh interpreter: ~45 ms less to open,
        a little more per run (for a jail of few runs)."""
        sent: list[int] = []
        request = self._request(["true"], limits, binds, cwd, inprocess)
        # (built on first use, here: see native; a forked init does not wait for a build)
        loop = native.library(wait=not forked) if lean else None
        opened = self._call(open_message(request, lean, loop, forked), [], [], sent)
        self.lean_loop = str(opened.get("loop") or "")  # "c" or "python" (see leanloop.c)
        self.lean = LeanLine(socket.socket(fileno=sent[0])) if sent else None
        try:
            yield self
        finally:
            if self.lean is not None:
                self.lean.close()
                self.lean = None
            if not self._inherited():  # (a fork's copy, finalized: the jail is not its)
                self._call(CLOSE, [], [])

    @property
    def lean_open(self) -> bool:
        """Whether the open session took its direct line (a lean one could be had)."""
        return self.lean is not None

    def renew_lean(self) -> None:
        """The open lean session's next run starts another completion: nothing of the
        programs it ran before is in that run's reach (issue 40; see renewal.keep)."""
        if self.lean is not None:
            self.lean.renew()

    def run_lean(
        self,
        argv: Sequence[str],
        *,
        limits: Limits,
        stdin: int,
        env: dict[str, str] | None = None,
        inprocess: str | None = None,
        core: int | None = None,
    ) -> RunResult:
        """One run in the open lean session. ``stdin`` is a memory file (memfd_create: the
        programs' streams are made for that kind) at its start, kept open; stdout is read
        here, up to the output limit (past it the pipe is closed and the run is an output
        limit); the last ``limits.stderr_bytes`` of stderr are kept. ``core``: run on this
        core (the caller's), else anywhere. The session's memory, files and cwd apply."""
        if self.lean is None:
            raise SandboxError("no lean session is open")
        if not stat.S_ISREG(os.fstat(stdin).st_mode):
            raise ValueError("a lean run's stdin must be a regular (memory) file")
        core = _leased_core() if core is None else core
        request = lean_request(argv, {**ENV, **(env or {})}, limits, inprocess, core)
        reply, stdout, stderr = lean_call(self.lean, request, stdin, limits)
        return RunResult.from_reply(
            reply._replace(stderr=stderr, isolation=self.isolation), limits, stdout
        )

    def _spawn(self, fds: list[int]) -> None:
        """Have this sandbox's server fork a new server talking on the socket ``fds[0]``
        (from then on it runs nothing itself: see Server.spawn)."""
        with self._send_lock:
            send_message(self.sock, {"spawn": True}, fds)
            reply, fds = recv_message(self.sock)
        for extra in fds:
            os.close(extra)
        if reply is None or "error" in reply:
            why = reply.get("error") if reply else "its server is gone"
            raise SandboxError(f"no new sandbox server: {why}")

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

    @property
    def alive(self) -> bool:
        """Whether its server still runs (a sandbox whose server died is replaced). Its
        line is looked at too: a killed server's end of it closes before the process can
        be reaped, and a run that failed on that is already over."""
        if self.proc.poll() is not None:
            return False
        try:  # (idle, nothing is on the line: end of file there is a dead server)
            return self.sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
        except BlockingIOError:
            return True
        except OSError:
            return False

    def kill(self) -> None:
        """End the current run early (from another thread); harmless when none runs."""
        if self._inherited():
            return
        with self._send_lock:
            send_message(self.sock, KILL)

    def close(self) -> None:
        """Stop the server (a forked child's copy: only its copy of the line closed)."""
        try:
            self.sock.close()
        finally:
            if not self._inherited():
                if not exited_in_time(self.proc, 5.0):
                    self.proc.kill()
                self.proc.wait()

    def _inherited(self) -> bool:
        """A forked child's copy (verl's PRIME pool): never speaks on the parent's line."""
        return os.getpid() != self._owner

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _leased_core() -> int:
    """The core this thread leases (see cores): its runs' programs may use no other."""
    core = cores.current()
    return -1 if core is None else core


def _read_fd(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _warn_once(message: str) -> None:
    global _warned
    with _warn_lock:
        if _warned:
            return
        _warned = True
    warn_hook(message)
