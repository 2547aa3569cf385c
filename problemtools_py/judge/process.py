"""One program run inside the sandbox server: fork, isolate, exec, watch, account."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import tempfile
import time
from typing import TYPE_CHECKING, Any

from problemtools_py.judge import inprocess, isolation
from problemtools_py.judge.cgroups import RunGroup
from problemtools_py.judge.protocol import recv_message

if TYPE_CHECKING:
    from problemtools_py.judge.server import Request, Server


class Run:
    """One program run: fork, isolate, exec, watch, account."""

    GRACE = 1.0  # seconds to wait for pipes to close once the program is gone

    def __init__(
        self, server: Server, req: Request, group: RunGroup | None, stdin_fd: int, stdout_fd: int
    ) -> None:
        self.server, self.req, self.group = server, req, group
        self.stdin_fd, self.stdout_fd = stdin_fd, stdout_fd
        self.output = 0
        self.stderr = bytearray()
        self.inner_pid: int | None = None
        self.final: dict[str, Any] | None = None
        self.killed_for: str | None = None
        self.exited: tuple[int, Any] | None = None  # (wait status, rusage) of the direct child
        self.ended_at: float | None = None
        self.killed_at: float | None = None

    def execute(self) -> dict[str, Any]:
        req = self.req
        status_r, status_w = os.pipe()
        err_r, err_w = os.pipe()
        out_r, out_w = (-1, self.stdout_fd) if req.stdout_direct else os.pipe()
        exec_r, exec_w = os.pipe2(os.O_CLOEXEC)
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            self._child(status_w, out_w, err_w, exec_w)
        for fd in (status_w, err_w, exec_w, self.stdin_fd) + (
            (out_w,) if out_w != self.stdout_fd else ()
        ):
            os.close(fd)
        if req.stdout_direct:
            os.close(self.stdout_fd)  # the program's own now: its reader must see it close
        try:
            self._watch(pid, start, status_r, err_r, out_r)
        finally:
            if not req.stdout_direct:
                os.close(self.stdout_fd)
        wall = time.monotonic() - start
        if not self.server.mode.namespaces:
            _kill_group(pid)  # nothing of the run may survive it
        if self.exited is None:
            _, status, usage = os.wait4(pid, 0)
            self.exited = (status, usage)
        exec_error = _read_all(exec_r)
        for fd in (status_r, err_r, exec_r) + (() if req.stdout_direct else (out_r,)):
            os.close(fd)
        return self._result(wall, exec_error)

    # -- child side ---------------------------------------------------------------
    def _child(self, status_w: int, out_w: int, err_w: int, exec_w: int) -> None:
        try:
            keep = {status_w, out_w, err_w, exec_w, self.stdin_fd, self.stdout_fd}
            _close_all_but(keep)
            if self.server.mode.namespaces:
                self._outer(status_w, out_w, err_w, exec_w)
            else:
                os.setsid()
                os.close(status_w)
                self._fallback(out_w, err_w, exec_w)
        except BaseException as exc:
            _write_quietly(exec_w, f"sandbox setup failed: {exc}")
        os._exit(127)

    def _outer(self, status_w: int, out_w: int, err_w: int, exec_w: int) -> None:
        """The process outside the run's namespaces: starts its init and waits for it."""
        isolation.unshare(
            isolation.CLONE_NEWNS
            | isolation.CLONE_NEWPID
            | isolation.CLONE_NEWIPC
            | isolation.CLONE_NEWUTS
        )
        isolation.prctl(isolation.PR_SET_CHILD_SUBREAPER, 1)
        init = os.fork()
        if init == 0:
            try:
                self._init(status_w, out_w, err_w, exec_w)
            except BaseException as exc:
                _write_quietly(exec_w, f"sandbox setup failed: {exc}")
            os._exit(127)
        os.write(status_w, f"pid {init}\n".encode())
        _close_all_but(set())
        while True:  # the init, then whatever the end of the namespace left to us
            try:
                os.wait()
            except ChildProcessError:
                break
        os._exit(0)

    def _init(self, status_w: int, out_w: int, err_w: int, exec_w: int) -> None:
        """PID 1 of the run's namespace: builds the private root, starts the program, reaps
        every orphan, and reports the program's status. When it exits, the kernel kills
        everything left in the namespace. (The program is not PID 1 itself, because PID 1
        cannot be killed by its own signals, so abort() would not end it.)"""
        isolation.prctl(isolation.PR_SET_PDEATHSIG, signal.SIGKILL)
        join = [os.open(p, os.O_WRONLY) for p in self.group.join_paths()] if self.group else []
        isolation.build_root(
            isolation.RootSpec(
                self.server.root_dir, self.req.cwd, tuple(self.req.binds), self.req.file_bytes
            )
        )
        program = os.fork()
        if program == 0:
            try:
                os.close(status_w)
                self._program(self.req.argv, out_w, err_w, exec_w, join)
            except BaseException as exc:
                _write_quietly(exec_w, f"sandbox setup failed: {exc}")
            os._exit(127)
        _close_all_but({status_w})
        while True:
            pid, status, usage = os.wait4(-1, 0)
            if pid == program:
                break
        os.write(
            status_w,
            json.dumps(
                {
                    "status": status,
                    "utime": usage.ru_utime,
                    "stime": usage.ru_stime,
                    "maxrss": usage.ru_maxrss,
                    "ended": time.monotonic(),
                }
            ).encode(),
        )
        os._exit(0)

    def _fallback(self, out_w: int, err_w: int, exec_w: int) -> None:
        """Without namespaces: host paths for the sandbox paths, a session to kill."""
        req = self.req
        argv = [_translate(a, req.binds) for a in req.argv]
        inside = any(req.cwd == b.target or req.cwd.startswith(b.target + "/") for b in req.binds)
        cwd = (
            _translate(req.cwd, req.binds)
            if inside
            else tempfile.mkdtemp(dir=self.server.host_cwd_base)
        )
        os.chdir(cwd)
        self._program(argv, out_w, err_w, exec_w, [])

    def _program(
        self, argv: list[str], out_w: int, err_w: int, exec_w: int, join: list[int]
    ) -> None:
        req = self.req
        isolation.set_limits(req.cpu, req.file_bytes, None if self.group else req.memory)
        os.dup2(self.stdin_fd, 0)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        if self.server.mode.namespaces:
            isolation.drop_privileges()
        _close_all_but({0, 1, 2, exec_w, *join})
        for fd in join:  # join the run's cgroups last: only the program itself is measured
            os.write(fd, b"0")
            os.close(fd)
        if req.inprocess is not None:
            os.close(exec_w)  # what exec would have done: setup is over
            os.environ.clear()
            os.environ.update(req.env)
            os._exit(inprocess.run_main(req.inprocess, argv[1:]))
        os.execvpe(argv[0], argv, req.env)

    # -- server side --------------------------------------------------------------
    def _watch(self, pid: int, start: float, status_r: int, err_r: int, out_r: int) -> None:
        sel = selectors.DefaultSelector()
        for fd in (status_r, err_r, out_r):
            if fd >= 0:
                os.set_blocking(fd, False)
                sel.register(fd, selectors.EVENT_READ)
        pipes = {fd for fd in (status_r, err_r, out_r) if fd >= 0}
        sel.register(self.server.sock, selectors.EVENT_READ, "judge")
        status_buf = b""
        while pipes:
            for key, _ in sel.select(0.01):
                if key.data == "judge":
                    self._judge_message(sel, pid)
                    continue
                fd = int(key.fd)
                chunk = _read_some(fd)
                if chunk is None:
                    continue
                if not chunk:
                    sel.unregister(fd)
                    pipes.discard(fd)
                elif fd == status_r:
                    status_buf = self._status(status_buf + chunk)
                elif fd == err_r:
                    self.stderr += chunk[: max(0, self.req.stderr_cap - len(self.stderr))]
                else:
                    self._stdout(chunk, pid)
            self._limits(pid, start)
            if self._gone(pid):
                break
        sel.close()
        if status_buf.strip():
            try:
                self.final = json.loads(status_buf)
            except ValueError:
                self.final = None

    def _judge_message(self, sel: selectors.BaseSelector, pid: int) -> None:
        """The judge may ask to end the run early (an interactive peer is done)."""
        msg, fds = recv_message(self.server.sock)
        for fd in fds:
            os.close(fd)
        if msg is None:  # the judge is gone: end the run and let the server exit
            sel.unregister(self.server.sock)
            self._kill(pid, "judge")
        elif "kill" in msg and self.killed_for is None:
            self._kill(pid, "judge")

    def _gone(self, pid: int) -> bool:
        """True once the program has ended and its pipes had their grace time to close."""
        if self.exited is None:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done == 0:
                return False
            self.exited = (status, usage)
            self.ended_at = time.monotonic()
        return self.ended_at is not None and time.monotonic() - self.ended_at > self.GRACE

    def _status(self, buf: bytes) -> bytes:
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            if line.startswith(b"pid "):
                self.inner_pid = int(line[4:])
        return buf

    def _stdout(self, chunk: bytes, pid: int) -> None:
        room = self.req.output - self.output
        self.output += len(chunk)
        if room > 0:
            _write_fully(self.stdout_fd, chunk[:room])
        if self.output > self.req.output and self.killed_for is None:
            self._kill(pid, "output")

    def _limits(self, pid: int, start: float) -> None:
        if self.killed_for is not None or self.exited is not None:
            return
        if time.monotonic() - start > self.req.wall:
            self._kill(pid, "wall")
        elif self.group is not None and self.group.cpu_seconds() > self.req.cpu:
            self._kill(pid, "cpu")

    def _kill(self, pid: int, reason: str) -> None:
        self.killed_for = reason
        self.killed_at = time.monotonic()
        if not self.server.mode.namespaces:
            _kill_group(pid)
            return
        # The namespace's init: when it dies, everything in the namespace dies.
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.inner_pid if self.inner_pid is not None else pid, signal.SIGKILL)

    def _result(self, wall: float, exec_error: bytes) -> dict[str, Any]:
        if exec_error:
            return {"error": exec_error.decode(errors="replace")}
        assert self.exited is not None
        if self.server.mode.namespaces:
            if self.final is None and self.killed_for is None:
                return {"error": "the sandbox lost track of the program"}
            final = self.final or {"status": signal.SIGKILL, "utime": 0, "stime": 0, "maxrss": 0}
            raw = int(final["status"])
            cpu_usage = float(final["utime"]) + float(final["stime"])
            maxrss = int(final["maxrss"])
            ended = float(final.get("ended", self.killed_at or time.monotonic()))
        else:
            raw, usage = self.exited
            cpu_usage, maxrss = usage.ru_utime + usage.ru_stime, usage.ru_maxrss
            ended = self.ended_at if self.ended_at is not None else time.monotonic()
        code = os.waitstatus_to_exitcode(raw)
        return {
            "exit_code": code if code >= 0 else None,
            "signal": -code if code < 0 else None,
            "cpu": self.group.cpu_seconds() if self.group else cpu_usage,
            "wall": wall,
            "ended": ended,
            "peak": self.group.peak_memory() if self.group else maxrss * 1024,
            "oom": bool(self.group and self.group.oom_killed()),
            "output_bytes": self.output,
            "killed_for": self.killed_for,
            "stderr": self.stderr.decode("utf-8", errors="replace"),
            "isolation": self.server.mode.label,
        }


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _close_all_but(keep: set[int]) -> None:
    low = 3
    for fd in sorted(k for k in keep if k >= 3):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 1 << 16)


def _translate(arg: str, binds: list[isolation.Bind]) -> str:
    for bind in binds:
        if arg == bind.target or arg.startswith(bind.target.rstrip("/") + "/"):
            return bind.source + arg[len(bind.target) :]
    return arg


def _read_some(fd: int) -> bytes | None:
    """A chunk; b"" at end of file; None when nothing is ready after all."""
    try:
        return os.read(fd, 1 << 16)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def _read_all(fd: int) -> bytes:
    data = b""
    while chunk := os.read(fd, 4096):
        data += chunk
    return data


def _write_fully(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _write_quietly(fd: int, text: str) -> None:
    with contextlib.suppress(OSError):
        os.write(fd, text.encode()[:4000])
