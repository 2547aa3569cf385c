"""The processes behind a sandboxed run.

A :class:`Jail` is a session: its init, forked by the server into a fresh PID namespace
(PID 1 there), enters fresh mount, IPC and UTS namespaces and builds the private root
once. For each run the init forks the program, which sets its limits, drops to the
sandbox user, joins the session's cgroup and executes (see :mod:`inside`). When the
program ends, the init kills whatever it left behind, reaps it, reports, and gives each
scratch directory the run changed a new file system (:func:`inside.renew_scratch`).
Consecutive runs of one program on many tests thus pay one fork
each, not a new sandbox.

Without namespaces, :func:`spawn_plain` starts the program in its own session instead."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import tempfile
import time

# leannative too, though only an init runs it: a forked init is a fork of this server,
# and a module it imported itself cost every jail ~1.3 ms of CPU (~350 pages copied).
from problemtools_py.sandbox import (  # noqa: F401
    identity,
    inprocess,
    inside,
    isolation,
    leannative,
    syscalls,
    zygote,
)
from problemtools_py.sandbox.counters import open_counters, queued_seconds
from problemtools_py.sandbox.inside import RunFds
from problemtools_py.sandbox.protocol import ENV, Bind, recv_message, send_message
from problemtools_py.sandbox.records import NamedTuple

TYPE_CHECKING = False  # (not typing's: the sandbox server imports no more than it uses)
if TYPE_CHECKING:
    from typing import Any


class JailSpec(NamedTuple):
    root_dir: str
    cwd: str
    binds: tuple[Bind, ...]
    file_bytes: int
    join_paths: tuple[str, ...]  # cgroup membership files the program joins
    address_space: int | None  # RLIMIT_AS when there is no memory cgroup
    stat_files: tuple[tuple[str, str, str | None], ...] = ()  # lean path: (name, path, key)
    native: str | None = None  # lean path: the C run loop's library, as the jail sees it
    forked_init: bool = False  # lean path: the init stays this fork (see zygote.serve_forked)
    cpuset: tuple[str, str] | None = None  # lean path: the group's cpuset.cpus, every core
    init_joins: tuple[str, ...] = ()  # cgroup membership files the init joins (see cgroups)


class Jail:
    """Server-side handle of a session."""

    def __init__(self, spec: JailSpec, lean: int | None = None) -> None:
        """``lean``: a socket the init also serves (see :mod:`lean`); this process's copy
        is closed here."""
        self.spec = spec
        parent, child = socket.socketpair()
        self.init_pid: int | None = None
        try:
            self.init_pid = _fork_init(spec, child.fileno(), lean)
        except OSError:  # (no PID namespace to be had: ``alive`` says so)
            pass
        finally:
            child.close()
            if lean is not None:
                os.close(lean)
        self.control = parent

    @property
    def alive(self) -> bool:
        return self.init_pid is not None

    def start(self, run: dict[str, Any], fds: RunFds, watch: tuple[int, ...] = ()) -> None:
        """Hand the run to the init. An init that is gone (it could not set the jail up)
        gets no run: why is written where a failed exec's error goes, so the run ends
        with it (its pipes close with the caller's ends)."""
        try:
            send_message(
                self.control,
                run,
                [fds.stdin, fds.stdout, fds.stderr, fds.exec_error, fds.status, *watch],
            )
        except OSError as exc:
            why = (
                self.setup_error()
                or f"sandbox setup failed: its init ended ({exc.strerror or exc})"
            )
            inside.write_quietly(fds.exec_error, why)

    def setup_error(self) -> str | None:
        """``sandbox setup failed: ...`` with what the init said of a failure to set the
        jail up, when it said so before it ended (see _fork_init); None otherwise, never
        waiting."""
        try:
            self.control.setblocking(False)
            msg, fds = recv_message(self.control)
        except (OSError, ValueError):  # (nothing sent: BlockingIOError)
            return None
        finally:
            with contextlib.suppress(OSError):
                self.control.setblocking(True)
        for fd in fds:
            os.close(fd)
        return (
            f"sandbox setup failed: {msg['setup_error']}" if msg and "setup_error" in msg else None
        )

    def kill(self) -> None:
        """Kill the current program and everything it started (the init stays)."""
        if self.init_pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.init_pid, signal.SIGUSR1)

    def close(self) -> None:
        self.control.close()
        if self.init_pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.init_pid, signal.SIGKILL)
            os.waitpid(self.init_pid, 0)  # (PID 1's end waits for all else in its namespace)


def _fork_init(spec: JailSpec, control: int, lean: int | None) -> int:
    """Fork the session's init straight into a new PID namespace, as its PID 1: the
    namespace is this thread's for its next child only, and set back at once. (An outer
    process that unshared and forked the init cost every jail a fork of this server and
    its end: ~3 ms of CPU.) The init enters its own mount, IPC and UTS namespaces."""
    own = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
    try:
        syscalls.unshare(syscalls.CLONE_NEWPID)
        try:
            pid = os.fork()
            if pid == 0:
                try:
                    kept = {control, lean, identity.lease_fd()}  # (the lease: see identity)
                    inside.close_all_but({fd for fd in kept if fd is not None})
                    _init(spec, control, lean)
                except BaseException as exc:  # (the server reads it: Jail.setup_error)
                    with contextlib.suppress(BaseException):
                        send_message(socket.socket(fileno=control), {"setup_error": str(exc)})
                finally:
                    os._exit(127)
        finally:
            syscalls.setns(own, syscalls.CLONE_NEWPID)
    finally:
        os.close(own)
    return pid


def _init(spec: JailSpec, control_fd: int, lean_fd: int | None) -> None:
    """PID 1 of the session. (Programs are never PID 1 themselves: PID 1 ignores its own
    fatal signals, so abort() would not end it.) A lean session's init becomes a fresh
    interpreter once the root is built (see :mod:`zygote`), or with ``forked_init`` serves
    its runs in this process."""
    syscalls.prctl(syscalls.PR_SET_PDEATHSIG, signal.SIGKILL)  # (the server is one thread)
    syscalls.unshare(syscalls.CLONE_NEWNS | syscalls.CLONE_NEWIPC | syscalls.CLONE_NEWUTS)
    # Inherited by every program (and across exec): no setuid binary or file capability
    # gives a program back what it loses when it becomes the sandbox user.
    syscalls.prctl(syscalls.PR_SET_NO_NEW_PRIVS, 1)
    setup = inside.Setup(
        spec.cwd,
        spec.file_bytes,
        spec.address_space,
        [os.open(path, os.O_WRONLY) for path in spec.join_paths],
    )
    counters = open_counters({name: (path, key) for name, path, key in spec.stat_files})
    for path in spec.init_joins:  # (its programs with it, forked from it)
        joined = os.open(path, os.O_WRONLY)
        try:
            os.write(joined, b"0")
        finally:
            os.close(joined)
    cpuset = (os.open(spec.cpuset[0], os.O_WRONLY), spec.cpuset[1]) if spec.cpuset else None
    isolation.build_root(isolation.RootSpec(spec.root_dir, spec.cwd, spec.binds, spec.file_bytes))
    scratch = inside.scratch_dirs(spec.cwd)
    inside.renew_scratch(scratch, spec.file_bytes, mounted=False)
    setup = setup._replace(scratch=tuple(scratch))
    # The init only waits and reports; real-time priority lets it note a program's end the
    # moment it happens, even on a busy machine (interactive verdicts depend on which of
    # submission and validator ended first). Programs go back to normal scheduling.
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_FIFO | os.SCHED_RESET_ON_FORK, os.sched_param(1))
    inside.install_filter()  # on the init, so on every program (kept across exec)
    if lean_fd is not None:
        config = zygote.lean_config(control_fd, lean_fd, setup, counters, spec.native, cpuset)
        if spec.forked_init:
            zygote.serve_forked(config, ENV)
        zygote.exec_lean_init(config, ENV)
    signal.signal(signal.SIGUSR1, inside.kill_all)  # the server's kill (Jail.kill)
    control = socket.socket(fileno=control_fd)
    while True:
        msg, fds = recv_message(control)
        if msg is None or len(fds) not in (5, 7):
            os._exit(0)
        run = RunFds(*fds[:5])
        watched = fds[5:]
        inprocess.before_fork()  # (O(1): an in-process run makes its __main__ itself)
        pid = os.fork()
        if pid == 0:
            try:
                signal.signal(signal.SIGUSR1, signal.SIG_DFL)
                inside.program(msg, run, setup, drop=True)
            except BaseException as exc:
                inside.write_quietly(run.exec_error, f"sandbox setup failed: {exc}")
            os._exit(127)
        for fd in (run.stdin, run.stdout, run.stderr, run.exec_error):
            os.close(fd)
        first = _first_closed(pid, watched) if watched else None
        report = _wait_for(pid)
        report["first_closed"] = first
        if inside.kill_all():
            inside.reap_all()
        os.write(run.status, json.dumps(report).encode())
        os.close(run.status)
        inside.renew_scratch(list(setup.scratch), setup.file_bytes)


def _first_closed(pid: int, watched: list[int]) -> str | None:
    """Interactive runs: which output pipe lost its writer first, the program's own
    ("own": watched[0]) or its peer's ("peer": watched[1]). These are read ends we only
    poll for hang-up. A causal order, unlike exit times: a program that dies because its
    peer closed the pipe always closes its own later. Once the peer is gone, what the
    program (the validator) still writes to it is read and dropped here: a validator that
    writes after the submission left is not killed by SIGPIPE, nor blocked on a full pipe
    (Kattis problemtools keeps that read end open too); it goes on to its verdict."""
    names = {watched[0]: "own", watched[1]: "peer"}
    pidfd = os.pidfd_open(pid)
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    for fd in watched:
        poller.register(fd, 0)  # hang-up and errors only
    first: str | None = None
    try:
        while names:
            events = dict(poller.poll())
            if events.get(watched[0], 0) & select.POLLIN:  # the peer left: drain ours
                with contextlib.suppress(BlockingIOError):
                    os.read(watched[0], 1 << 16)
            for fd in [fd for fd in names if events.get(fd, 0) & (select.POLLHUP | select.POLLERR)]:
                first = first or names[fd]
                poller.unregister(fd)
                os.close(fd)
                del names[fd]
                if fd == watched[1] and watched[0] in names:  # the peer is done reading ours
                    os.set_blocking(watched[0], False)
                    poller.modify(watched[0], select.POLLIN)
            if pidfd in events:
                break
    finally:
        for fd in names:
            os.close(fd)
        os.close(pidfd)
    return first


def _wait_for(pid: int) -> dict[str, Any]:
    """The program's end and accounting, with how long it waited, runnable, for a CPU
    (read from its scheduler statistics before it is reaped; None when they cannot be)."""
    queued = None
    with contextlib.suppress(ChildProcessError):
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
        queued = queued_seconds(pid)
    while True:
        try:
            done, status, usage = os.wait4(-1, 0)
        except ChildProcessError:
            return {
                "status": signal.SIGKILL,
                "utime": 0,
                "stime": 0,
                "maxrss": 0,
                "ended": time.monotonic(),
            }
        if done == pid:
            return {
                "status": status,
                "utime": usage.ru_utime,
                "stime": usage.ru_stime,
                "maxrss": usage.ru_maxrss,
                "ended": time.monotonic(),
                "queued": queued,
            }


def spawn_plain(
    run: dict[str, Any],
    fds: RunFds,
    binds: tuple[Bind, ...],
    cwd: str,
    file_bytes: int,
    memory: int,
    scratch_base: str,
) -> int:
    """Without namespaces: host paths for sandbox paths, a new session to kill, rlimits."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            bound = any(cwd == b.target or cwd.startswith(b.target + "/") for b in binds)
            os.chdir(translate(cwd, binds) if bound else tempfile.mkdtemp(dir=scratch_base))
            run = {**run, "argv": [translate(a, binds) for a in run["argv"]]}
            if run.get("inprocess"):
                run["inprocess"] = translate(str(run["inprocess"]), binds)
            signal.signal(signal.SIGUSR1, signal.SIG_DFL)
            inprocess.before_fork()  # (the server's heap is no garbage of the program's)
            inside.program(run, fds, inside.Setup(cwd, file_bytes, memory, []), drop=False)
        except BaseException as exc:
            inside.write_quietly(fds.exec_error, f"sandbox setup failed: {exc}")
        os._exit(127)
    return pid


def translate(arg: str, binds: tuple[Bind, ...]) -> str:
    for bind in binds:
        if arg == bind.target or arg.startswith(bind.target.rstrip("/") + "/"):
            return bind.source + arg[len(bind.target) :]
    return arg
