"""One program run, as the sandbox server sees it: start it (in a jail, or plainly),
read its output and errors, enforce the limits, and account for it."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import socket
import time

from problemtools_py.sandbox.cgroups import RunGroup
from problemtools_py.sandbox.inside import RunFds
from problemtools_py.sandbox.jail import Jail, spawn_plain
from problemtools_py.sandbox.protocol import (
    Reply,
    Request,
    error_message,
    program_spec,
    recv_message,
    to_wire,
)
from problemtools_py.sandbox.records import NamedTuple

TYPE_CHECKING = False  # (not typing's: the sandbox server imports no more than it uses)
if TYPE_CHECKING:
    from typing import Any


class RunPlace(NamedTuple):
    """What a run needs of the server that starts it."""

    client: socket.socket  # the judge's socket: it may ask to end the run early
    isolation: str  # the server's isolation label, reported with every run
    scratch_base: str  # where runs without a jail get their working directories


class Run:
    GRACE = 1.0  # seconds to wait for pipes to close once the program is gone

    def __init__(
        self,
        place: RunPlace,
        req: Request,
        jail: Jail | None,
        group: RunGroup | None,
        stdio: tuple[int, int],
        watch: tuple[int, ...] = (),
    ) -> None:
        self.place, self.req, self.jail, self.group = place, req, jail, group
        self.stdin_fd, self.stdout_fd = stdio
        self.watch = watch
        self.output = 0
        self.stderr = bytearray()
        self.final: dict[str, Any] | None = None
        self.killed_for: str | None = None
        self.killed_at: float | None = None
        self.queued: float | None = None  # wall-killed: how long it waited for a CPU
        self.pid: int | None = None  # the program itself, without a jail
        self.exited: tuple[int, Any] | None = None
        self.ended_at: float | None = None
        self.cpu_before = group.cpu_seconds() if group else 0.0
        self.oom_before = group.oom_kills() if group else 0
        self.full_before = group.task_limit_hits() if group else 0

    def execute(self) -> dict[str, Any]:
        req = self.req
        status_r, status_w = os.pipe()
        err_r, err_w = os.pipe()
        out_r, out_w = (-1, self.stdout_fd) if req.stdout_direct else os.pipe()
        exec_r, exec_w = os.pipe2(os.O_CLOEXEC)
        fds = RunFds(self.stdin_fd, out_w, err_w, exec_w, status_w)
        message = program_spec(req)
        if self.group is not None:
            self.group.reset_peak()
        start = time.monotonic()
        if self.jail is not None:
            self.jail.start(message, fds, self.watch)
        else:
            self.pid = spawn_plain(
                message,
                fds,
                tuple(req.binds),
                req.cwd,
                req.file_bytes,
                req.memory_bytes,
                self.place.scratch_base,
            )
        for fd in {status_w, err_w, exec_w, out_w, self.stdin_fd, *self.watch}:
            os.close(fd)
        try:
            self._watch(start, status_r, err_r, out_r)
        finally:
            if not req.stdout_direct:
                os.close(self.stdout_fd)
        wall = time.monotonic() - start
        if self.pid is not None:
            _kill_group(self.pid)  # nothing of the run may survive it
            if self.exited is None:
                _, status, usage = os.wait4(self.pid, 0)
                self.exited = (status, usage)
        exec_error = _read_all(exec_r)
        for fd in (status_r, err_r, exec_r) + (() if req.stdout_direct else (out_r,)):
            os.close(fd)
        return self._result(wall, exec_error)

    def _watch(self, start: float, status_r: int, err_r: int, out_r: int) -> None:
        sel = selectors.DefaultSelector()
        pipes = {fd for fd in (status_r, err_r, out_r) if fd >= 0}
        for fd in pipes:
            os.set_blocking(fd, False)
            sel.register(fd, selectors.EVENT_READ)
        sel.register(self.place.client, selectors.EVENT_READ, "judge")
        status = b""
        while pipes:
            for key, _ in sel.select(0.01):
                if key.data == "judge":
                    self._judge_message(sel)
                    continue
                fd = int(key.fd)
                chunk = _read_some(fd)
                if chunk is None:
                    continue
                if not chunk:
                    sel.unregister(fd)
                    pipes.discard(fd)
                    if fd == status_r and self.jail is not None:
                        self._ended()  # the init closes it once it has reported
                elif fd == status_r:
                    status += chunk
                elif fd == err_r:
                    self.stderr += chunk[: max(0, self.req.stderr_bytes - len(self.stderr))]
                else:
                    self._stdout(chunk)
            self._limits(start)
            if self._gone():
                break
        sel.close()
        with contextlib.suppress(ValueError):
            self.final = json.loads(status) if status.strip() else None

    def _ended(self) -> None:
        if self.ended_at is None:
            self.ended_at = time.monotonic()

    def _judge_message(self, sel: selectors.BaseSelector) -> None:
        """The judge may ask to end the run early (an interactive peer is done)."""
        msg, fds = recv_message(self.place.client)
        for fd in fds:
            os.close(fd)
        if msg is None:  # the judge is gone: end the run and let the server exit
            sel.unregister(self.place.client)
            self._kill("judge")
        elif "kill" in msg and self.killed_for is None:
            self._kill("judge")

    def _gone(self) -> bool:
        """True once the program has ended and its pipes had their grace time to close."""
        if self.pid is not None and self.exited is None:
            done, status, usage = os.wait4(self.pid, os.WNOHANG)
            if done == 0:
                return False
            self.exited = (status, usage)
            self._ended()
        return self.ended_at is not None and time.monotonic() - self.ended_at > self.GRACE

    def _stdout(self, chunk: bytes) -> None:
        room = self.req.output_bytes - self.output
        self.output += len(chunk)
        if room > 0:
            _write_fully(self.stdout_fd, chunk[:room])
        over = self.output > self.req.output_bytes
        if over and self.killed_for is None and not self.req.truncate_output:
            self._kill("output")

    def _limits(self, start: float) -> None:
        if self.killed_for is not None or self.ended_at is not None:
            return
        if time.monotonic() - start > self.req.wall_seconds:
            self._kill("wall")
        elif (
            self.group is not None
            and self.group.cpu_seconds() - self.cpu_before > self.req.cpu_seconds
        ):
            self._kill("cpu")

    def _kill(self, reason: str) -> None:
        if reason == "wall" and self.group is not None:  # (starved, or did it sleep?)
            self.queued = self.group.queued_seconds()
        self.killed_for = reason
        self.killed_at = time.monotonic()
        if self.jail is not None:
            self.jail.kill()
        elif self.pid is not None:
            _kill_group(self.pid)

    def _queued_at_end(self) -> float | None:
        value = (self.final or {}).get("queued")
        return float(value) if isinstance(value, int | float) else None

    def _result(self, wall: float, exec_error: bytes) -> dict[str, Any]:
        if exec_error:
            return error_message(exec_error.decode(errors="replace"))
        if self.jail is not None:
            if self.final is None:
                # (an init that could not set the jail up said why)
                why = self.jail.setup_error() or "the sandbox lost track of the program"
                return error_message(why)
            raw = int(self.final["status"])
            cpu = float(self.final["utime"]) + float(self.final["stime"])
            maxrss = int(self.final["maxrss"])
            ended = float(self.final["ended"])
        else:
            assert self.exited is not None
            raw, usage = self.exited
            cpu, maxrss = usage.ru_utime + usage.ru_stime, usage.ru_maxrss
            ended = self.ended_at or time.monotonic()
        if self.killed_at is not None:
            ended = min(ended, self.killed_at)
        code = os.waitstatus_to_exitcode(raw)
        group = self.group
        reply = Reply(
            exit_code=code if code >= 0 else None,
            signal=-code if code < 0 else None,
            cpu_seconds=group.cpu_seconds() - self.cpu_before if group else cpu,
            wall_seconds=wall,
            ended=ended,
            peak_memory_bytes=group.peak_memory() if group else maxrss * 1024,
            oom=bool(group and group.oom_kills() > self.oom_before),
            tasks_full=bool(group and group.task_limit_hits() > self.full_before),
            killed_for=self.killed_for,
            output_bytes=self.output,
            first_closed=(self.final or {}).get("first_closed"),
            stderr=self.stderr.decode("utf-8", errors="replace"),
            isolation=self.place.isolation,
            # (at a wall-clock kill, of all its threads; else the program's own, at its end)
            queued_seconds=self.queued if self.queued is not None else self._queued_at_end(),
        )
        return to_wire(reply)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


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
