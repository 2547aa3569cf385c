"""What runs inside a jail once its root is built: the program's own process (limits,
descriptors, user, cgroup, then exec, or the Python main file in process), the init's
clean-up after each run, and the init of a lean session.

A lean session (one Python program graded on many tests, see :mod:`lean`) does not keep
the sandbox server's forked interpreter as its init: the init executes a fresh
``python3 -S -I`` that imports this module from a read-only bind of the judge's directory
and nothing it does not need. Every test forks the init, and the kernel's work for a fork,
for the program's copy-on-write faults and for its exit grows with what the init has
mapped: the server's heap (judge modules, ctypes, json, cgroups...) is about twice a bare
interpreter's with the preloaded modules, and a test cost twice the CPU with it.

Standard library only (and :mod:`inprocess`, :mod:`protocol`, which are too)."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import select
import signal
import socket
import time
import types
from typing import Any, NamedTuple

from problemtools_py.judge import inprocess
from problemtools_py.judge.protocol import recv_message, send_message

SANDBOX_UID = 65534  # nobody
SANDBOX_GID = 65534  # nogroup
POLL_SECONDS = 0.02  # how often the CPU time of the whole tree is checked while it runs
_ENVIRON: dict[str, str] = {}  # a lean init's environment (its programs inherit it)
MOUNT = "/.ptpy"  # the judge's directory is bound at MOUNT/problemtools_py/judge
BOOT = (
    f"import sys; sys.path.insert(0, {MOUNT!r}); from problemtools_py.judge import zygote; "
    "del sys.path[0]; zygote.main(sys.argv[1])"
)


class RunFds(NamedTuple):
    """Descriptors of one run, as the program will use them."""

    stdin: int
    stdout: int
    stderr: int
    exec_error: int  # close-on-exec: carries setup failures until exec
    status: int  # the init's report (jail only)


class Setup(NamedTuple):
    """What every run of a session shares."""

    cwd: str
    file_bytes: int
    address_space: int | None  # RLIMIT_AS when there is no memory cgroup
    join: list[int]  # cgroup.procs files (open) the program writes itself into
    streams: inprocess.Streams | None = None  # made once for in-process runs (lean)


def set_limits(cpu_seconds: float, file_bytes: int, address_space: int | None) -> None:
    """Per-process limits: a CPU-time hard stop just above the limit (the server measures
    and kills the whole run first), file size, no core dumps, a large stack."""
    cpu = int(cpu_seconds) + 2
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if address_space is not None:
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        stack = min(address_space // 2, 1 << 30)
    else:
        stack = 1 << 30
    hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
    if hard == resource.RLIM_INFINITY or hard >= stack:
        resource.setrlimit(resource.RLIMIT_STACK, (stack, hard))


def program(
    run: dict[str, Any],
    fds: RunFds,
    setup: Setup,
    drop: bool,
    code: types.CodeType | None = None,
) -> None:
    """The program's own process: limits, descriptors, user, cgroup, then exec (or, in
    process, the Python main file: ``code`` when the caller compiled it already). The
    caller's process has no-new-privileges set already; it is inherited, and so are its
    signal handlers until exec (an in-process run's parent has none)."""
    # (the init's real-time policy is not inherited: it is set with SCHED_RESET_ON_FORK)
    set_limits(float(run["cpu"]), setup.file_bytes, setup.address_space)
    os.dup2(fds.stdin, 0)
    os.dup2(fds.stdout, 1)
    os.dup2(fds.stderr, 2)
    if drop:
        os.setgroups([])
        os.setgid(SANDBOX_GID)
        os.setuid(SANDBOX_UID)
    close_all_but({0, 1, 2, fds.exec_error, *setup.join})
    # Descriptors received over a socket lose close-on-exec: set it again, or the program
    # could write into the setup-error pipe and pass its own crash off as a judge error.
    os.set_inheritable(fds.exec_error, False)
    for fd in setup.join:  # join the cgroup last: only the program itself is measured
        os.write(fd, b"0")
        os.close(fd)
    argv, env = list(run["argv"]), dict(run["env"])
    if run.get("inprocess"):
        os.close(fds.exec_error)  # what exec would have done: setup is over
        if env != _ENVIRON:  # (os.environ's methods are Python: dozens of page faults)
            os.environ.clear()
            os.environ.update(env)
        main = str(run["inprocess"])
        args = argv[argv.index(main) + 1 :] if main in argv else []
        os._exit(inprocess.run_main(main, args, code, setup.streams))
    os.execvpe(argv[0], argv, env)


def close_all_but(keep: set[int]) -> None:
    low = 3
    for fd in sorted(k for k in keep if k >= 3):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 1 << 16)


def write_quietly(fd: int, text: str) -> None:
    with contextlib.suppress(OSError):
        os.write(fd, text.encode()[:4000])


def kill_all(*_: object) -> bool:
    """From PID 1: every other process of the namespace; False when there was none (not
    even a zombie: then there is nothing to reap)."""
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        return False
    return True


def reap_all() -> None:
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


def clean_scratch(cwd: str) -> None:
    """Empty the working directory and /tmp, so no run sees what an earlier one left.
    Only the jail's own scratch space (the root tmpfs) is emptied: a bound host directory
    (a compiler's output, a validator's feedback) and mount points under it stay."""
    device = os.stat("/").st_dev
    for directory in (cwd, "/tmp"):
        with contextlib.suppress(OSError):
            if os.stat(directory).st_dev != device:
                continue
            for entry in os.scandir(directory):
                if entry.stat(follow_symlinks=False).st_dev != device:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    import shutil  # rarely needed: kept out of a lean init's memory till then

                    with contextlib.suppress(RecursionError):
                        shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)


def counter(text: str, key: str | None = None) -> int:
    """The number in a cgroup file's text: its first word, or the value on the line
    ``key value`` (0 when absent)."""
    if key is None:
        return int(text.split()[0]) if text.strip() else 0
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == key:
            return int(parts[1])
    return 0


class Stats:
    """The session cgroup's counters, from files opened before the jail's root was built:
    name -> (descriptor, key within the file or None)."""

    def __init__(self, fds: dict[str, tuple[int, str | None]]) -> None:
        self.fds = fds
        # CPU seconds and OOM kills so far: nothing runs between two runs, so what one run
        # ended with is what the next one starts from (two fewer reads per run)
        self.counts = (self.cpu(), self.oom())

    @classmethod
    def open(cls, files: dict[str, tuple[str, str | None]]) -> Stats:
        fds: dict[str, tuple[int, str | None]] = {}
        for name, (path, key) in files.items():
            with contextlib.suppress(OSError):
                fds[name] = (os.open(path, os.O_RDWR if name == "peak" else os.O_RDONLY), key)
        return cls(fds)

    def _read(self, name: str) -> int:
        if name not in self.fds:
            return 0
        fd, key = self.fds[name]
        try:
            text = os.pread(fd, 1 << 14, 0).decode()
        except OSError:
            return 0
        return counter(text, key)

    def cpu(self) -> float:
        if "cpu_usec" in self.fds:
            return self._read("cpu_usec") / 1e6
        return self._read("cpu_nsec") / 1e9

    def peak(self) -> int:
        return self._read("peak")

    def oom(self) -> int:
        return self._read("oom")

    def remaining(self) -> bool:
        """Whether any process of a program is left (when unsure: yes): the cgroup counts
        every one, zombies included, until it is reaped. Asked instead of killing every
        time, which raises (ProcessLookupError) when there is nothing to kill."""
        if "tasks" not in self.fds:
            return True
        try:
            return os.pread(self.fds["tasks"][0], 64, 0).strip() != b"0"
        except OSError:
            return True

    def reset_peak(self) -> None:
        if "peak" in self.fds:
            with contextlib.suppress(OSError):
                os.pwrite(self.fds["peak"][0], b"0", 0)


def exec_lean_init(
    control: int, grader: int, setup: Setup, stats: Stats, env: dict[str, str]
) -> None:
    """Become the lean session's init: a fresh interpreter that runs :func:`main`."""
    config = {
        "control": control,
        "grader": grader,
        "cwd": setup.cwd,
        "file_bytes": setup.file_bytes,
        "address_space": setup.address_space,
        "join": setup.join,
        "stats": stats.fds,
        "stdlib_path": inprocess.stdlib_path(),
    }
    for fd in (control, grader, *setup.join, *(fd for fd, _ in stats.fds.values())):
        os.set_inheritable(fd, True)
    os.execvpe("python3", ["python3", "-S", "-I", "-c", BOOT, json.dumps(config)], env)


def main(config_text: str) -> None:
    """The lean session's init (PID 1 of the jail, its root built, no new privileges):
    serves runs from the grader until the server closes the control socket."""
    config = json.loads(config_text)
    inprocess.preload()
    inprocess.stdlib_path(config["stdlib_path"])
    _ENVIRON.update(os.environ)
    setup = Setup(
        config["cwd"],
        config["file_bytes"],
        config["address_space"],
        list(config["join"]),
        lean_streams(),
    )
    stats = Stats({name: (fd, key) for name, (fd, key) in config["stats"].items()})
    control = socket.socket(fileno=config["control"])
    grader: socket.socket | None = socket.socket(fileno=config["grader"])
    while True:
        waiting = [control] if grader is None else [control, grader]
        ready = select.select(waiting, [], [])[0]
        if control in ready:
            msg, fds = recv_message(control)
            for fd in fds:  # a lean session's runs come from the grader only
                os.close(fd)
            if msg is None:
                os._exit(0)
        if grader is not None and grader in ready and not serve(grader, setup, stats):
            grader.close()
            grader = None


def lean_streams() -> inprocess.Streams:
    """The programs' stream objects, made once on descriptors of the kinds a lean run's are
    (stdin and stderr memory files, stdout a pipe), so each program finds them made: made
    in the program, they cost it tens of copy-on-write faults. The init's own 0, 1 and 2
    are put back."""
    saved = [os.dup(fd) for fd in (0, 1, 2)]
    stdin, stderr = os.memfd_create("stdin"), os.memfd_create("stderr")
    out_r, out_w = os.pipe()
    try:
        for fd, target in ((stdin, 0), (out_w, 1), (stderr, 2)):
            os.dup2(fd, target)
        return inprocess.open_streams()
    finally:
        for target, fd in enumerate(saved):
            os.dup2(fd, target)
            os.close(fd)
        for fd in (stdin, stderr, out_r, out_w):
            os.close(fd)


def serve(sock: socket.socket, setup: Setup, stats: Stats) -> bool:
    """Handle one request from the grader; False once it has gone away."""
    msg, fds = recv_message(sock)
    if msg is None or len(fds) != 3:
        for fd in fds:
            os.close(fd)
        if msg is not None:
            send_message(sock, {"error": "a lean run takes stdin, stdout and stderr"})
        return msg is not None
    code = compiled(str(msg["inprocess"])) if msg.get("inprocess") else None
    exec_r, exec_w = os.pipe2(os.O_CLOEXEC)
    cpu_before, oom_before = stats.counts
    stats.reset_peak()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            program(msg, RunFds(fds[0], fds[1], fds[2], exec_w, -1), setup, True, code)
        except BaseException as exc:
            write_quietly(exec_w, f"sandbox setup failed: {exc}")
        os._exit(127)
    for fd in (*fds, exec_w):
        os.close(fd)
    limits = (float(msg["cpu"]), float(msg["wall"]))
    status, ended, killed = wait_run(pid, start, limits, stats, cpu_before)
    if stats.remaining() and kill_all():
        reap_all()
    clean_scratch(setup.cwd)
    stats.counts = (stats.cpu(), stats.oom())
    setup_error = os.read(exec_r, 4000)
    os.close(exec_r)
    if setup_error:
        send_message(sock, {"error": setup_error.decode(errors="replace")})
        return True
    code_or_signal = os.waitstatus_to_exitcode(status)
    send_message(
        sock,
        {
            "exit_code": code_or_signal if code_or_signal >= 0 else None,
            "signal": -code_or_signal if code_or_signal < 0 else None,
            "cpu": stats.counts[0] - cpu_before,
            "wall": ended - start,
            "ended": ended,
            "peak": stats.peak(),
            "oom": stats.counts[1] > oom_before,
            "killed_for": killed,
        },
    )
    return True


_COMPILED: dict[str, tuple[bytes, types.CodeType]] = {}


def compiled(path: str) -> types.CodeType | None:
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


def wait_run(
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
