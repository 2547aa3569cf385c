"""The node's cores as one budget, leased: every grader on the machine, in whatever
process it lives (verl's and TRL's reward workers calling ``compute_score``, gradecode,
gradeserver and its replicas, Ray actors), takes a core before it runs a program and
gives it back after, so the programs we run never ask for more cores than the node has
(issue 57: eight reward processes, each sized to every core, starved each other into
``harness_overload`` 31 times in 32).

A core is a lock file, ``LEASE_DIR/<core>``, as :mod:`identity` leases users: held with
``flock`` by an open descriptor, so the kernel keeps the books and a process that dies
gives its cores back. An exclusive lease (a run under a CPU-time limit) is the core's
alone; a shared one (a run under a wall clock, as SandboxFusion's ``/run_code``) shares
it, fairly (each run's control group has its own weight), with other shared runs only.
Everyone waiting queues on one more lock, the turnstile: its holder is next, and takes
the first core that frees; so a grader giving a core back and asking again at once
cannot pass a process that waits, and exclusive leases are not starved by a stream of
shared ones. The first grader's cores are the budget: a grader allowed fewer cores
(``taskset``, a container's cpuset) leases among those it may use.

What a lease confines is the caller's: the thread that holds it names its core in each
run it asks for (:func:`current`), the program's control group is limited to that core
(its ``cpuset``: ``sched_setaffinity`` cannot leave it), and the grader's own thread is
pinned there while it works. Standard library only, as all of ``sandbox/``."""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import stat
import sys
import tempfile
import threading

TYPE_CHECKING = False  # (not typing's: the sandbox's modules import no more than they use)
if TYPE_CHECKING:
    from collections.abc import Iterator

LEASE_DIR = "/run/problemtools_py/cores"  # root's; others lease in a directory of their own
ENV = "PROBLEMTOOLS_PY_CORE_LEASES"  # another directory: a budget apart (a test's, say)
TURNSTILE = "turnstile"
DOORBELL = "doorbell"  # see _Doorbell
WAKE_AT_LEAST = 0.05  # seconds: the turnstile holder looks again at least this often

_local = threading.local()  # .core: the lease this thread holds
_warned: list[bool] = []
_checked: dict[int, str] = {}  # uid -> the lease directory checked for it
_held: set[int] = set()  # every lease descriptor of this process (closed in a forked child)
_shared_here: dict[int, int] = {}  # core -> shared leases this process holds on it
_books = threading.Lock()


def lease_dir() -> str:
    """The lock directory: root's under /run, made root-only; another user's in its own
    directory under the temporary one; or the one ``ENV`` names. A directory someone else
    could change (or a symbolic link) is refused: whoever owns it could hold every core."""
    uid = os.geteuid()
    own = os.path.join(tempfile.gettempdir(), f"problemtools_py-cores-{uid}")
    path = os.environ.get(ENV) or (LEASE_DIR if uid == 0 else own)
    if _checked.get(uid) == path:  # (once per process: every lease asks)
        return path
    os.makedirs(path, mode=0o700, exist_ok=True)
    checked = (os.path.dirname(path), path) if uid == 0 and path == LEASE_DIR else (path,)
    for each in checked:
        st = os.lstat(each)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != uid or st.st_mode & 0o022:
            raise OSError(f"{each} is not a directory only its owner may change")
    _checked[uid] = path
    return path


def node_cores() -> list[int]:
    """The cores this process may use (its main thread's affinity: a worker thread may
    be pinned to one of them for the moment)."""
    try:
        return sorted(os.sched_getaffinity(os.getpid()))
    except OSError:
        return list(range(os.cpu_count() or 1))


def current() -> int | None:
    """The core this thread leases (its runs are confined to it), or None."""
    core: int | None = getattr(_local, "core", None)
    return core


@contextlib.contextmanager
def leased(shared: bool = False, pin: bool = False) -> Iterator[int | None]:
    """A core for this thread while the block runs (the one it holds already, when it
    holds one: leases nest). ``shared``: a wall-clock run's, see the module's text;
    ``pin``: this thread runs there meanwhile too (its jail and programs, and the thread
    reading their results, on one core), and only meanwhile (threads it started
    elsewhere would keep a pin). None (with a warning, once) when the lock directory
    cannot be used: the runs go unconfined."""
    held = current()
    if held is not None:
        yield held
        return
    try:
        core, fd = _acquire(shared)
    except OSError as exc:
        if not _warned:
            _warned.append(True)
            print(f"warning: no core leases ({exc}): programs run on any core", file=sys.stderr)
        yield None
        return
    _local.core = core
    try:
        with thread_on({core}) if pin else contextlib.nullcontext():
            yield core
    finally:
        _local.core = None
        _release(core, fd, shared)


@contextlib.contextmanager
def thread_on(cpus: set[int]) -> Iterator[None]:
    """This thread (only) on ``cpus`` while the block runs, then back where it was; left
    alone where that is refused."""
    try:
        before = os.sched_getaffinity(0)
        os.sched_setaffinity(0, cpus)
    except OSError:
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, before)


@contextlib.contextmanager
def lent(core: int | None) -> Iterator[None]:
    """This thread's runs on ``core``, a lease another thread holds while this one works
    for it (an interactive submission and its validator, run at once: the lease holder
    joins both before it gives the core back)."""
    before = current()
    _local.core = core
    try:
        yield
    finally:
        _local.core = before


def _open(directory: str, name: str) -> int:
    fd = os.open(f"{directory}/{name}", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    with _books:
        _held.add(fd)
    return fd


def _close(fd: int) -> None:
    with _books:
        _held.discard(fd)
    os.close(fd)  # (the lock goes with the last descriptor of its open file)


def _acquire(shared: bool) -> tuple[int, int]:
    directory = lease_dir()
    gate = _open(directory, TURNSTILE)
    try:
        try:
            fcntl.flock(gate, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fcntl.flock(gate, fcntl.LOCK_EX)  # someone waits: behind them
        found = _try_cores(directory, shared)
        if found is not None:
            return found
        with _Doorbell(directory) as bell:  # (open before the next look: no ring lost)
            while (found := _try_cores(directory, shared)) is None:
                bell.wait(WAKE_AT_LEAST)
        return found
    finally:
        _close(gate)


class _Doorbell:
    """What the turnstile's holder waits on while every core is taken: a FIFO that a
    grader giving a core back writes a byte into (when someone reads it), so the core is
    taken the moment it frees, not at the next look (a look every 2 ms left a core idle
    a third of the time between completions of a few milliseconds). The holder keeps a
    writer open too: a FIFO whose last writer went would read as ended, at once, ever
    after. A process that dies holding a core rings no bell: looked at every
    WAKE_AT_LEAST seconds."""

    def __init__(self, directory: str) -> None:
        self.path = f"{directory}/{DOORBELL}"
        with contextlib.suppress(FileExistsError):
            os.mkfifo(self.path, 0o600)
        if not stat.S_ISFIFO(os.lstat(self.path).st_mode):  # (anything else reads at once)
            os.unlink(self.path)
            os.mkfifo(self.path, 0o600)
        self.read = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        self.keep = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)

    def __enter__(self) -> _Doorbell:
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self.keep)
        os.close(self.read)

    def wait(self, seconds: float) -> None:
        select.select([self.read], [], [], seconds)
        with contextlib.suppress(BlockingIOError):
            os.read(self.read, 4096)


def _ring(directory: str) -> None:
    """Tell the grader waiting for a core, if one does (no reader: ENXIO, nothing to do)."""
    try:
        fd = os.open(f"{directory}/{DOORBELL}", os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.write(fd, b"!")
    except OSError:
        pass  # (full: rung already)
    finally:
        os.close(fd)


def _try_cores(directory: str, shared: bool) -> tuple[int, int] | None:
    """A free core (for a shared lease, the one fewest of this process's shared runs use
    first), locked; None when every core is taken."""
    cores = node_cores()
    if shared:
        with _books:
            cores.sort(key=lambda core: _shared_here.get(core, 0))
    else:  # (threads of one process spread from different cores: fewer tries each)
        start = threading.get_ident() % len(cores)
        cores = cores[start:] + cores[:start]
    for core in cores:
        fd = _open(directory, str(core))
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            _close(fd)
            continue
        if shared:
            with _books:
                _shared_here[core] = _shared_here.get(core, 0) + 1
        return core, fd
    return None


def _release(core: int, fd: int, shared: bool) -> None:
    if shared:
        with _books:
            _shared_here[core] -= 1
    _close(fd)
    with contextlib.suppress(OSError):
        _ring(lease_dir())


def _forget_in_child() -> None:
    """A forked child holds copies of its parent's lease descriptors, which would keep
    the leases after the parent gave them back: closed at once."""
    for fd in list(_held):
        with contextlib.suppress(OSError):
            os.close(fd)
    _held.clear()
    _shared_here.clear()
    _local.__dict__.clear()
    global _books
    _books = threading.Lock()  # (another thread may have held it at the fork)


os.register_at_fork(after_in_child=_forget_in_child)
