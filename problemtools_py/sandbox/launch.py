"""Starting a sandbox server's process: which interpreter runs it, and a start made as
early as a command knows it will run programs, before its own imports (~0.1 s), which
the server's start (~50 ms, and its probe of the jails) then overlaps. This module
imports only what a start needs, so that the start comes first."""

from __future__ import annotations

import atexit
import contextlib
import os
import resource
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

from problemtools_py.sandbox import cores, stopping
from problemtools_py.sandbox.protocol import ENV, NO_ISOLATION, SPAWNS, STACK

TYPE_CHECKING = False  # (not typing's: this module imports only what a start needs)
if TYPE_CHECKING:
    from collections.abc import Iterator

# The server imports only the standard library and this package, so it can run on the
# interpreter programs know as python3, whatever runs the judge.
_BOOT = (
    "import sys; sys.path.insert(0, sys.argv[1]); del sys.argv[1]; "
    "from problemtools_py.sandbox.server import main; main()"
)
_server_python: list[str] = []
_server_python_lock = threading.Lock()


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
    import hashlib  # (here: only an interpreter other than this one is ever probed)
    import tempfile

    key = hashlib.sha256(f"{real} {st.st_ino} {st.st_size} {st.st_mtime_ns}".encode())
    memo = cache_dir() / "sandbox" / f"python3-{key.hexdigest()[:16]}"
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
        fd, staged = tempfile.mkstemp(dir=memo.parent)
        with os.fdopen(fd, "w") as handle:
            handle.write("1" if recent else "0")
        os.replace(staged, memo)
    return recent


def start_server(
    child: socket.socket, isolate: bool, spawns: bool = False
) -> subprocess.Popen[bytes]:
    """A new server process (a new interpreter: ~50 ms) talking on ``child``; with
    ``spawns``, one that will fork the others and run nothing itself (see Server.spawn),
    which prepares for that as soon as it has said hello."""
    package_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    # -S: no site-packages on its path, nor site's start-up (5-25 ms); its in-process
    # Python programs get what of site python3 gives them (see pylife). The locale the
    # programs have (ENV's), so that the interpreter starts as python3 does for them: a
    # server in the C locale ran in UTF-8 mode (locale.getpreferredencoding 'utf-8').
    args = [server_python(), "-I", "-S", "-c", _BOOT, package_root, str(child.fileno())]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": ENV["LANG"]}
    if not isolate or os.environ.get(NO_ISOLATION):  # (asked for: see Server._probe)
        env[NO_ISOLATION] = "1"
    if spawns:
        env[SPAWNS] = "1"
    # A process group of its own: Ctrl-C at the terminal goes to the judge's group, and the
    # judge decides (a server started early is still importing, and would die of it with a
    # traceback); a server ends anyway when the judge's end of its line closes.
    with _unpinned(), programs_stack():
        server = subprocess.Popen(
            args,
            pass_fds=[child.fileno()],
            stdin=subprocess.DEVNULL,
            env=env,
            close_fds=True,
            process_group=0,
        )
    stopping.track(server)  # (and so killed at Ctrl-C)
    return server


@contextlib.contextmanager
def programs_stack() -> Iterator[None]:
    """The programs' stack (protocol.STACK) as this process's soft limit while it starts a
    server. glibc reads the limit once, when a process starts, as the stack of every
    thread made without a size of its own, and the kernel leaves a gap of that size below
    the main thread's stack. A Python program forked from the server (or from a lean init
    it starts) inherits both: under the launcher's limit (8 MiB in a shell, or unlimited,
    which glibc reads as 8 MiB) its threads had that stack, and a reward depended on who
    started the grader (issue 60). The hard limit is raised where this process may; where
    it may not, the smaller stack is said once, and every program gets it."""
    before = resource.getrlimit(resource.RLIMIT_STACK)
    hard = before[1]
    if hard != resource.RLIM_INFINITY and hard < STACK:
        try:
            resource.setrlimit(resource.RLIMIT_STACK, (STACK, STACK))
            hard = STACK
        except (OSError, ValueError):
            _say_stack(hard)
    soft = STACK if hard == resource.RLIM_INFINITY else min(STACK, hard)
    resource.setrlimit(resource.RLIMIT_STACK, (soft, hard))
    try:
        yield
    finally:
        with contextlib.suppress(OSError, ValueError):  # (lowering is always allowed)
            resource.setrlimit(resource.RLIMIT_STACK, before)


_stack_said: list[int] = []


def _say_stack(hard: int) -> None:
    """One warning per process: programs get ``hard`` bytes of stack, not STACK."""
    if not _stack_said:
        _stack_said.append(hard)
        import logging  # (here: only this warning needs it)

        logging.getLogger("problemtools_py.sandbox").warning(
            "programs get a stack of %d MiB, not %d MiB: this process's hard stack "
            "limit is %d MiB and it may not raise it (start it where `ulimit -Hs` is %d or more)",
            hard >> 20,
            STACK >> 20,
            hard >> 20,
            STACK >> 10,
        )


def _unpinned() -> contextlib.AbstractContextManager[None]:
    """This thread on every core of the process (its main thread's) while it forks a
    server, which keeps them: one started from a grading thread pinned to its leased
    core would start its interpreter there, behind whatever the machine runs on that
    core (a server watches its programs' clocks: starved, it would stop them late)."""
    try:
        return cores.thread_on(os.sched_getaffinity(os.getpid()))
    except OSError:
        return contextlib.nullcontext()


def cache_dir() -> Path:
    """problemtools_py's cache directory (as cachedir.cache_root: the sandbox package
    imports nothing of the judge's outside it)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "problemtools_py"


Started = tuple[subprocess.Popen[bytes], socket.socket]  # a server and the judge's end
_early: list[tuple[bool, Started]] = []  # see start_early
_left: list[subprocess.Popen[bytes]] = []  # (kept: dropping a running Popen warns)
_early_asked: list[bool] = []
_early_lock = threading.Lock()


def start_early(isolate: bool = True) -> None:
    """Start this process's first server now (once): the first pool to need one takes it
    as the spawner of its servers (see take_early) and waits for its hello then. One no
    pool took has its end of the line closed at exit, and ends by itself on seeing that.
    A failure here is met again, and reported, by the pool."""
    with _early_lock:
        if _early_asked:
            return
        _early_asked.append(isolate)
        parent, child = socket.socketpair()
        try:
            _early.append((isolate, (start_server(child, isolate, spawns=True), parent)))
        except OSError:
            parent.close()
            return
        finally:
            child.close()
    atexit.register(close_early)


def take_early(isolate: bool) -> Started | None:
    """The server started early, once, to a pool of the same isolation."""
    with _early_lock:
        if not _early or _early[0][0] != isolate:
            return None
        return _early.pop()[1]


def close_early() -> None:
    """At exit, an early server no pool took: its line closed, not waited for (a warm
    verification, which runs nothing, does not wait for a server it never used)."""
    with _early_lock:
        for _, (proc, sock) in _early:
            sock.close()
            _left.append(proc)
        _early.clear()
