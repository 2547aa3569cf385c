"""The lean path of a session, for graders that run one Python program on many tests.

The session's init (PID 1 of the jail) also listens on a second socket whose other end the
sandbox server hands to the grader. A request there is one run: the grader sends stdin, the
write end of a stdout pipe and a stderr file, and reads the pipe itself (counting it
against the output limit); the init forks the program exactly as for any run (limits,
nobody, no new privileges, the session's cgroup), waits for it under the CPU and wall
limits, kills and reaps whatever it left, empties the scratch space, and answers with the
accounting. The server takes no part in the run, so a test costs one fork and a few
system calls instead of a round trip through a second process."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import time
import types
from typing import Any

from problemtools_py.judge.cgroups import counter
from problemtools_py.judge.protocol import recv_message, send_message
from problemtools_py.judge.results import Limits, RunResult

POLL_SECONDS = 0.02  # how often the CPU time of the whole tree is checked while it runs


class Stats:
    """The session cgroup's counters, from files opened before the jail's root was built."""

    def __init__(self, files: dict[str, tuple[str, str | None]]) -> None:
        self.keys: dict[str, str | None] = {}
        self.fds: dict[str, int] = {}
        for name, (path, key) in files.items():
            with contextlib.suppress(OSError):
                self.fds[name] = os.open(path, os.O_RDWR if name == "peak" else os.O_RDONLY)
                self.keys[name] = key

    def _read(self, name: str) -> int:
        fd = self.fds.get(name)
        if fd is None:
            return 0
        try:
            text = os.pread(fd, 1 << 14, 0).decode()
        except OSError:
            return 0
        return counter(text, self.keys[name])

    def cpu(self) -> float:
        if "cpu_usec" in self.fds:
            return self._read("cpu_usec") / 1e6
        return self._read("cpu_nsec") / 1e9

    def peak(self) -> int:
        return self._read("peak")

    def oom(self) -> int:
        return self._read("oom")

    def reset_peak(self) -> None:
        fd = self.fds.get("peak")
        if fd is not None:
            with contextlib.suppress(OSError):
                os.pwrite(fd, b"0", 0)

    def close(self) -> None:
        for fd in self.fds.values():
            os.close(fd)


def serve(sock: socket.socket, spec: Any, join: list[int], stats: Stats) -> bool:
    """Handle one request from the grader; False once it has gone away."""
    from problemtools_py.judge import jail

    msg, fds = recv_message(sock)
    if msg is None or len(fds) != 3:
        for fd in fds:
            os.close(fd)
        if msg is not None:
            send_message(sock, {"error": "a lean run takes stdin, stdout and stderr"})
        return msg is not None
    compiled = _compiled(str(msg["inprocess"])) if msg.get("inprocess") else None
    exec_r, exec_w = os.pipe2(os.O_CLOEXEC)
    cpu_before, oom_before = stats.cpu(), stats.oom()
    stats.reset_peak()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            run = jail.RunFds(fds[0], fds[1], fds[2], exec_w, -1)
            jail._program(msg, run, spec.file_bytes, spec.address_space, join, True, compiled)
        except BaseException as exc:
            jail._write_quietly(exec_w, f"sandbox setup failed: {exc}")
        os._exit(127)
    for fd in (*fds, exec_w):
        os.close(fd)
    limits = (float(msg["cpu"]), float(msg["wall"]))
    status, ended, killed = _wait(pid, start, limits, stats, cpu_before)
    jail._kill_all()
    jail._reap_all()
    jail._clean_scratch(spec.cwd)
    with os.fdopen(exec_r, "rb") as pipe:
        setup_error = pipe.read(4000)
    if setup_error:
        send_message(sock, {"error": setup_error.decode(errors="replace")})
        return True
    code = os.waitstatus_to_exitcode(status)
    send_message(
        sock,
        {
            "exit_code": code if code >= 0 else None,
            "signal": -code if code < 0 else None,
            "cpu": stats.cpu() - cpu_before,
            "wall": ended - start,
            "ended": ended,
            "peak": stats.peak(),
            "oom": stats.oom() > oom_before,
            "killed_for": killed,
        },
    )
    return True


_COMPILED: dict[str, tuple[bytes, types.CodeType]] = {}


def _compiled(path: str) -> types.CodeType | None:
    """The main file compiled once for all of a completion's tests: reused while the file
    holds the same bytes (compared in full: timestamps are too coarse to tell two quick
    completions of one size apart). None when the program should compile it itself:
    unreadable to the sandbox user, or not valid Python (its own run reports that)."""
    try:
        if not os.stat(path).st_mode & 0o004:
            return None
        with open(path, "rb") as handle:
            source = handle.read()
        cached = _COMPILED.get(path)
        if cached is None or cached[0] != source:
            _COMPILED.clear()  # one program at a time
            _COMPILED[path] = cached = (source, compile(source, path, "exec"))
        return cached[1]
    except (OSError, SyntaxError, ValueError):
        return None


def _wait(
    pid: int, start: float, limits: tuple[float, float], stats: Stats, cpu_before: float
) -> tuple[int, float, str | None]:
    """Wait for the program under the wall limit and the CPU limit of its whole process
    tree (RLIMIT_CPU covers the program alone); (wait status, end time, why killed)."""
    cpu, wall = limits
    pidfd = os.pidfd_open(pid)
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    killed: str | None = None
    try:
        while not poller.poll(POLL_SECONDS * 1000):
            now = time.monotonic()
            if killed is None and now - start > wall:
                killed = "wall"
            elif killed is None and stats.cpu() - cpu_before > cpu:
                killed = "cpu"
            if killed is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(-1, signal.SIGKILL)
    finally:
        os.close(pidfd)
    _, status, _ = os.wait4(pid, 0)
    return status, time.monotonic(), killed


def run(
    sock: socket.socket,
    argv: list[str],
    env: dict[str, str],
    limits: Limits,
    stdin: int,
    inprocess: str | None,
    isolation: str,
) -> RunResult:
    """The grader's side of a lean run: ``stdin`` is a descriptor (kept open); stdout is
    read here, up to the output limit (past it the pipe is closed and the run is an output
    limit); the last ``limits.stderr_bytes`` of stderr are kept."""
    from problemtools_py.judge.sandbox import SandboxError, result_from_reply

    out_r, out_w = os.pipe()
    err = os.memfd_create("stderr")
    try:
        message = {
            "argv": argv,
            "env": env,
            "cpu": limits.cpu_seconds,
            "wall": limits.wall,
            "inprocess": inprocess,
        }
        send_message(sock, message, [stdin, out_w, err])
        os.close(out_w)
        out_w = -1
        stdout, over = _read_limited(out_r, limits.output_bytes)
        os.close(out_r)
        out_r = -1
        reply, _ = recv_message(sock)
        if reply is None:
            raise SandboxError("the sandbox's jail stopped")
        if "error" in reply:
            raise SandboxError(str(reply["error"]))
        size = os.fstat(err).st_size
        tail = os.pread(err, limits.stderr_bytes, max(0, size - limits.stderr_bytes))
    except OSError as exc:
        raise SandboxError(f"lost the sandbox's jail: {exc}") from exc
    finally:
        for fd in (out_r, out_w, err):
            if fd >= 0:
                os.close(fd)
    reply.update(
        output_bytes=len(stdout) + over,
        killed_for="output" if over else reply.get("killed_for"),
        stderr=tail.decode("utf-8", errors="replace"),
        isolation=isolation,
    )
    return result_from_reply(reply, limits, stdout)


def _read_limited(fd: int, limit: int) -> tuple[bytes, int]:
    """Everything up to ``limit`` bytes, and 1 when there was more (then we stop reading)."""
    chunks: list[bytes] = []
    size = 0
    while chunk := os.read(fd, 1 << 16):
        size += len(chunk)
        if size > limit:
            chunks.append(chunk[: len(chunk) - (size - limit)])
            return b"".join(chunks), 1
        chunks.append(chunk)
    return b"".join(chunks), 0
