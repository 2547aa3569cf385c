"""The init of a lean session (one Python program graded on many tests, see :mod:`lean`).

It is not the sandbox server's forked interpreter: once the jail's root is built, the init
executes a fresh ``python3 -S -I`` that imports this module from a read-only bind of the
judge's directory, and nothing it does not need. Every test forks the init, and the
kernel's work for a fork, for the program's copy-on-write faults and for its exit grows
with what the init has mapped: the server's heap (judge modules, ctypes, json, cgroups...)
is about twice a bare interpreter's with the preloaded modules. Of those (PRELOAD) it
imports the ones its program names, when the program arrives: each is paid once, not per
run, and a session pays for no module its program does not use (typing, decimal...).

Per run it takes stdin, a stdout pipe and a stderr file from the grader, forks the program
(see :func:`inside.program`) on the grader's core, waits for it under the CPU and wall
limits, kills and reaps whatever it left, answers with the
accounting. Standard library only (and the judge modules it imports, which are too)."""

from __future__ import annotations

import marshal
import os
import select
import signal
import socket
import sys
import time

from problemtools_py.sandbox import identity, inprocess, pystart, renewal
from problemtools_py.sandbox.counters import Stats, queued_seconds
from problemtools_py.sandbox.inside import (
    CPUSET,
    LEAN_ENVIRON,
    RunFds,
    Setup,
    kill_all,
    pin,
    program,
    reap_all,
    remember_scratch,
    renew_scratch,
    start,
    write_quietly,
)
from problemtools_py.sandbox.mainfile import prepared, rehearse
from problemtools_py.sandbox.protocol import (
    LEAN_REQUEST,
    UNLIMITED_STACK,
    pack_lean_error,
    pack_lean_reply,
    read_lean_spec,
    recv_exact,
    recv_message,
    run_spec,
)

TYPE_CHECKING = False  # (not typing's: a lean init imports this module, see records)
if TYPE_CHECKING:
    from typing import Any

POLL_SECONDS = 0.02  # how often the CPU time of the whole tree is checked while it runs
MOUNT = "/.ptpy"  # the judge's directory is bound at MOUNT/problemtools_py/judge
BOOT = (
    f"import sys; sys.path.insert(0, {MOUNT!r}); from problemtools_py.sandbox import zygote; "
    "del sys.path[0]; zygote.main(sys.argv[1])"
)


def lean_config(
    control: int,
    grader: int,
    setup: Setup,
    counters: dict[str, tuple[int, str | None]],
    native: str | None = None,
    cpuset: tuple[int, str] | None = None,
) -> dict[str, Any]:
    """What a lean init is told: its descriptors, the jail's setup, its run loop in C when
    ``native`` (the loop's library, in the jail) is given, ``cpuset`` (see inside.pin)."""
    return {
        "control": control,
        "grader": grader,
        "cwd": setup.cwd,
        "file_bytes": setup.file_bytes,
        "address_space": setup.address_space,
        "join": setup.join,
        "stats": counters,
        "stdlib_path": pystart.stdlib_path(),
        "program_path": pystart.program_path(),
        "scratch": list(setup.scratch),
        "native": native,
        "user": identity.ids(),
        "cpuset": list(cpuset) if cpuset else None,
    }


def serve_forked(config: dict[str, Any], env: dict[str, str]) -> None:
    """Be the lean session's init in this very process (a fork of the sandbox server, its
    root built): no fresh interpreter to start (~45 ms), but a larger process to fork per
    run (the server's heap: a few hundred microseconds more). For a jail of few runs.
    Never returns."""
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # (as a fresh one has it)
        os.environ.clear()
        os.environ.update(env)
        run_init(config)
    finally:  # (no output: this process's standard streams are not its own)
        os._exit(0)


def exec_lean_init(config: dict[str, Any], env: dict[str, str]) -> None:
    """Become the lean session's init: a fresh interpreter that runs :func:`main`. Every
    run forks it, and it has only what a program needs mapped (see the module)."""
    counters: dict[str, tuple[int, str | None]] = config["stats"]
    cpuset = config["cpuset"]
    fds = (config["control"], config["grader"], *config["join"], *(cpuset[:1] if cpuset else ()))
    lease = identity.lease_fd()  # (held by the init too: see identity)
    for fd in (*fds, *(fd for fd, _ in counters.values()), *([lease] if lease is not None else [])):
        os.set_inheritable(fd, True)
    argv = ["python3", "-S", "-I", "-c", BOOT, marshal.dumps(config).hex()]  # (see protocol)
    # The server's own interpreter (the sandbox's python3, see launch.server_python), as
    # the jail sees it; else python3 on the jail's PATH.
    if sys.executable and os.access(sys.executable, os.X_OK):
        os.execve(sys.executable, argv, env)
    os.execvpe("python3", argv, env)


def main(config_text: str) -> None:
    """The lean session's init in a fresh interpreter: its config is marshalled by the
    server, which runs this very interpreter (exec_lean_init)."""
    run_init(marshal.loads(bytes.fromhex(config_text)))


def run_init(config: dict[str, Any]) -> None:
    """The lean session's init (PID 1 of the jail, its root built, no new privileges):
    serves runs from the grader until the server closes the control socket."""
    pystart.stdlib_path(config["stdlib_path"])
    pystart.program_path(config["program_path"])
    if os.geteuid() == 0:  # (a fresh interpreter: the lease is its server's)
        identity.adopt(*config["user"])
    LEAN_ENVIRON.update(os.environ)
    setup = Setup(
        config["cwd"],
        config["file_bytes"],
        config["address_space"],
        list(config["join"]),
        lean_streams(),
        tuple(config["scratch"]),
    )
    remember_scratch(setup.scratch)
    CPUSET[:] = [(found[0], found[1])] if (found := config.get("cpuset")) else []
    stats = Stats({name: (fd, key) for name, (fd, key) in config["stats"].items()})
    control = socket.socket(fileno=config["control"])
    grader = socket.socket(fileno=config["grader"])
    loaded = None
    if config.get("native"):
        from problemtools_py.sandbox import leannative

        loaded = leannative.load(config["native"], control, grader, setup, stats)

    def completions() -> None:  # (in a fresh fork of this init: see renewal)
        current = Current(setup)
        if loaded is not None:
            leannative.serve(loaded, control, grader, current, on_control)
        else:
            serve_python(control, grader, setup, stats, current)

    renewal.keep(completions, lambda: rehearse(renewal.WARM_UP, setup.streams))


def serve_python(
    control: socket.socket,
    grader_sock: socket.socket,
    setup: Setup,
    stats: Stats,
    current: Current,
) -> None:
    """The run loop in Python (no C compiler where the judge was installed); returns when
    another completion's first run is next (see renewal)."""
    grader: socket.socket | None = grader_sock
    while True:
        waiting = [control] if grader is None else [control, grader]
        ready = select.select(waiting, [], [])[0]
        if control in ready:
            on_control(control)
        if grader is None or grader not in ready:
            continue
        if current.served and renewal.fresh_next(grader):
            return
        if not serve(grader, setup, stats, current):
            grader.close()
            grader = None


def on_control(control: socket.socket) -> None:
    """A message from the server: the end when it closed the socket (a lean session's runs
    come from the grader only)."""
    msg, fds = recv_message(control)
    for fd in fds:
        os.close(fd)
    if msg is None:
        os._exit(0)


class Current:
    """The argv, environment and main file of the runs (sent when they change), and the
    main file made ready for them."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.argv: list[str] = []
        self.env: dict[str, str] = {}
        self.inprocess: str | None = None
        self.main: inprocess.Main | None = None
        self.ready = False  # main installed, the environment the init's own: the short way
        self.served = False  # a request was read: this process has held a program

    def update(self, spec: bytes) -> None:
        self.argv, self.env, self.inprocess = read_lean_spec(spec)
        self.main = None
        self.ready = False

    def prepare(self) -> None:
        """Compile the main file when it changed, and make it the interpreter's own."""
        self.main = prepared(self.inprocess, self.argv) if self.inprocess else None
        if self.main is not None:
            inprocess.install(self.main, self.setup.streams)
        self.ready = self.main is not None and self.env == LEAN_ENVIRON

    def run(self, cpu: float, unlimited_stack: bool = False) -> dict[str, Any]:
        return run_spec(self.argv, self.env, cpu, self.inprocess, unlimited_stack)

    def start(self, exec_error: int) -> None:
        """In a program's process set up by the C loop: the program (never returns). Each
        step here is a page or two to copy: what can be decided once is decided in
        prepare."""
        try:
            inprocess.reseed()
            if self.ready and self.main is not None and self.inprocess is not None:
                os.close(exec_error)  # what exec would have done: setup is over
                os._exit(inprocess.run_installed(self.main, self.inprocess))
            start(self.run(0.0), exec_error, self.setup, self.main, installed=True)
        except BaseException as exc:
            write_quietly(exec_error, f"sandbox setup failed: {exc}")
        os._exit(127)


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


def serve(sock: socket.socket, setup: Setup, stats: Stats, current: Current) -> bool:
    """Handle one request from the grader; False once it has gone away."""
    first, fds, _, _ = socket.recv_fds(sock, 1, 8)
    head = first + (recv_exact(sock, LEAN_REQUEST.size - 1) or b"") if first else b""
    cpu, wall, core, flags, spec_size = (
        LEAN_REQUEST.unpack(head) if len(head) == LEAN_REQUEST.size else (0, 0, 0, 0, 0)
    )
    spec = recv_exact(sock, spec_size) if spec_size else b""
    if len(head) != LEAN_REQUEST.size or spec is None:
        for fd in fds:
            os.close(fd)
        return False
    current.served = True
    if spec:
        current.update(spec)
    if len(fds) != 3:
        for fd in fds:
            os.close(fd)
        sock.sendall(pack_lean_error("a lean run takes stdin, stdout and stderr"))
        return True
    current.prepare()
    pin(core if core >= 0 else None)
    exec_r, exec_w = os.pipe2(os.O_CLOEXEC)
    before = stats.counts
    stats.reset_peak()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            run = RunFds(fds[0], fds[1], fds[2], exec_w, -1)
            given = current.run(cpu, bool(flags & UNLIMITED_STACK))
            program(given, run, setup, True, current.main)
        except BaseException as exc:
            write_quietly(exec_w, f"sandbox setup failed: {exc}")
        os._exit(127)
    for fd in (*fds, exec_w):
        os.close(fd)
    status, ended, killed, queued = wait_run(pid, start, (cpu, wall), stats, before[0])
    if stats.remaining() and kill_all():
        reap_all()
    stats.counts = stats.now()
    setup_error = os.read(exec_r, 4000)
    os.close(exec_r)
    if setup_error:
        sock.sendall(pack_lean_error(setup_error.decode(errors="replace")))
        renew_scratch(list(setup.scratch), setup.file_bytes)
        return True
    reply = stats.reply(before, status, (start, ended), killed, queued)
    sock.sendall(pack_lean_reply(reply))
    renew_scratch(list(setup.scratch), setup.file_bytes)  # while the grader reads the reply
    return True


def wait_run(
    pid: int, start: float, limits: tuple[float, float], stats: Stats, cpu_before: float
) -> tuple[int, float, str | None, float | None]:
    """Wait for the program under the wall limit and the CPU limit of its whole process
    tree (RLIMIT_CPU covers the program alone); (wait status, end time, why killed, and
    for a run the wall clock stopped, how long it waited for a CPU)."""
    cpu, wall = limits
    pidfd = os.pidfd_open(pid)
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    killed: str | None = None
    queued: float | None = None
    try:
        while not poller.poll(POLL_SECONDS * 1000):
            now = time.monotonic()
            if killed is None and now - start > wall:
                killed = "wall"
                queued = queued_seconds(pid)
            elif killed is None and stats.cpu() - cpu_before > cpu:
                killed = "cpu"
            if killed is not None:
                try:
                    os.kill(-1, signal.SIGKILL)
                except ProcessLookupError:
                    pass
    finally:
        os.close(pidfd)
    _, status, _ = os.wait4(pid, 0)
    return status, time.monotonic(), killed, queued
